package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
)

// TestPassageIndex: a standalone gateway reads passages from the worker's
// index; without one it says so and answers unavailable, and once the
// worker has built the index it reads it.
func TestPassageIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ix")
	var logs bytes.Buffer
	p := newPassageIndex(dir, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	if !strings.Contains(logs.String(), "answers 503") || !strings.Contains(logs.String(), "index.dir") {
		t.Errorf("without an index the gateway logs %q; want it to say sources answer 503 and name index.dir", logs.String())
	}
	ctx := context.Background()
	if _, err := p.Chunks(ctx, []string{"pol-warranty-2026#0"}); !errs.Is(errs.Unavailable, err) {
		t.Errorf("Chunks without an index = %v; want unavailable", err)
	}

	if _, _, err := runCmd(t, "index", "--corpus", "../../testdata/hollin/corpus.jsonl", "--index", dir, "--quiet"); err != nil {
		t.Fatalf("assay index: %v", err)
	}
	if _, err := p.Chunks(ctx, []string{"pol-warranty-2026#0"}); !errs.Is(errs.Unavailable, err) {
		t.Errorf("Chunks within the retry interval = %v; want unavailable still", err)
	}
	p.retry = 0
	cs, err := p.Chunks(ctx, []string{"pol-warranty-2026#0"})
	if err != nil || len(cs) != 1 || cs[0].Title != "Warranty terms (2026)" {
		t.Errorf("Chunks once the index exists = %+v, %v", cs, err)
	}
	if _, err := p.Chunks(ctx, []string{"nope#0"}); !errs.Is(errs.NotFound, err) {
		t.Errorf("Chunks of an unknown id = %v; want not found", err)
	}
}
