package retrieval_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/synth"
	"github.com/assay-rag/assay/internal/terms"
)

// The builtin reranker's score is linear in its weights: Σ w_f·f over the
// features coverage, proximity, BM25, cosine, fused and title. So one pass of
// the queries, scoring each candidate list once per feature with that
// feature's weight 1 and the others 0, gives every feature value the
// reranker computes; any weight vector's ranking is then a dot product
// away, exactly as Builtin.Rerank would score it (the same products,
// summed in the same order). TestSciFactTune's "rerank" sweep uses this
// to search a weight grid that a pass per point could not afford.

// rerankFeatures are the six features, in Builtin's summing order.
const rerankFeatures = 6

// oneHot is the weight vector with feature f weighted 1.
func oneHot(f int) rerank.Weights {
	var w rerank.Weights
	*featureWeight(&w, f) = 1
	return w
}

func featureWeight(w *rerank.Weights, f int) *float64 {
	return [rerankFeatures]*float64{&w.Coverage, &w.Proximity, &w.BM25, &w.Cosine, &w.Fused, &w.Title}[f]
}

// rerankRecord is one query's candidate list as the reranker saw it, in
// fused order, with every feature's value at each rerank depth (the score
// features are normalised by the best in the list the reranker reads, so
// they depend on the depth).
type rerankRecord struct {
	qid   string
	docs  []string                          // each candidate's document
	feats map[int][rerankFeatures][]float64 // depth → feature → value per candidate
}

// featureRecorder is a Reranker that records the features of what it is
// given and answers with rerank.DefaultWeights.
type featureRecorder struct {
	an     *terms.Analyzer
	depths []int
	last   rerankRecord
}

func (f *featureRecorder) ID() string { return rerank.BuiltinID }

func (f *featureRecorder) Rerank(ctx context.Context, query string, vocab retrieval.Vocabulary, cands []retrieval.Candidate) ([]float64, error) {
	rec := rerankRecord{feats: map[int][rerankFeatures][]float64{}}
	for _, c := range cands {
		rec.docs = append(rec.docs, c.ChunkID[:strings.LastIndexByte(c.ChunkID, '#')])
	}
	for _, d := range f.depths {
		var fs [rerankFeatures][]float64
		for i := range rerankFeatures {
			v, err := rerank.NewBuiltin(f.an, oneHot(i)).Rerank(ctx, query, vocab, cands[:min(d, len(cands))])
			if err != nil {
				return nil, err
			}
			fs[i] = v
		}
		rec.feats[d] = fs
	}
	f.last = rec
	return rerank.NewBuiltin(f.an, rerank.DefaultWeights).Rerank(ctx, query, vocab, cands)
}

// recordRerank runs every query in hybrid+rerank mode on ix with the
// fusion of o, the reranker reading max(depths) candidates, and returns
// each query's record.
func recordRerank(t *testing.T, ix *bleveindex.Index, emb *embed.Hashed, o retrieval.Options, queries []eval.Query, groups []string, depths []int) []rerankRecord {
	t.Helper()
	rec := &featureRecorder{an: terms.New(), depths: depths}
	o.Embedder, o.Reranker, o.RerankDepth = emb, rec, slices.Max(depths)
	r, err := retrieval.NewWithOptions(ix, o)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]rerankRecord, 0, len(queries))
	for _, q := range queries {
		rec.last = rerankRecord{}
		if _, err := r.Search(context.Background(), retrieval.Request{Query: q.Text, Groups: groups, K: 100, Mode: retrieval.HybridRerank}); err != nil {
			t.Fatal(err)
		}
		rec.last.qid = q.ID
		out = append(out, rec.last)
	}
	return out
}

// replayNDCG is the mean nDCG@10 over recs when the reranker with weights w reads
// the first depth candidates: those in w's score order, the rest in fused
// order below them, chunks collapsed to their documents (as the search
// and eval.RunQueries do; the status prior is a constant factor on a
// corpus without statuses or authorities).
func replayNDCG(recs []rerankRecord, qrels eval.Qrels, w rerank.Weights, depth int) float64 {
	var ws [rerankFeatures]float64
	for i := range rerankFeatures {
		ws[i] = *featureWeight(&w, i)
	}
	var sum float64
	var score []float64
	var order []int
	top := make([]string, 0, 10)
	for _, rec := range recs {
		fs := rec.feats[depth]
		n := len(fs[0])
		score, order = score[:0], order[:0]
		for j := range n {
			var s float64
			for i := range rerankFeatures {
				s += ws[i] * fs[i][j]
			}
			score = append(score, s)
			order = append(order, j)
		}
		sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
		for j := n; j < len(rec.docs); j++ {
			order = append(order, j)
		}
		top = top[:0]
		for _, j := range order {
			if doc := rec.docs[j]; !slices.Contains(top, doc) {
				top = append(top, doc)
				if len(top) == 10 {
					break
				}
			}
		}
		sum += ndcg10(qrels[rec.qid], top)
	}
	return sum / float64(len(recs))
}

// ndcg10 is trec_eval's ndcg_cut_10 of one ranking (eval.Evaluate's).
func ndcg10(grades map[string]int, top []string) float64 {
	var dcg, idcg float64
	for i, doc := range top {
		if g := grades[doc]; g > 0 {
			dcg += float64(g) / math.Log2(float64(i+2))
		}
	}
	var ideal []int
	for _, g := range grades {
		if g > 0 {
			ideal = append(ideal, g)
		}
	}
	slices.SortFunc(ideal, func(a, b int) int { return b - a })
	for i, g := range ideal[:min(10, len(ideal))] {
		idcg += float64(g) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// weightGrid is every weight vector on the simplex with the given number
// of steps (weights are multiples of 1/steps summing to 1; the ranking
// does not change with the weights' scale).
func weightGrid(steps int) []rerank.Weights {
	var out []rerank.Weights
	var rec func(f, left int, w rerank.Weights)
	rec = func(f, left int, w rerank.Weights) {
		if f == rerankFeatures-1 {
			*featureWeight(&w, f) = float64(left) / float64(steps)
			out = append(out, w)
			return
		}
		for k := 0; k <= left; k++ {
			*featureWeight(&w, f) = float64(k) / float64(steps)
			rec(f+1, left-k, w)
		}
	}
	rec(0, steps, rerank.Weights{})
	return out
}

// fitPoint is one fusion, depth and weight setting with its train nDCG@10
// on SciFact and, when measured, on the 50k synthetic corpus.
type fitPoint struct {
	rrfK, vectorWeight float64
	depth              int
	w                  rerank.Weights
	scifact, synth50k  float64
}

func (p fitPoint) String() string {
	return fmt.Sprintf("rrf k %-3g vw %-4g depth %-3d cov %.2f prox %.2f bm25 %.2f cos %.2f fused %.2f title %.2f: SciFact train %.4f, 50k train %.4f",
		p.rrfK, p.vectorWeight, p.depth, p.w.Coverage, p.w.Proximity, p.w.BM25, p.w.Cosine, p.w.Fused, p.w.Title, p.scifact, p.synth50k)
}

// tuneRerank is TestSciFactTune's "rerank" sweep: fusion (rrf k, vector
// weight), rerank depth and the builtin reranker's weights (steps of
// 0.1), on SciFact train and, when ASSAY_SCIFACT_TUNE_50K names the
// bleve index of the 50k synthetic corpus (cmd/bench-scale's
// work/bleve-50000/index), on SciFact's train queries over that corpus as
// a principal in every group. The choice: the best SciFact train among
// the points whose 50k train is not below the current default's (ties:
// the first in the sweep's order). ASSAY_SCIFACT_TUNE_TEST=1 then
// searches the test split once for the current default and the choice.
func tuneRerank(t *testing.T, dir string, ds *eval.Dataset) {
	ix, emb := buildSciFact(t, dir, defaultScifactBuild())
	defer ix.Close()
	var ix50k *bleveindex.Index
	var groups50k []string
	if p := os.Getenv("ASSAY_SCIFACT_TUNE_50K"); p != "" {
		var err error
		if ix50k, err = bleveindex.Open(p); err != nil {
			t.Fatal(err)
		}
		defer ix50k.Close()
		groups50k = []string{corpus.PublicGroup, synth.StaffGroup}
		for i := range synth.DefaultTeams {
			groups50k = append(groups50k, synth.TeamGroup(i))
		}
	}
	depths := []int{20, 30, 50, 100}
	grid := weightGrid(10)
	var points []fitPoint
	var current fitPoint
	for _, k := range []float64{60, 20} { // the default first: its check (below) fails early
		for _, vw := range []float64{0.5, 0.25, 1} {
			o := retrieval.Options{RRFK: k, VectorWeight: vw}
			recs := recordRerank(t, ix, emb, o, ds.Queries, []string{corpus.PublicGroup}, depths)
			var recs50k []rerankRecord
			if ix50k != nil {
				recs50k = recordRerank(t, ix50k, emb, o, ds.Queries, groups50k, depths)
			}
			for _, d := range depths {
				ws := append([]rerank.Weights{rerank.DefaultWeights}, grid...)
				for i, w := range ws {
					p := fitPoint{rrfK: k, vectorWeight: vw, depth: d, w: w, scifact: replayNDCG(recs, ds.Qrels, w, d)}
					if recs50k != nil {
						p.synth50k = replayNDCG(recs50k, ds.Qrels, w, d)
					}
					if i == 0 {
						if k == retrieval.DefaultRRFK && vw == retrieval.DefaultVectorWeight && d == retrieval.DefaultRerankDepth {
							current = p
							// The replay must be the search: check it at the current default.
							r, err := retrieval.NewWithOptions(ix, retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights)})
							if err != nil {
								t.Fatal(err)
							}
							rep, err := eval.CompareRetrieval(context.Background(), ds.Queries, ds.Qrels, modeSystems(r, retrieval.HybridRerank), eval.RetrievalOptions{K: 100})
							if err != nil {
								t.Fatal(err)
							}
							if got := rep.Systems[0].NDCG10; math.Abs(got-p.scifact) > 1e-9 {
								t.Errorf("replayed nDCG@10 %.6f at the current default, searched %.6f: the replay is not the search", p.scifact, got)
							} else {
								t.Logf("replay checked at the current default: nDCG@10 %.6f replayed, %.6f searched", p.scifact, got)
							}
						}
						continue
					}
					points = append(points, p)
				}
			}
			t.Logf("rrf k %g, vector weight %g: recorded and replayed (%s)", k, vw, time.Now().UTC().Format(time.TimeOnly))
		}
	}
	t.Logf("current default: %s", current)
	slices.SortStableFunc(points, func(a, b fitPoint) int { return cmp.Compare(b.scifact, a.scifact) })
	t.Logf("best 15 on SciFact train:")
	for _, p := range points[:15] {
		t.Logf("  %s", p)
	}
	best := map[string]fitPoint{}
	var keys []string
	for _, p := range points {
		key := fmt.Sprintf("rrf k %-3g vw %-4g depth %-3d", p.rrfK, p.vectorWeight, p.depth)
		if _, ok := best[key]; !ok {
			best[key] = p
			keys = append(keys, key)
		}
	}
	t.Logf("best weights per fusion and depth, on SciFact train:")
	for _, key := range keys {
		t.Logf("  %s", best[key])
	}
	chosen := points[0]
	if ix50k != nil {
		var kept []fitPoint
		for _, p := range points {
			if p.synth50k >= current.synth50k {
				kept = append(kept, p)
			}
		}
		t.Logf("best 15 on SciFact train with 50k train >= the current default's %.4f (%d of %d points):", current.synth50k, len(kept), len(points))
		for _, p := range kept[:min(15, len(kept))] {
			t.Logf("  %s", p)
		}
		if len(kept) > 0 {
			chosen = kept[0]
		}
		mean := slices.Clone(points)
		slices.SortStableFunc(mean, func(a, b fitPoint) int { return cmp.Compare(b.scifact+b.synth50k, a.scifact+a.synth50k) })
		t.Logf("best 15 on the mean of SciFact train and 50k train:")
		for _, p := range mean[:15] {
			t.Logf("  %s", p)
		}
	}
	t.Logf("chosen on train: %s", chosen)
	if os.Getenv("ASSAY_SCIFACT_TUNE_TEST") != "1" {
		return
	}
	// The test split, once, for the current default and the choice made
	// above on train only: searched, not replayed.
	test, err := eval.LoadBEIR(dir, eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []fitPoint{current, chosen} {
		o := retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.New(), p.w), RRFK: p.rrfK, VectorWeight: p.vectorWeight, RerankDepth: p.depth}
		for _, c := range []struct {
			name   string
			ix     *bleveindex.Index
			groups []string
			ds     *eval.Dataset
		}{{"SciFact train", ix, nil, ds}, {"SciFact test", ix, nil, test}, {"50k test", ix50k, groups50k, test}} {
			if c.ix == nil {
				continue
			}
			r, err := retrieval.NewWithOptions(c.ix, o)
			if err != nil {
				t.Fatal(err)
			}
			modes := []retrieval.Mode{retrieval.BM25, retrieval.HybridRerank}
			if c.name == "SciFact train" {
				modes = modes[1:] // checks the replay at p
			}
			rep, err := eval.CompareRetrieval(context.Background(), c.ds.Queries, c.ds.Qrels, modeSystems(r, modes...), eval.RetrievalOptions{K: 100, Groups: c.groups})
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, s := range rep.Systems {
				parts = append(parts, fmt.Sprintf("%s nDCG@10 %.4f R@100 %.4f", s.Mode, s.NDCG10, s.Recall100))
			}
			t.Logf("searched, %s, %s: %s", p, c.name, strings.Join(parts, " | "))
		}
	}
}
