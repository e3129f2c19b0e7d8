package redisearch

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/eval"
)

// TestSearchTimeBreakdown measures where a BM25 search's time goes on an
// index already built in a running server (docs/log/performance-scale.md,
// "RediSearch at 500k"): per phase of SearchText (statistics, the
// candidates' FT.SEARCH, loading them, re-scoring) and the same FT.SEARCH
// written other ways. ASSAY_DIAG_REDIS=host:port ASSAY_DIAG_NAME=index
// ASSAY_DIAG_QUERIES=queries.jsonl [ASSAY_DIAG_EVERY=5].
func TestSearchTimeBreakdown(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "DIAG", "QUERIES", 5)
	k := 100 // the scale benchmark's k
	if s := os.Getenv("ASSAY_DIAG_K"); s != "" {
		fmt.Sscan(s, &k)
	}
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	rdb := ix.rdb
	queries := sampleQueries(t, qpath, every)
	all := scaleGroups()
	callers := []struct {
		name   string
		groups []string
	}{{"all", all}, {"public", []string{"public"}}, {"team-07", []string{"team-07"}}}
	depth := candidateDepth(k)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	p50 := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		if len(s) == 0 {
			return math.NaN()
		}
		return s[len(s)/2]
	}
	mean := func(xs []float64) float64 {
		var s float64
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	ftTime := func(q string, limit int) (time.Duration, int64, []string) {
		start := time.Now()
		raw, err := rdb.Do(ctx, "FT.SEARCH", ix.vn, q, "NOCONTENT", "VERBATIM", "WITHSCORES", "SCORER", "BM25STD",
			"LIMIT", 0, limit, "DIALECT", 2).Slice()
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var ids []string
		for i := 1; i+1 < len(raw); i += 2 {
			ids = append(ids, raw[i].(string))
		}
		return took, raw[0].(int64), ids
	}
	for _, c := range callers {
		var stats, cand, load, resc, total []float64
		var matches []float64
		variants := map[string][]float64{}
		overlap := map[string][]float64{}
		var nterms, prunable []float64
		for pass := range 2 { // pass 0 warms the statistics caches
			for _, text := range queries {
				fl := backend.Filter{Groups: c.groups}
				t0 := time.Now()
				qterms := ix.an.Terms(text)
				qt, v, err := ix.weigh(ctx, qterms, c.groups)
				if err != nil {
					t.Fatal(err)
				}
				s := v.s
				terms, weights := qt.terms, qt.weights
				if len(terms) == 0 {
					continue
				}
				if _, err := ix.avgLen(ctx, s); err != nil {
					t.Fatal(err)
				}
				t1 := time.Now()
				filter := filterQuery(fl, !s.all)
				query := textQuery(terms, filter, weights)
				ids, _, _, _, err := ix.candidates(ctx, ix.vn, query, depth, false)
				if err != nil {
					t.Fatal(err)
				}
				t2 := time.Now()
				got, err := ix.load(ctx, ids)
				if err != nil {
					t.Fatal(err)
				}
				t3 := time.Now()
				cands := make([]candidate, len(got))
				for i, g := range got {
					cands[i] = candidate{id: g.chunk.ID, content: g.content}
				}
				hits := rescore(v, ix.m.BM25, qterms, cands, k)
				t4 := time.Now()
				if pass == 0 {
					continue
				}
				stats, cand, load, resc, total = append(stats, ms(t1.Sub(t0))), append(cand, ms(t2.Sub(t1))),
					append(load, ms(t3.Sub(t2))), append(resc, ms(t4.Sub(t3))), append(total, ms(t4.Sub(t0)))
				nterms = append(nterms, float64(len(terms)))
				base, n, _ := ftTime(query, depth)
				matches = append(matches, float64(n))
				variants["as sent"] = append(variants["as sent"], ms(base))
				try := func(label, q string, limit int) {
					d, _, got := ftTime(q, limit)
					variants[label] = append(variants[label], ms(d))
					// top-10 agreement of the re-scored candidates with SearchText's
					for i := range got {
						got[i] = strings.TrimPrefix(got[i], chunkPrefix(ix.vn))
					}
					cc, err := ix.load(ctx, got)
					if err != nil {
						t.Fatal(err)
					}
					cs := make([]candidate, len(cc))
					for i, g := range cc {
						cs[i] = candidate{id: g.chunk.ID, content: g.content}
					}
					mine := rescore(v, ix.m.BM25, qterms, cs, 10)
					in, want := 0, min(10, len(hits))
					for _, h := range mine {
						if slices.ContainsFunc(hits[:want], func(x backend.Hit) bool { return x.ChunkID == h.ChunkID }) {
							in++
						}
					}
					if want > 0 {
						overlap[label] = append(overlap[label], float64(in)/float64(want))
					}
				}
				try("LIMIT 0 10", query, 10)
				try("LIMIT 0 1000", query, 1000)
				try("no weights", textQuery(terms, filter, nil), depth)
				if filter != "" {
					try("no filter", textQuery(terms, "", weights), depth)
					try("filter once outside the union", "("+textQuery(terms, "", weights)+") ("+filter+")=>{$weight: 0}", depth)
				}
				// Without the terms that more than 10% of the visible chunks hold.
				dfs, _ := ix.docFreqs(ctx, s, terms)
				var rare []string
				var rw []float64
				for i, tt := range terms {
					if float64(dfs[i]) <= 0.1*float64(s.n) {
						rare, rw = append(rare, tt), append(rw, weights[i])
					}
				}
				if len(rare) > 0 && len(rare) < len(terms) {
					try("without terms in >10% of visible", textQuery(rare, filter, rw), depth)
				}
				// MaxScore: a chunk holding only terms D scores at most
				// (sum over D's query positions of idf²·norm·k1)·|D|/|Q|;
				// drop the commonest terms while that stays below the k-th
				// exact score found, and see what the rest costs.
				if len(hits) == k {
					bq := backend.NewBM25Query(v, ix.m.BM25, qterms)
					theta := hits[k-1].Score
					bound := func(drop map[string]bool) float64 {
						var sum float64
						n := 0
						for i, q := range qterms {
							if drop[q] {
								sum += bq.IDF(i) * bq.IDF(i) * ix.m.BM25.K1
								n++
							}
						}
						if sumSq := func() float64 {
							var x float64
							for i := range qterms {
								x += bq.IDF(i) * bq.IDF(i)
							}
							return x
						}(); sumSq > 0 {
							sum /= math.Sqrt(sumSq)
						}
						return sum * float64(n) / float64(len(qterms))
					}
					order := make([]int, len(terms))
					for i := range order {
						order[i] = i
					}
					slices.SortFunc(order, func(a, b int) int { return dfs[b] - dfs[a] })
					drop := map[string]bool{}
					for _, i := range order[:len(order)-1] {
						drop[terms[i]] = true
						if bound(drop) >= theta {
							delete(drop, terms[i])
							break
						}
					}
					prunable = append(prunable, float64(len(drop)))
					if len(drop) > 0 {
						var et []string
						var ew []float64
						for i, tt := range terms {
							if !drop[tt] {
								et, ew = append(et, tt), append(ew, weights[i])
							}
						}
						try("MaxScore essential terms only", textQuery(et, filter, ew), depth)
						try("MaxScore essential, LIMIT 2×depth", textQuery(et, filter, ew), 2*depth)
						try("MaxScore essential, LIMIT 5×depth", textQuery(et, filter, ew), 5*depth)
					}
				}
			}
		}
		t.Logf("caller %s (%d queries): terms p50 %.0f, matches p50 %.0f", c.name, len(total), p50(nterms), p50(matches))
		np := 0
		for _, x := range prunable {
			if x > 0 {
				np++
			}
		}
		t.Logf("  MaxScore at k=%d: %d of %d queries could drop terms (p50 dropped %.0f)", k, np, len(prunable), p50(prunable))
		t.Logf("  phases p50 ms: stats %.2f, candidates FT.SEARCH %.2f, load %.2f, rescore %.2f, total %.2f",
			p50(stats), p50(cand), p50(load), p50(resc), p50(total))
		labels := make([]string, 0, len(variants))
		for l := range variants {
			labels = append(labels, l)
		}
		slices.Sort(labels)
		for _, l := range labels {
			t.Logf("  FT.SEARCH %-36s p50 %.2f ms (n %d), top-10 agreement with SearchText mean %.4f", l, p50(variants[l]), len(variants[l]), mean(overlap[l]))
		}
	}
}

// openBuilt opens index name, built beforehand in the server at addr, for
// a diagnostic that measures it; the client closes when the test ends.
func openBuilt(t *testing.T, addr, name string) *Index {
	t.Helper()
	rdb := NewClient(addr, "")
	t.Cleanup(func() { rdb.Close() })
	ix, err := Open(context.Background(), rdb, name, Options{CacheChunks: -1})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// sampleQueries is the text of every every-th query of a BEIR queries
// file (bench-scale's queries.jsonl).
func sampleQueries(t *testing.T, path string, every int) []string {
	t.Helper()
	qs, err := eval.LoadQueries(path)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i, q := range qs {
		if i%every == 0 {
			texts = append(texts, q.Text)
		}
	}
	return texts
}

// measureEnv reads the settings of a measurement on an index already
// built in a running server, ASSAY_<what>_REDIS (host:port),
// ASSAY_<what>_NAME (the index) and ASSAY_<what>_<input> (its queries or
// data), and ASSAY_<what>_EVERY (every how many queries to take; every
// when unset), and skips the test, loudly, when one of the first three
// is unset.
func measureEnv(t *testing.T, what, input string, every int) (addr, name, in string, n int) {
	t.Helper()
	v := func(s string) string { return os.Getenv("ASSAY_" + what + "_" + s) }
	addr, name, in = v("REDIS"), v("NAME"), v(input)
	if addr == "" || name == "" || in == "" {
		t.Skipf("SKIPPED: measurement on a built index; set ASSAY_%[1]s_REDIS, ASSAY_%[1]s_NAME, ASSAY_%[1]s_%[2]s", what, input)
	}
	if s := v("EVERY"); s != "" {
		if _, err := fmt.Sscan(s, &every); err != nil || every < 1 {
			t.Fatalf("ASSAY_%s_EVERY: want a count ≥ 1, got %q", what, s)
		}
	}
	return addr, name, in, every
}

// scaleGroups is every group of the scale corpus's chunks (public, staff
// and team-00 … team-99): the groups of a caller who sees every chunk.
func scaleGroups() []string {
	out := []string{"public", "staff"}
	for i := range 100 {
		out = append(out, fmt.Sprintf("team-%02d", i))
	}
	return out
}
