package release

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/router"
)

// TestSetServesEachRelease: a run's searches go to its release's own
// index version, a run without one to the worker's index, and a release
// whose models differ from the worker's is refused.
func TestSetServesEachRelease(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus = "../../testdata/hollin/corpus.jsonl"
	base, err := live.Open(ctx, cfg, log, true)
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	store, _ := NewFileStore(filepath.Join(cfg.DataDir, "releases"))
	rt, err := Runtime(cfg, router.DefaultPolicy("", ""))
	if err != nil {
		t.Fatal(err)
	}
	initial, err := Create(ctx, store, cfg, rt, "initial", Source{Served: true}, "", log)
	if err != nil {
		t.Fatal(err)
	}
	own, err := Create(ctx, store, cfg, rt, "own", Source{Corpus: cfg.Index.Corpus}, "", log)
	if err != nil {
		t.Fatal(err)
	}
	other := rt
	other.Generator.Model = "elsewhere"
	if _, err := Create(ctx, store, cfg, other, "other", Source{Corpus: cfg.Index.Corpus}, "", log); err != nil {
		t.Fatal(err)
	}
	if !initial.Index.Served || own.Index.Served || own.Index.Version == base.Version() {
		t.Fatalf("initial %+v, own %+v: want initial on the served index and own on a version of its own", initial.Index, own.Index)
	}
	set := &Set{Base: base, Store: store, Cfg: cfg, Worker: rt, Log: log}
	defer set.Close()
	req := retrieval.Request{Query: "descale the kettle", Groups: []string{"public"}, K: 3}
	for _, c := range []struct{ release, version string }{{"", base.Version()}, {"initial", base.Version()}, {"own", own.Index.Version}} {
		res, err := set.Search(WithName(ctx, c.release), req)
		if err != nil || len(res.Hits) == 0 || res.Stages[0].Note != c.version {
			t.Fatalf("release %q: %d hits, stages %+v, %v; want index %s", c.release, len(res.Hits), res.Stages, err, c.version)
		}
	}
	if _, err := set.Search(WithName(ctx, "other"), req); !errs.Is(errs.Unavailable, err) || !strings.Contains(err.Error(), "elsewhere") {
		t.Fatalf("a release with another generator: %v, want unavailable naming it", err)
	}
	if _, err := set.Search(WithName(ctx, "missing"), req); !errs.Is(errs.NotFound, err) {
		t.Fatalf("a missing release: %v, want not found", err)
	}
}
