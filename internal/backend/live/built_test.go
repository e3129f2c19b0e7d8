package live

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

var builtChunks = []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "kettle", Status: corpus.Current, ACL: []string{"public"}}}

// checkBuilt: Built says there is no index until build runs, then names
// the same build while nothing changes and another one after a rebuild;
// OpenPassages opens it.
func checkBuilt(t *testing.T, cfg config.Config, build func()) {
	t.Helper()
	ctx := context.Background()
	src := NewPassageSource(cfg)
	opened := false
	defer func() {
		if !opened { // the Index owns src once open: its Close closes it
			src.Close()
		}
	}()
	if _, err := src.Built(ctx); !errs.Is(errs.NotFound, err) {
		t.Fatalf("Built before any build = %v; want not found", err)
	}
	build()
	a, err := src.Built(ctx)
	if err != nil {
		t.Fatalf("Built after a build: %v", err)
	}
	if a.Same(Stamp{}) {
		t.Errorf("the build found (%+v) is the zero Stamp", a)
	}
	if b, err := src.Built(ctx); err != nil || !b.Same(a) {
		t.Errorf("Built again = %+v, %v; want the same build as %+v", b, err, a)
	}
	build()
	if c, err := src.Built(ctx); err != nil || c.Same(a) {
		t.Errorf("Built after a rebuild = %+v, %v; want another build than %+v", c, err, a)
	}
	l, err := OpenPassages(ctx, src, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	opened = true
	defer l.Close()
	if cs, err := l.Chunks(ctx, []string{"a#0"}); err != nil || len(cs) != 1 {
		t.Errorf("Chunks = %+v, %v", cs, err)
	}
}

func TestSourceBuiltBleve(t *testing.T) {
	var cfg config.Config
	cfg.Index.Dir = filepath.Join(t.TempDir(), "ix")
	checkBuilt(t, cfg, func() {
		if _, _, err := bleveindex.Build(context.Background(), cfg.Index.Dir, builtChunks, backend.BuildOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSourceBuiltRediSearch(t *testing.T) {
	srv := redistest.Start(t)
	name := redistest.Name("built")
	rdb := srv.Client(t)
	checkBuilt(t, redistest.IndexConfig(t, srv.Addr, name), func() {
		if _, _, err := redisearch.Build(context.Background(), rdb, name, builtChunks, redisearch.BuildOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}
