package redisearch

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

// TestSplitVariants measures, on an index already built in a running
// server, variants of the BM25 leg's read (SearchText as shipped, with
// one setting changed) against SearchText as shipped: top-10 and
// top-100 agreement of the hits and Redis's FT.SEARCH time a search
// (INFO commandstats; the server must serve nobody else meanwhile),
// variants alternated per query.
//
//	ASSAY_SPLIT_REDIS=host:port ASSAY_SPLIT_NAME=index ASSAY_SPLIT_QUERIES=queries.jsonl
//	[ASSAY_SPLIT_EVERY=1] [ASSAY_SPLIT_GROUPS=public] [ASSAY_SPLIT_K=100]
//	ASSAY_SPLIT_VARIANTS="of=6 margin=1 keep=2 mass=0.375 opt=0.0025 deeper=1 of=6+keep=2"
func TestSplitVariants(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "SPLIT", "QUERIES", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	groups := envGroups("ASSAY_SPLIT_GROUPS")
	f := backend.Filter{Groups: groups}
	k := envInt(t, "ASSAY_SPLIT_K", 100)
	queries := sampleQueries(t, qpath, every)
	type variant struct {
		name string
		set  func() func() // sets, returns the restore
	}
	one := func(kv string) func() func() {
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			t.Fatalf("variant %q: want key=value", kv)
		}
		var n int
		var x float64
		fmt.Sscan(val, &n)
		fmt.Sscan(val, &x)
		switch key {
		case "of":
			return func() func() { o := swap(&overFetch, n); return func() { overFetch = o } }
		case "margin":
			return func() func() { o := swap(&tieMargin, n); return func() { tieMargin = o } }
		case "deeper":
			return func() func() { o := swap(&ix.rare.Deeper, x); return func() { ix.rare.Deeper = o } }
		case "keep":
			return func() func() { o := swap(&ix.rare.OptKeep, n); return func() { ix.rare.OptKeep = o } }
		case "mass":
			return func() func() { o := swap(&ix.rare.MassShare, x); return func() { ix.rare.MassShare = o } }
		case "opt":
			return func() func() { o := swap(&ix.rare.OptShare, x); return func() { ix.rare.OptShare = o } }
		case "df":
			return func() func() { o := swap(&ix.rare.DFShare, x); return func() { ix.rare.DFShare = o } }
		case "content":
			return func() func() { o := swap(&readContent, n != 0); return func() { readContent = o } }
		}
		t.Fatalf("variant %q: unknown setting", kv)
		return nil
	}
	vs := []variant{{"shipped", func() func() { return func() {} }}}
	for _, spec := range strings.Fields(os.Getenv("ASSAY_SPLIT_VARIANTS")) {
		var sets []func() func()
		for kv := range strings.SplitSeq(spec, "+") {
			sets = append(sets, one(kv))
		}
		vs = append(vs, variant{spec, func() func() {
			var undo []func()
			for _, s := range sets {
				undo = append(undo, s())
			}
			return func() {
				for i := len(undo) - 1; i >= 0; i-- {
					undo[i]()
				}
			}
		}})
	}
	// Warm the statistics caches once.
	for _, q := range queries {
		if _, err := ix.SearchText(ctx, q, f, k); err != nil {
			t.Fatal(err)
		}
	}
	usec := make([]float64, len(vs))
	calls := make([]float64, len(vs))
	a10 := make([]float64, len(vs))
	a100 := make([]float64, len(vs))
	same := make([]int, len(vs))
	for qi, q := range queries {
		got := make([][]backend.Hit, len(vs))
		for j := range vs {
			vi := (j + qi) % len(vs)
			undo := vs[vi].set()
			c0, u0 := redisUsec(t, ix, "FT.SEARCH", "hmget")
			hits, err := ix.SearchText(ctx, q, f, k)
			c1, u1 := redisUsec(t, ix, "FT.SEARCH", "hmget")
			undo()
			if err != nil {
				t.Fatal(err)
			}
			usec[vi] += u1 - u0
			calls[vi] += c1 - c0
			got[vi] = hits
		}
		for vi := range vs {
			a10[vi] += hitAgreement(got[0], got[vi], 10)
			a100[vi] += hitAgreement(got[0], got[vi], 100)
			if sameHits(got[0], got[vi]) {
				same[vi]++
			}
		}
	}
	n := float64(len(queries))
	t.Logf("%d queries, caller %v, k %d", len(queries), groups, k)
	for vi, v := range vs {
		t.Logf("  %-24s FT.SEARCH+HMGET %.3f calls %.2f ms a search; top-10 agreement with shipped %.4f, top-100 %.4f; identical hits %d",
			v.name, calls[vi]/n, usec[vi]/1000/n, a10[vi]/n, a100[vi]/n, same[vi])
	}
}

// envGroups is the caller's groups from the comma-separated setting
// env, `public` when unset.
func envGroups(env string) []string {
	if s := os.Getenv(env); s != "" {
		return strings.Split(s, ",")
	}
	return []string{"public"}
}

// sameHits: the same ids, in the same order, with the same scores.
func sameHits(a, b []backend.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ChunkID != b[i].ChunkID || a[i].Score != b[i].Score {
			return false
		}
	}
	return true
}

// TestSplitTies counts, for each query's BM25 leg read as SearchText
// sends it (the split query when the rule splits it), how often the
// depth-th candidate's score is tied past the depth, and how far.
//
//	ASSAY_TIES_REDIS=host:port ASSAY_TIES_NAME=index ASSAY_TIES_QUERIES=queries.jsonl [ASSAY_TIES_GROUPS=public]
func TestSplitTies(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "TIES", "QUERIES", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	groups := envGroups("ASSAY_TIES_GROUPS")
	f := backend.Filter{Groups: groups}
	depth := candidateDepth(100)
	tied, past, total, reads := 0, 0, 0, 0
	hist := map[int]int{}
	for _, q := range sampleQueries(t, qpath, every) {
		qterms := ix.an.Terms(q)
		if len(qterms) == 0 {
			continue
		}
		qt, v, err := ix.weigh(ctx, qterms, groups)
		if err != nil {
			t.Fatal(err)
		}
		if len(qt.terms) == 0 {
			continue
		}
		filter := filterQuery(f, !v.s.all)
		query, d := textQuery(qt.terms, filter, qt.weights), depth
		if common := ix.rare.split(qt.vdf, qt.mass, v.s.n); common != nil {
			query, d = ix.rare.query(qt.terms, qt.weights, qt.mass, qt.vdf, v.s.n, common, filter), ix.rare.splitDepth(depth)
		}
		raw, err := ix.rdb.Do(ctx, "FT.SEARCH", ix.vn, query, "NOCONTENT", "VERBATIM", "WITHSCORES", "SCORER", "BM25STD",
			"LIMIT", 0, d+200, "TIMEOUT", noTimeout, "DIALECT", 2).Slice()
		if err != nil {
			t.Fatal(err)
		}
		reads++
		_, _, scores, err := parseScored(raw, chunkPrefix(ix.vn))
		if err != nil {
			t.Fatal(err)
		}
		if len(scores) <= d {
			continue
		}
		total++
		cut := scores[d-1]
		n := 0
		for _, s := range scores[d:] {
			if s != cut {
				break
			}
			n++
		}
		if n > 0 {
			tied++
			hist[n]++
		}
		if n > tieMargin {
			past++
		}
	}
	t.Logf("%d reads, %d deeper than the depth: the depth-th score tied past it in %d, past the margin (%d) in %d; tie lengths %v", reads, total, tied, tieMargin, past, hist)
}
