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

// BenchmarkStaleCheck is what the check per request costs (its
// added-ns/op metrics; ns/op is the three variants together): a public
// search (retrieval at the default top k) and a read of one chunk (a
// gateway's passage read) on the served version of the Hollin index,
// three ways within one loop, each run first, second and third in turn
// (so that the load of a shared machine, and warm caches, fall on all
// alike):
//
//   - before-ns/op: the version's searcher or chunk read alone (as main
//     served requests between its checks before round 48);
//   - first-ns/op: the version's Stale first, then the request (round
//     48's Index.current: one GET of the RediSearch current pointer, its
//     own round trip; one stat of the bleve manifest); added-first-ns/op
//     is first minus before;
//   - ride-ns/op: the request with the check riding in its first
//     command's pipeline and its answer read after (round 49's Index.run,
//     redisearch.Check; on bleve, which has no Check, the stat first as
//     before); added-ride-ns/op is ride minus before.
//
// The passage read is of a chunk cached after the first read: on
// RediSearch it sends no command, so its check is a GET alone either way.
// RediSearch needs ASSAY_TEST_REDISEARCH (it skips, saying so, without):
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
	search := func(ctx context.Context, i int) {
		if _, err := g.searcher.Search(ctx, retrieval.Request{Query: staleQueries[i%len(staleQueries)], Groups: groups, K: wire.DefaultTopK}); err != nil {
			b.Fatal(err)
		}
	}
	read := func(ctx context.Context, _ int) {
		if _, err := g.ix.Chunks(ctx, []string{"pol-warranty-2026#0"}); err != nil {
			b.Fatal(err)
		}
	}
	check := func() {
		if stale, err := g.ix.Stale(ctx); err != nil || stale {
			b.Fatalf("Stale = %v, %v", stale, err)
		}
	}
	// ride runs op as Index.run does: the check rides with its commands.
	ride := func(op func(context.Context, int), i int) {
		c, ok := g.ix.(checker)
		if !ok {
			check()
			op(ctx, i)
			return
		}
		rctx, chk := c.Check(ctx)
		op(rctx, i)
		if stale, err := chk.Stale(ctx); err != nil || stale {
			b.Fatalf("Check.Stale = %v, %v", stale, err)
		}
	}
	for _, op := range []struct {
		name string
		run  func(context.Context, int)
	}{{"search", search}, {"passage", read}} {
		op.run(ctx, 0) // warm: caches, first reads
		b.Run(op.name, func(b *testing.B) {
			var took [3]time.Duration // before, first, ride
			variants := [3]func(int){
				func(i int) { op.run(ctx, i) },
				func(i int) { check(); op.run(ctx, i) },
				func(i int) { ride(op.run, i) },
			}
			i := 0
			for b.Loop() {
				for j := range 3 { // each variant first, second, third in turn
					v := (i + j) % 3
					t := time.Now()
					variants[v](i)
					took[v] += time.Since(t)
				}
				i++
			}
			before, first, rode := took[0], took[1], took[2]
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(i) }
			b.ReportMetric(per(before), "before-ns/op")
			b.ReportMetric(per(first), "first-ns/op")
			b.ReportMetric(per(rode), "ride-ns/op")
			b.ReportMetric(per(first-before), "added-first-ns/op")
			b.ReportMetric(per(rode-before), "added-ride-ns/op")
		})
	}
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			check()
		}
	})
}
