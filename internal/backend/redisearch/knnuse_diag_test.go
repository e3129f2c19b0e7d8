package redisearch

import (
	"context"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/retrieval"
)

// legProbe is an Index whose vector leg returns at most k neighbours
// (0: as asked), walked with EF_RUNTIME ef, or the exact ones (exact:
// HYBRID_POLICY ADHOC_BF over the caller's chunks, no timeout), and which
// keeps the last search's two legs for the measurement.
type legProbe struct {
	*Index
	k, ef    int
	exact    bool
	lex, vec []backend.Hit
}

func (p *legProbe) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	h, err := p.Index.SearchText(ctx, text, f, k)
	p.lex = h
	return h, err
}

func (p *legProbe) SearchVector(ctx context.Context, vec []float32, f backend.Filter, k int) ([]backend.Hit, backend.VectorStats, error) {
	if p.k > 0 {
		k = min(k, p.k)
	}
	if !p.exact {
		defer func(ef int) { vectorEF = ef }(vectorEF)
		vectorEF = p.ef
		h, st, err := p.Index.SearchVector(ctx, vec, f, k)
		p.vec = h
		return h, st, err
	}
	q := "(" + FilterQuery(f) + ")=>[KNN " + strconv.Itoa(k+vectorMargin) + " @" + fieldVector + " $B HYBRID_POLICY ADHOC_BF AS " + fieldDistance + "]"
	res, err := p.rdb.FTSearchWithArgs(ctx, p.vn, q, &redis.FTSearchOptions{
		Return:         []redis.FTSearchReturn{{FieldName: fieldDistance}},
		SortBy:         []redis.FTSearchSortBy{{FieldName: fieldDistance, Asc: true}},
		Limit:          k + vectorMargin,
		Params:         map[string]any{"B": vectorBytes(vec, p.m.vectorType())},
		DialectVersion: 2,
		Timeout:        noTimeout,
	}).Result()
	if err != nil {
		return nil, backend.VectorStats{}, err
	}
	var hits []backend.Hit
	for _, d := range res.Docs {
		x, _ := strconv.ParseFloat(d.Fields[fieldDistance], 64)
		hits = append(hits, backend.Hit{ChunkID: strings.TrimPrefix(d.ID, chunkPrefix(p.vn)), Score: 1 - x})
	}
	p.vec = backend.SortHits(hits, k)
	return p.vec, backend.VectorStats{Allowed: len(p.vec), Method: "exact"}, nil
}

// TestKNNLegUse measures, on an index already built in a running server,
// what the hybrid+rerank search (as `assay search` wires it, k 100) takes
// from its vector leg, and what the leg's EF_RUNTIME and depth do to what
// it returns. For each caller (ASSAY_EFUSE_CALLERS, "all" or groups
// joined by "+"; default all,public) and each leg of ASSAY_EFUSE_LEGS
// (EF/K: the walk's EF_RUNTIME and the neighbours handed to the fusion,
// the shipped leg being 800/100; "exact/K" the exact neighbours): nDCG@10
// against the qrels, the top-10 documents' agreement with the first leg's
// run, the share of queries whose whole list is the same, FT.SEARCH's
// Redis time a query (both legs and the statistics), and how deep in the
// leg's list the fused top 20 (the reranker's candidates) and the final
// top 10 reach: the share of them the leg found, and the 50th, 90th and
// 100th percentile of their vector rank.
//
//	ASSAY_EFUSE_REDIS=host:port ASSAY_EFUSE_NAME=index ASSAY_EFUSE_DATA=<data dir>
//	[ASSAY_EFUSE_EVERY=1] [ASSAY_EFUSE_LEGS=800/100,400/100,...] [ASSAY_EFUSE_MODE=hybrid+rerank]
func TestKNNLegUse(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "EFUSE", "DATA", 1)
	legs := []string{"800/100", "400/100", "200/100", "800/50", "400/50", "200/50", "116/50", "800/20", "200/20", "100/20"}
	if s := os.Getenv("ASSAY_EFUSE_LEGS"); s != "" {
		legs = strings.Split(s, ",")
	}
	callers := []string{"all", "public"}
	if s := os.Getenv("ASSAY_EFUSE_CALLERS"); s != "" {
		callers = strings.Split(s, ",")
	}
	mode := retrieval.HybridRerank
	if s := os.Getenv("ASSAY_EFUSE_MODE"); s != "" {
		mode = retrieval.Mode(s)
	}
	ctx := context.Background()
	ix, opts := searchWiring(t, addr, name)
	qs, qrels := judgedQueries(t, dir, every)
	for _, c := range callers {
		groups := strings.Split(c, "+")
		if c == "all" {
			groups = scaleGroups()
		}
		var ref eval.Run
		for _, leg := range legs {
			e, ks, _ := strings.Cut(leg, "/")
			p := &legProbe{Index: ix, exact: e == "exact"}
			p.k, _ = strconv.Atoi(ks)
			if !p.exact {
				p.ef, _ = strconv.Atoi(e)
			}
			r, err := retrieval.NewWithOptions(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			run := eval.Run{}
			var fusedRanks, topRanks []int
			var fusedN, fusedFound, topN, topFound int
			calls0, usec0 := redisUsec(t, ix, "FT.SEARCH")
			start := time.Now()
			for _, q := range qs {
				p.lex, p.vec = nil, nil
				res, err := r.Search(ctx, retrieval.Request{Query: q.Text, Groups: groups, K: 100, Mode: mode})
				if err != nil {
					t.Fatal(err)
				}
				sr, err := eval.RunQueries(ctx, eval.System{Name: "x", Searcher: eval.SearcherFunc(func(context.Context, retrieval.Request) (retrieval.Result, error) { return res, nil })},
					[]eval.Query{q}, eval.RetrievalOptions{K: 100, Groups: groups})
				if err != nil {
					t.Fatal(err)
				}
				run[q.ID] = sr.Run[q.ID]
				vrank := map[string]int{}
				for i, h := range p.vec {
					vrank[h.ChunkID] = i + 1
				}
				fused := retrieval.Fuse(p.lex, p.vec, retrieval.DefaultRRFK, retrieval.DefaultVectorWeight)
				sort.SliceStable(fused, func(i, j int) bool { return fused[i].Fused > fused[j].Fused })
				for _, f := range fused[:min(len(fused), retrieval.DefaultRerankDepth)] {
					fusedN++
					if n := vrank[f.ChunkID]; n > 0 {
						fusedFound++
						fusedRanks = append(fusedRanks, n)
					}
				}
				for _, h := range res.Hits[:min(len(res.Hits), 10)] {
					topN++
					if n := vrank[h.ChunkID]; n > 0 {
						topFound++
						topRanks = append(topRanks, n)
					}
				}
			}
			took := time.Since(start)
			calls1, usec1 := redisUsec(t, ix, "FT.SEARCH")
			ev, err := eval.Evaluate(qrels, run, eval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cut, _ := ev.Mean.At(10)
			if ref == nil {
				ref = run
			}
			var agree float64
			same := 0
			for id, got := range run {
				agree += topAgreement(ref[id], got, 10)
				if sameRanking(ref[id], got) {
					same++
				}
			}
			n := float64(len(run))
			t.Logf("%-6s %-13s leg %-10s nDCG@10 %.4f  top-10 agreement with %s %.4f  same list %3d of %d  FT.SEARCH %.2f calls %.2f ms a query  %.1f s",
				c, mode, leg, cut.NDCG, legs[0], agree/n, same, len(run), (calls1-calls0)/n, (usec1-usec0)/1000/n, took.Seconds())
			t.Logf("       fused top 20: leg found %.3f, vector rank p50/p90/max %s;  final top 10: found %.3f, rank %s",
				float64(fusedFound)/float64(max(fusedN, 1)), pcts(fusedRanks), float64(topFound)/float64(max(topN, 1)), pcts(topRanks))
		}
	}
}

// pcts is the 50th and 90th percentiles and the maximum of xs.
func pcts(xs []int) string {
	if len(xs) == 0 {
		return "-"
	}
	slices.Sort(xs)
	return strconv.Itoa(xs[len(xs)/2]) + "/" + strconv.Itoa(xs[len(xs)*9/10]) + "/" + strconv.Itoa(xs[len(xs)-1])
}
