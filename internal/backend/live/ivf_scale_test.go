package live

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
)

// TestIVFAgreementAtScale is a diagnostic for the inverted file over the
// vector codes (docs/performance-scale.md), not a CI test. Over a large
// bleve index (ASSAY_IVF_INDEX, built with the builtin embedder) and a
// questions.jsonl (ASSAY_IVF_QUESTIONS) it compares, for several probe
// counts, the vector leg (top 100) with the exact 1-bit leg (every
// visible code scanned) — recall@100 and the leg's median time — and the
// hybrid+rerank top 10 with the one the exact leg gives (agreement: the
// share of the exact top 10 found), for the anonymous caller (public)
// and for one who sees every group of the scale benchmark's corpus.
//
//	ASSAY_IVF_INDEX=.../bleve-500000/index ASSAY_IVF_QUESTIONS=.../500000/questions.jsonl \
//	    go test ./internal/backend/live -run TestIVFAgreementAtScale -v -timeout 60m
func TestIVFAgreementAtScale(t *testing.T) {
	dir, file := os.Getenv("ASSAY_IVF_INDEX"), os.Getenv("ASSAY_IVF_QUESTIONS")
	if dir == "" || file == "" {
		t.Skip("set ASSAY_IVF_INDEX (a bleve index dir) and ASSAY_IVF_QUESTIONS (a JSONL file of questions)")
	}
	qs := loadQuestions(t, file)
	ix, err := bleveindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	lists := ix.VectorLists()
	if lists == 0 {
		t.Fatalf("%s has no inverted file", dir)
	}
	cfg := config.Default()
	emb, err := QueryEmbedder(ix, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRetriever(ix, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	vecs, err := emb.Embed(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	every := []string{wire.PublicGroup, "staff"}
	for i := range 100 {
		every = append(every, fmt.Sprintf("team-%02d", i))
	}
	type run struct {
		leg  [][]string // vector leg top 100, per question
		top  [][]string // hybrid+rerank top 10
		took []time.Duration
	}
	measure := func(groups []string, probes int) run {
		ix.SetVectorProbes(probes)
		defer ix.SetVectorProbes(0)
		f := backend.Filter{Groups: groups}
		var out run
		for i, q := range qs {
			t0 := time.Now()
			hits, _, err := ix.SearchVector(ctx, vecs[i], f, retrieval.DefaultFetch)
			if err != nil {
				t.Fatal(err)
			}
			out.took = append(out.took, time.Since(t0))
			out.leg = append(out.leg, ids(hits))
			res, err := r.Search(ctx, retrieval.Request{Query: q, Groups: groups, K: 10, Mode: retrieval.HybridRerank})
			if err != nil {
				t.Fatal(err)
			}
			var top []string
			for _, h := range res.Hits {
				top = append(top, h.ChunkID)
			}
			out.top = append(out.top, top)
		}
		return out
	}
	for _, c := range []struct {
		name   string
		groups []string
	}{{"public", []string{wire.PublicGroup}}, {"all", every}} {
		exact := measure(c.groups, -1)
		t.Logf("%s, exact 1-bit leg: leg p50 %.2f ms", c.name, ms(percentile.NearestRank(exact.took, 50)))
		for _, p := range []int{lists / 64, lists / 32, lists / 16, lists / 8} {
			got := measure(c.groups, max(1, p))
			t.Logf("%s, %d of %d lists: leg recall@100 %.4f, hybrid+rerank top-10 agreement %.4f, leg p50 %.2f ms",
				c.name, max(1, p), lists, agreement(exact.leg, got.leg), agreement(exact.top, got.top), ms(percentile.NearestRank(got.took, 50)))
		}
	}
}

func ids(hits []backend.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}

// agreement is the mean share of each exact list found in the other.
func agreement(exact, got [][]string) float64 {
	var sum float64
	for i, want := range exact {
		if len(want) == 0 {
			sum++
			continue
		}
		n := 0
		for _, id := range want {
			if slices.Contains(got[i], id) {
				n++
			}
		}
		sum += float64(n) / float64(len(want))
	}
	return sum / float64(len(exact))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
