package live

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/vectors"
	"github.com/assay-rag/assay/internal/wire"
)

// TestSketchAgreementAtScale is a diagnostic for the vector leg's sketch
// stage (docs/performance-scale.md, "bleve end to end at 500k"), not a CI
// test. Over a large bleve index (ASSAY_SKETCH_INDEX, built with the
// builtin embedder) and bench-scale's data dir for it (ASSAY_SKETCH_DATA:
// queries.jsonl and qrels/test.tsv) it compares, for each sketch setting
// in ASSAY_SKETCH (comma-separated WORDSxKEEP, e.g. "2x4,4x4"), the
// vector leg's top 100 with the leg without the sketch (every visible
// full code scanned) and with an exact float32 scan (recall@100), the
// hybrid+rerank top 10 with the one the leg without the sketch gives
// (agreement), hybrid+rerank nDCG@10 (full-access caller) and the leg's
// median time, for the anonymous caller (public), one who sees every
// group and one team (ASSAY_SKETCH_CALLERS: a comma-separated subset of
// public, all, team-07).
//
//	ASSAY_SKETCH_INDEX=.../bleve-500000/index ASSAY_SKETCH_DATA=.../data/500000 ASSAY_SKETCH=2x4,4x4 \
//	    go test ./internal/backend/live -run TestSketchAgreementAtScale -v -timeout 60m
func TestSketchAgreementAtScale(t *testing.T) {
	dir, data := os.Getenv("ASSAY_SKETCH_INDEX"), os.Getenv("ASSAY_SKETCH_DATA")
	if dir == "" || data == "" {
		t.Skip("set ASSAY_SKETCH_INDEX (a bleve index dir) and ASSAY_SKETCH_DATA (its bench-scale data dir)")
	}
	type setting struct{ words, keep int }
	var settings []setting
	for _, f := range strings.Split(cmp.Or(os.Getenv("ASSAY_SKETCH"), "2x4,4x4"), ",") {
		w, k, ok := strings.Cut(f, "x")
		words, err1 := strconv.Atoi(w)
		keep, err2 := strconv.Atoi(k)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("ASSAY_SKETCH: %q is not WORDSxKEEP", f)
		}
		settings = append(settings, setting{words, keep})
	}
	queries, err := eval.LoadQueries(filepath.Join(data, "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	qrels, err := eval.LoadQrels(filepath.Join(data, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := bleveindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
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
	texts := make([]string, len(queries))
	for i, q := range queries {
		texts[i] = q.Text
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	every := []string{wire.PublicGroup, "staff"}
	for i := range 100 {
		every = append(every, fmt.Sprintf("team-%02d", i))
	}
	type run struct {
		leg  [][]string // vector leg top 100, per query
		top  [][]string // hybrid+rerank top 10
		docs eval.Run   // hybrid+rerank, as documents
		took []time.Duration
	}
	measure := func(groups []string, hybrid bool) run {
		f := backend.Filter{Groups: groups}
		out := run{docs: eval.Run{}}
		for i, q := range queries {
			t0 := time.Now()
			hits, _, err := ix.SearchVector(ctx, vecs[i], f, retrieval.DefaultFetch)
			if err != nil {
				t.Fatal(err)
			}
			out.took = append(out.took, time.Since(t0))
			out.leg = append(out.leg, ids(hits))
			if !hybrid {
				continue
			}
			res, err := r.Search(ctx, retrieval.Request{Query: q.Text, Groups: groups, K: 100, Mode: retrieval.HybridRerank})
			if err != nil {
				t.Fatal(err)
			}
			var top []string
			seen := map[string]bool{}
			for j, h := range res.Hits {
				if j < 10 {
					top = append(top, h.ChunkID)
				}
				if !seen[h.DocID] {
					seen[h.DocID] = true
					out.docs[q.ID] = append(out.docs[q.ID], eval.Ranked{DocID: h.DocID, Score: h.Score})
				}
			}
			out.top = append(out.top, top)
		}
		return out
	}
	ndcg := func(run eval.Run) float64 {
		ev, err := eval.Evaluate(qrels, run, eval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := ev.Mean.At(10)
		return c.NDCG
	}
	for _, c := range []struct {
		name   string
		groups []string
	}{{"public", []string{wire.PublicGroup}}, {"all", every}, {"team-07", []string{"team-07"}}} {
		if only := os.Getenv("ASSAY_SKETCH_CALLERS"); only != "" && !slices.Contains(strings.Split(only, ","), c.name) {
			continue
		}
		ix.SetVectorExact(true)
		exact := measure(c.groups, false)
		ix.SetVectorExact(false)
		ix.SetVectorSketch(0, 0, 0)
		full := measure(c.groups, true)
		t.Logf("%s, full 1-bit leg: recall@100 against exact float32 %.4f, leg p50 %.2f ms (exact float32 %.2f ms), hybrid+rerank nDCG@10 %.4f",
			c.name, agreement(exact.leg, full.leg), ms(percentile.NearestRank(full.took, 50)), ms(percentile.NearestRank(exact.took, 50)), ndcg(full.docs))
		for _, s := range settings {
			ix.SetVectorSketch(s.words, s.keep, vectors.SketchMinVisible)
			got := measure(c.groups, true)
			t.Logf("%s, sketch %d words keep ×%d: leg recall@100 against the full leg %.4f, against exact float32 %.4f; hybrid+rerank top-10 agreement %.4f, nDCG@10 %.4f; leg p50 %.2f ms",
				c.name, s.words, s.keep, agreement(full.leg, got.leg), agreement(exact.leg, got.leg), agreement(full.top, got.top), ndcg(got.docs), ms(percentile.NearestRank(got.took, 50)))
		}
		ix.SetVectorSketch(0, 0, 0)
	}
}

func ids(hits []backend.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}

// agreement is the mean share of each reference list found in the other.
func agreement(want, got [][]string) float64 {
	var sum float64
	for i, w := range want {
		if len(w) == 0 {
			sum++
			continue
		}
		n := 0
		for _, id := range w {
			if slices.Contains(got[i], id) {
				n++
			}
		}
		sum += float64(n) / float64(len(w))
	}
	return sum / float64(len(want))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
