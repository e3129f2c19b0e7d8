package redisearch

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/embed"
)

// TestSearchPhases measures, on an index already built in a running
// server, where one search's time goes with the shipped query forms (the
// BM25 leg's rare-term split, the vector leg's KNN): the candidates'
// FT.SEARCH, loading the candidates (every field, as load does, against
// the content field only), re-scoring, and the vector leg, p50 per caller
// over the claims, statistics cached (a first pass warms them).
//
//	ASSAY_PHASE_REDIS=host:port ASSAY_PHASE_NAME=index ASSAY_PHASE_QUERIES=queries.jsonl [ASSAY_PHASE_EVERY=10]
func TestSearchPhases(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "PHASE", "QUERIES", 10)
	k := 100
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	rdb := ix.rdb
	texts := sampleQueries(t, qpath, every)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	qvecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	all := scaleGroups()
	callers := []struct {
		name   string
		groups []string
	}{{"all", all}, {"public", []string{"public"}}, {"team-07", []string{"team-07"}}}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	p50 := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		if len(s) == 0 {
			return math.NaN()
		}
		return s[len(s)/2]
	}
	for _, c := range callers {
		ph := map[string][]float64{}
		for pass := range 2 {
			for qi, text := range texts {
				f := backend.Filter{Groups: c.groups}
				t0 := time.Now()
				qterms := ix.an.Terms(text)
				qt, v, err := ix.weigh(ctx, qterms, c.groups)
				if err != nil {
					t.Fatal(err)
				}
				s := v.s
				if len(qt.terms) == 0 {
					continue
				}
				if _, err := ix.avgLen(ctx, s); err != nil {
					t.Fatal(err)
				}
				t1 := time.Now()
				filter := filterQuery(f, !s.all)
				depth := candidateDepth(k)
				var ids []string
				var total int64
				split := false
				q, rd := textQuery(qt.terms, filter, qt.weights), depth
				if common := ix.rare.split(qt.vdf, qt.mass, s.n); common != nil {
					ids, _, _, total, err = ix.candidates(ctx, ix.vn, ix.rare.query(qt.terms, qt.weights, qt.mass, qt.vdf, s.n, common, filter), ix.rare.splitDepth(depth), false)
					if err == nil && total < int64(depth) {
						ids = nil
					}
					split = ids != nil
					if split {
						q, rd = ix.rare.query(qt.terms, qt.weights, qt.mass, qt.vdf, s.n, common, filter), ix.rare.splitDepth(depth)
					}
				}
				if ids == nil && err == nil {
					ids, _, _, total, err = ix.candidates(ctx, ix.vn, textQuery(qt.terms, filter, qt.weights), depth, false)
				}
				if err != nil {
					t.Fatal(err)
				}
				t2 := time.Now()
				// load, every field, cold (no cache: openBuilt opens without one)
				got, err := ix.load(ctx, ids)
				if err != nil {
					t.Fatal(err)
				}
				t3 := time.Now()
				cands := make([]candidate, len(got))
				for i, g := range got {
					cands[i] = candidate{id: g.chunk.ID, content: g.content}
				}
				rescore(v, ix.m.BM25, qterms, cands, k)
				t4 := time.Now()
				// content only
				pipe := rdb.Pipeline()
				cmds := make([]*redis.SliceCmd, len(ids))
				for i, id := range ids {
					cmds[i] = pipe.HMGet(ctx, chunkPrefix(ix.vn)+id, fieldContent)
				}
				if _, err := pipe.Exec(ctx); err != nil {
					t.Fatal(err)
				}
				var cbytes int
				for _, cmd := range cmds {
					if sv, ok := cmd.Val()[0].(string); ok {
						cbytes += len(sv)
						_ = unescapeTerms(sv)
					}
				}
				t5 := time.Now()
				_, _, err = ix.SearchVector(ctx, qvecs[qi], f, k)
				if err != nil {
					t.Fatal(err)
				}
				t6 := time.Now()
				if _, err := rdb.Do(ctx, "FT.SEARCH", ix.vn, q, "NOCONTENT", "VERBATIM", "WITHSCORES", "SCORER", "BM25STD",
					"LIMIT", 0, rd+tieMargin, "DIALECT", 2).Slice(); err != nil {
					t.Fatal(err)
				}
				t7 := time.Now()
				if pass == 0 {
					continue
				}
				var fbytes int
				for _, g := range got {
					fbytes += len(g.chunk.Text) + len(g.chunk.Title) + len(escapeTerms(g.terms))
				}
				ph["stats"] = append(ph["stats"], ms(t1.Sub(t0)))
				ph["candidates FT.SEARCH"] = append(ph["candidates FT.SEARCH"], ms(t2.Sub(t1)))
				ph["load all fields"] = append(ph["load all fields"], ms(t3.Sub(t2)))
				ph["rescore"] = append(ph["rescore"], ms(t4.Sub(t3)))
				ph["load content only (+unescape)"] = append(ph["load content only (+unescape)"], ms(t5.Sub(t4)))
				ph["candidates FT.SEARCH NOCONTENT"] = append(ph["candidates FT.SEARCH NOCONTENT"], ms(t7.Sub(t6)))
				ph["vector leg"] = append(ph["vector leg"], ms(t6.Sub(t5)))
				ph["candidates n"] = append(ph["candidates n"], float64(len(ids)))
				ph["matches"] = append(ph["matches"], float64(total))
				ph["KB all fields"] = append(ph["KB all fields"], float64(fbytes)/1024)
				ph["KB content"] = append(ph["KB content"], float64(cbytes)/1024)
				if split {
					ph["split"] = append(ph["split"], 1)
				}
			}
		}
		t.Logf("caller %s (%d queries, %d split):", c.name, len(ph["stats"]), len(ph["split"]))
		for _, l := range []string{"stats", "candidates FT.SEARCH", "candidates FT.SEARCH NOCONTENT", "load all fields", "rescore", "load content only (+unescape)", "vector leg", "candidates n", "matches", "KB all fields", "KB content"} {
			t.Logf("  %-32s p50 %.2f", l, p50(ph[l]))
		}
	}
}
