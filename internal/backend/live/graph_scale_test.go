package live

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
)

// TestGraphAgreementAtScale is a diagnostic for the graph index over the
// vector codes (docs/performance-scale.md, "a graph index"), not a CI
// test. Over a large bleve index with a graph (ASSAY_GRAPH_INDEX, built
// with the builtin embedder) and a questions.jsonl
// (ASSAY_GRAPH_QUESTIONS) it compares, for several beam widths
// (ASSAY_GRAPH_BEAMS, comma-separated), the vector leg (top 100) with the
// exact 1-bit leg (every visible code scanned) — recall@100 and the leg's
// median time — and the hybrid+rerank top 10 with the one the exact leg
// gives (agreement: the share of the exact top 10 found), for the
// anonymous caller (public), one who sees every group of the scale
// benchmark's corpus and one team.
//
//	ASSAY_GRAPH_INDEX=.../bleve-500000/index ASSAY_GRAPH_QUESTIONS=.../500000/questions.jsonl \
//	    go test ./internal/backend/live -run TestGraphAgreementAtScale -v -timeout 60m
func TestGraphAgreementAtScale(t *testing.T) {
	dir, file := os.Getenv("ASSAY_GRAPH_INDEX"), os.Getenv("ASSAY_GRAPH_QUESTIONS")
	if dir == "" || file == "" {
		t.Skip("set ASSAY_GRAPH_INDEX (a bleve index dir) and ASSAY_GRAPH_QUESTIONS (a JSONL file of questions)")
	}
	beams := []int{128, 256, 512, 1024}
	if b := os.Getenv("ASSAY_GRAPH_BEAMS"); b != "" {
		beams = nil
		for _, f := range strings.Split(b, ",") {
			x, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			beams = append(beams, x)
		}
	}
	qs := loadQuestions(t, file)
	ix, err := bleveindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if !ix.HasVectorGraph() {
		t.Fatalf("%s has no graph", dir)
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
	measure := func(groups []string, beam int) run {
		ix.SetVectorGraphBeam(beam)
		defer ix.SetVectorGraphBeam(0)
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
	}{{"public", []string{wire.PublicGroup}}, {"all", every}, {"team-07", []string{"team-07"}}} {
		exact := measure(c.groups, -1)
		t.Logf("%s, exact 1-bit leg: leg p50 %.2f ms", c.name, ms(percentile.NearestRank(exact.took, 50)))
		for _, beam := range beams {
			got := measure(c.groups, beam)
			t.Logf("%s, graph beam %d: leg recall@100 %.4f, hybrid+rerank top-10 agreement %.4f, leg p50 %.2f ms",
				c.name, beam, agreement(exact.leg, got.leg), agreement(exact.top, got.top), ms(percentile.NearestRank(got.took, 50)))
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
