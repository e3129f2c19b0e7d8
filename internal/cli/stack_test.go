package cli

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/config"
)

// TestDevKeepVisibilityIndexes: dev.keep_visibility_indexes, from the
// configuration file or the environment, reaches the dev server's
// options (the trim of its visibility indexes is on by default, and this
// is its only opt-out).
func TestDevKeepVisibilityIndexes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "assay.yaml")
	if err := os.WriteFile(file, []byte("dev:\n  keep_visibility_indexes: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ASSAY_DEV_KEEP_VISIBILITY_INDEXES": "true"}
	for name, opts := range map[string]config.Options{
		"default":     {},
		"file":        {File: file},
		"environment": {Getenv: func(k string) string { return env[k] }},
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := config.Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			got := NewRoot(cfg, slog.New(slog.DiscardHandler)).devOptions().KeepVisibilityIndexes
			if want := name != "default"; got != want {
				t.Errorf("KeepVisibilityIndexes = %v, want %v", got, want)
			}
		})
	}
}

// TestDevAuth: with API keys, assay dev's "try:" line carries the
// Authorization header (without it the gateway answers 401), naming the
// variable rather than printing a key; anonymous needs none.
func TestDevAuth(t *testing.T) {
	for _, c := range []struct {
		keys         int
		line, header string
	}{
		{0, "anonymous: no API keys configured, every caller sees public documents only", ""},
		{1, "1 API key", ` -H "Authorization: Bearer $ASSAY_API_KEY"`},
		{3, "3 API keys", ` -H "Authorization: Bearer $ASSAY_API_KEY"`},
	} {
		line, header := devAuth(c.keys)
		if line != c.line || header != c.header {
			t.Errorf("devAuth(%d) = %q, %q; want %q, %q", c.keys, line, header, c.line, c.header)
		}
	}
}
