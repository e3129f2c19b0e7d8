package redisearch

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// TestKNNEFRetrieval measures what a lower EF_RUNTIME of the vector leg
// (vectorEF) does to what assay returns, on an index already built in a
// running server: for each EF, every claim of a bench-scale data dir
// searched in hybrid+rerank (and the vector mode) at k 100, as `assay
// search` wires it (the index's builtin embedder, the default
// reranker), for the caller who sees every group and for `public`: the
// nDCG@10 against the qrels, the top-10 documents' agreement with the
// shipped EF's run (the share of its top 10 in the EF's top 10), the
// share of queries whose whole ranked list is the same, and the vector
// leg's Redis time a query (INFO commandstats). Recall of the leg itself
// against exact neighbours is TestKNNLegForms's.
//
//	ASSAY_EFRUN_REDIS=host:port ASSAY_EFRUN_NAME=index ASSAY_EFRUN_DATA=<data dir>
//	[ASSAY_EFRUN_EVERY=1] [ASSAY_EFRUN_EFS=400,800,200,116]
func TestKNNEFRetrieval(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "EFRUN", "DATA", 1)
	efs := []int{vectorEF, 800, 200, 116}
	if s := os.Getenv("ASSAY_EFRUN_EFS"); s != "" {
		efs = nil
		for f := range strings.SplitSeq(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			efs = append(efs, n)
		}
	}
	defer func(ef int) { vectorEF = ef }(vectorEF)
	ctx := context.Background()
	ix, opts := searchWiring(t, addr, name)
	r, err := retrieval.NewWithOptions(ix, opts)
	if err != nil {
		t.Fatal(err)
	}
	qs, qrels := judgedQueries(t, dir, every)
	for _, c := range []struct {
		name   string
		groups []string
	}{{"all", scaleGroups()}, {"public", []string{"public"}}} {
		for _, mode := range []retrieval.Mode{retrieval.HybridRerank, retrieval.Vector} {
			var ref eval.Run
			for _, ef := range efs {
				vectorEF = ef
				sys := eval.System{Name: string(mode), Searcher: eval.InMode(r, mode)}
				calls0, usec0 := redisUsec(t, ix, "FT.SEARCH")
				start := time.Now()
				sr, err := eval.RunQueries(ctx, sys, qs, eval.RetrievalOptions{K: 100, Groups: c.groups})
				if err != nil {
					t.Fatal(err)
				}
				took := time.Since(start)
				calls1, usec1 := redisUsec(t, ix, "FT.SEARCH")
				ev, err := eval.Evaluate(qrels, sr.Run, eval.Options{})
				if err != nil {
					t.Fatal(err)
				}
				cut, _ := ev.Mean.At(10)
				if ref == nil {
					ref = sr.Run
				}
				var agree float64
				same := 0
				for id, got := range sr.Run {
					want := ref[id]
					agree += topAgreement(want, got, 10)
					if sameRanking(want, got) {
						same++
					}
				}
				n := float64(len(sr.Run))
				t.Logf("%-6s %-13s EF %4d: nDCG@10 %.4f; top-10 agreement with EF %d %.4f; same list %d of %d; FT.SEARCH %.2f calls %.2f ms a query; %.1f s",
					c.name, mode, ef, cut.NDCG, efs[0], agree/n, same, len(sr.Run), (calls1-calls0)/n, (usec1-usec0)/1000/n, took.Seconds())
			}
		}
	}
}

// topAgreement is the share of want's first n documents among got's
// first n (1 when want is empty).
func topAgreement(want, got []eval.Ranked, n int) float64 {
	w, g := make([]string, 0, n), make([]string, 0, n)
	for _, r := range want[:min(n, len(want))] {
		w = append(w, r.DocID)
	}
	for _, r := range got[:min(n, len(got))] {
		g = append(g, r.DocID)
	}
	return recallAt(w, g, n)
}

// sameRanking: the same documents in the same order with the same scores.
func sameRanking(a, b []eval.Ranked) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// judgedQueries is every every-th query of a bench-scale (or BEIR) data
// dir, with its test qrels.
func judgedQueries(t *testing.T, dir string, every int) ([]eval.Query, eval.Qrels) {
	t.Helper()
	all, err := eval.LoadQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []eval.Query
	for i, q := range all {
		if i%every == 0 {
			qs = append(qs, q)
		}
	}
	qrels, err := eval.LoadQrels(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return qs, qrels
}

// searchWiring opens index name at addr and returns it with the
// retrieval options `assay search` gives it: the index's builtin
// embedder and the default reranker.
func searchWiring(t *testing.T, addr, name string) (*Index, retrieval.Options) {
	t.Helper()
	rdb := NewClient(addr, "")
	t.Cleanup(func() { rdb.Close() })
	ix, err := Open(context.Background(), rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewHashed(ix.Manifest().Dim)
	if err != nil {
		t.Fatal(err)
	}
	rr, _ := rerank.Model(terms.New(), "")
	return ix, retrieval.Options{Embedder: emb, Reranker: rr}
}
