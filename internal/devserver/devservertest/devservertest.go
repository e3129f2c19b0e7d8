// Package devservertest finds the pinned Temporal CLI for tests that start
// a dev server.
package devservertest

import (
	"os"
	"path/filepath"
	"testing"
)

// Binary is the pinned Temporal CLI. `make test` exports
// ASSAY_DEV_TEMPORAL_BIN; when it is set the binary must exist. Without it
// the test looks in the repository's bin/ (found by walking up to go.mod)
// and skips, loudly, when nothing is there. In -short it skips: a dev
// server takes seconds to start.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIP: starts a Temporal dev server, not in -short")
	}
	if p := os.Getenv("ASSAY_DEV_TEMPORAL_BIN"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("ASSAY_DEV_TEMPORAL_BIN=%s: %v", p, err)
		}
		return p
	}
	p := filepath.Join(repoRoot(), "bin", "temporal")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("SKIP: no Temporal CLI at %s; run `make test` (it installs it)", p)
	}
	return p
}

// repoRoot is the nearest directory above the working directory holding
// go.mod (a test runs in its package's directory), or "." without one.
func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return "."
		}
	}
}
