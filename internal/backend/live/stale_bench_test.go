package live

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
)

// staleQueries are a few Hollin questions' searches, cycled.
var staleQueries = []string{
	"how long is the blender motor warranty",
	"supplier invoice payment terms",
	"what did the X200 jar recall cost",
	"quarterly budget for partner firms",
}

// BenchmarkStaleCheck is what round 48's check per request costs (its
// added-ns/op metric; ns/op is before and after together): a
// public search (retrieval at the default top k) and a read of one chunk
// (a gateway's passage read) on the served version of the Hollin index,
// "before" as main served them between its checks (the version's
// searcher or chunk read alone; RediSearch asked for a newer version at
// most once a second, bleve stat'ed then too), "after" with the version's
// Stale first, as Index.current asks it now (one GET of the RediSearch
// current pointer; one stat of the bleve manifest). RediSearch needs
// ASSAY_TEST_REDISEARCH (it skips, saying so, without):
//
//	ASSAY_TEST_REDISEARCH=/work/shared/redisearch go test ./internal/backend/live \
//	    -run XXX -bench StaleCheck -count 3
func BenchmarkStaleCheck(b *testing.B) {
	b.Run("bleve", func(b *testing.B) {
		cfg := config.Default()
		cfg.Index.Dir = b.TempDir()
		benchStale(b, cfg)
	})
	b.Run("redisearch", func(b *testing.B) {
		srv := redistest.Start(b)
		benchStale(b, redistest.IndexConfig(b, srv.Addr, redistest.Name("stalebench")))
	})
}

func benchStale(b *testing.B, cfg config.Config) {
	ctx := context.Background()
	cfg.Index.Corpus = "../../../testdata/hollin/corpus.jsonl"
	l, err := Open(ctx, cfg, slog.New(slog.DiscardHandler), true)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	g := l.cur.Load()
	groups := []string{wire.PublicGroup}
	search := func(i int) {
		if _, err := g.searcher.Search(ctx, retrieval.Request{Query: staleQueries[i%len(staleQueries)], Groups: groups, K: wire.DefaultTopK}); err != nil {
			b.Fatal(err)
		}
	}
	read := func(int) {
		if _, err := g.ix.Chunks(ctx, []string{"pol-warranty-2026#0"}); err != nil {
			b.Fatal(err)
		}
	}
	check := func() {
		if stale, err := g.ix.Stale(ctx); err != nil || stale {
			b.Fatalf("Stale = %v, %v", stale, err)
		}
	}
	for _, op := range []struct {
		name string
		run  func(int)
	}{{"search", search}, {"passage", read}} {
		op.run(0) // warm: caches, first reads
		// Before and after alternate within one loop, so that the load
		// of a shared machine falls on both alike.
		b.Run(op.name, func(b *testing.B) {
			var before, after time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				op.run(i)
				t1 := time.Now()
				check()
				op.run(i)
				after += time.Since(t1)
				before += t1.Sub(t0)
				i++
			}
			b.ReportMetric(float64(before.Nanoseconds())/float64(i), "before-ns/op")
			b.ReportMetric(float64(after.Nanoseconds())/float64(i), "after-ns/op")
			b.ReportMetric(float64(after-before)/float64(i), "added-ns/op")
		})
	}
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			check()
		}
	})
}
