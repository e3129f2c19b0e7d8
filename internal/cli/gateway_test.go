package cli

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// TestPassageIndex: a standalone gateway reads passages from the worker's
// index; without one it says so and answers unavailable, and once the
// worker has built the index it reads it.
func TestPassageIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ix")
	var logs bytes.Buffer
	ctx := context.Background()
	var cfg config.Config
	cfg.Index.Dir = dir
	p := newPassageIndex(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	if !strings.Contains(logs.String(), "answers 503") || !strings.Contains(logs.String(), "index.dir") {
		t.Errorf("without an index the gateway logs %q; want it to say sources answer 503 and name index.dir", logs.String())
	}
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

// TestPassageIndexFollowsRebuild: after a rebuild narrows a document's
// ACL, the gateway reads the new build, so the read-time ACL check of
// /v1/questions/{id}/sources withholds the passage from a caller who may
// no longer see it.
func TestPassageIndexFollowsRebuild(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ix")
	c := corpus.Chunk{ID: "d#0", DocID: "d", Title: "Rates", Text: "partner rates are secret", Status: corpus.Current, Authority: 1, ACL: []string{"public"}}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	var cfg config.Config
	cfg.Index.Dir = dir
	p := newPassageIndex(ctx, cfg, slog.New(slog.DiscardHandler))
	defer p.Close()
	if got, err := p.Chunks(ctx, []string{"d#0"}); err != nil || !got[0].VisibleTo([]string{"public"}) {
		t.Fatalf("before the rebuild Chunks = %+v, %v; want the public chunk", got, err)
	}
	c.ACL = []string{"staff"}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := p.Chunks(ctx, []string{"d#0"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].VisibleTo([]string{"public"}) {
		t.Errorf("after the rebuild restricted it to staff the gateway reads ACL %v: a public caller still sees the passage", got[0].ACL)
	}
}
