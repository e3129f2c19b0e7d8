package retrieval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// BenchmarkBuild measures a whole index build (chunk, BM25, embed, write)
// of the Hollin corpus, and of SciFact with ASSAY_SCIFACT=1. It reports
// the Go heap in use after the build (heap-MB) besides time and
// allocations.
func BenchmarkBuild(b *testing.B) {
	sets := map[string]string{"hollin": filepath.Join(hollinDir, "corpus.jsonl")}
	if d := scifactDirIfEnabled(); d != "" {
		sets["scifact"] = filepath.Join(d, "corpus.jsonl")
	}
	for _, name := range []string{"hollin", "scifact"} {
		path, ok := sets[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			docs, err := corpus.LoadJSONL(path)
			if err != nil {
				b.Fatal(err)
			}
			ch, _ := chunk.New(chunk.Default())
			emb, _ := embed.NewHashed(embed.DefaultHashedDim)
			b.ReportAllocs()
			var heap uint64
			for b.Loop() {
				dir := filepath.Join(b.TempDir(), "ix")
				if _, _, err := bleveindex.Build(context.Background(), dir, ch.SplitAll(docs), backend.BuildOptions{Embedder: emb}); err != nil {
					b.Fatal(err)
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap = max(heap, ms.HeapInuse)
			}
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		})
	}
}

// BenchmarkOpen measures opening a built index (reading chunks and
// vectors, counting terms, fingerprinting, opening bleve) and reports the
// Go heap the open index holds (heap-MB).
func BenchmarkOpen(b *testing.B) {
	d := scifactDirIfEnabled()
	var dir string
	if d != "" {
		ix, _ := buildSciFact(b, d, defaultScifactBuild())
		dir = ix.Dir()
		ix.Close()
	} else {
		_, ix := hollin(b)
		dir = ix.Dir()
		ix.Close()
	}
	var heap float64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ix, err := bleveindex.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(after.HeapInuse-before.HeapInuse) / (1 << 20)
		ix.Close()
	}
	b.ReportMetric(heap, "heap-MB")
}

// BenchmarkSearch measures one query per mode over SciFact's test queries
// (ASSAY_SCIFACT=1) or the Hollin questions, cycling through the set, and
// reports nearest-rank p50 and p99 per stage (ms) next to ns/op. The
// "bleve" sub-benchmark is the baseline in the same run: a bare BM25 top-100
// from the index with no fusion, dedup, prior or checks.
func BenchmarkSearch(b *testing.B) {
	ix, r, queries := benchSetup(b, defaultScifactBuild())
	groups := []string{"public"}
	// The baseline searches as a principal who sees every chunk, so it is
	// bleve's own search on Hollin too (see BenchmarkSearchVisibleSet).
	every := []string{"public", "partners", "staff", "finance", "partner:brook-street", "partner:calder-fix"}
	b.Run("bleve", func(b *testing.B) {
		var lat []time.Duration
		i := 0
		for b.Loop() {
			start := time.Now()
			if _, err := ix.SearchText(context.Background(), queries[i%len(queries)], backend.Filter{Groups: every}, 100); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
			i++
		}
		report(b, map[string][]time.Duration{"total": lat})
	})
	for _, mode := range retrieval.Modes {
		b.Run(string(mode), func(b *testing.B) {
			stages := map[string][]time.Duration{}
			i := 0
			for b.Loop() {
				start := time.Now()
				res, err := r.Search(context.Background(), retrieval.Request{Query: queries[i%len(queries)], Groups: groups, K: 100, Mode: mode})
				if err != nil {
					b.Fatal(err)
				}
				stages["total"] = append(stages["total"], time.Since(start))
				for _, s := range res.Stages {
					stages[s.Name] = append(stages[s.Name], time.Duration(s.Millis*float64(time.Millisecond)))
				}
				i++
			}
			report(b, stages)
		})
	}
}

// BenchmarkSearchVisibleSet measures what scoring with a principal's
// visible statistics costs. Over one index where every other document is
// restricted (SciFact with ASSAY_SCIFACT=1, else Hollin as it is), "all"
// searches as a principal who sees every chunk (bleve's scores, as
// before) and "part" as a public one, who does not (bleve matches the visible
// chunks, which are scored with the visible set's statistics).
func BenchmarkSearchVisibleSet(b *testing.B) {
	sb := defaultScifactBuild()
	sb.restrictHalf = true
	_, r, queries := benchSetup(b, sb)
	all := []string{"public", "restricted", "partners", "staff", "finance", "partner:brook-street", "partner:calder-fix"}
	part := []string{"public"}
	for _, mode := range []retrieval.Mode{retrieval.BM25, retrieval.HybridRerank} {
		for _, who := range []struct {
			name   string
			groups []string
		}{{"all", all}, {"part", part}} {
			b.Run(string(mode)+"/"+who.name, func(b *testing.B) {
				var lat []time.Duration
				i := 0
				for b.Loop() {
					start := time.Now()
					if _, err := r.Search(context.Background(), retrieval.Request{Query: queries[i%len(queries)], Groups: who.groups, K: 100, Mode: mode}); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(start))
					i++
				}
				report(b, map[string][]time.Duration{"total": lat})
			})
		}
	}
}

// benchSetup opens the benchmark index — SciFact built with sb when
// ASSAY_SCIFACT=1, else Hollin — with a default retriever and the
// queries to cycle through: SciFact's test queries or the Hollin
// questions. The index closes when the benchmark ends.
func benchSetup(b *testing.B, sb scifactBuild) (*bleveindex.Index, *retrieval.Retriever, []string) {
	var (
		ix      *bleveindex.Index
		emb     *embed.Hashed
		queries []string
	)
	if d := scifactDirIfEnabled(); d != "" {
		ix, emb = buildSciFact(b, d, sb)
		b.Cleanup(func() { ix.Close() })
		ds, err := eval.LoadBEIR(d, eval.SplitTest)
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range ds.Queries {
			queries = append(queries, q.Text)
		}
	} else {
		_, ix = hollin(b)
		emb, _ = embed.NewHashed(embed.DefaultHashedDim)
		qs, err := eval.LoadQuestions(filepath.Join(hollinDir, "questions.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range qs {
			queries = append(queries, q.Question)
		}
	}
	r, err := retrieval.NewWithOptions(ix, retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights)})
	if err != nil {
		b.Fatal(err)
	}
	return ix, r, queries
}

// report adds p50 and p99 per stage, in milliseconds.
func report(b *testing.B, stages map[string][]time.Duration) {
	names := make([]string, 0, len(stages))
	for n := range stages {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := slices.Clone(stages[n])
		b.ReportMetric(ms(percentile.NearestRank(d, 50)), fmt.Sprintf("%s-p50-ms", n))
		b.ReportMetric(ms(percentile.NearestRank(d, 99)), fmt.Sprintf("%s-p99-ms", n))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// scifactDirIfEnabled is the SciFact directory with ASSAY_SCIFACT=1, else
// "" (benchmarks then run on Hollin only and say so).
func scifactDirIfEnabled() string {
	if os.Getenv("ASSAY_SCIFACT") != "1" {
		fmt.Println("NOTE: SciFact benchmarks SKIPPED; set ASSAY_SCIFACT=1 to run them (Hollin only)")
		return ""
	}
	if d := os.Getenv("ASSAY_SCIFACT_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "data", "scifact")
}
