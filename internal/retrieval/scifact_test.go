package retrieval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// scifactDir returns the SciFact dataset directory, or skips — loudly —
// unless ASSAY_SCIFACT=1. ASSAY_SCIFACT_DIR overrides the default
// ../shared/data/scifact beside the repository.
func scifactDir(t testing.TB) string {
	t.Helper()
	if os.Getenv("ASSAY_SCIFACT") != "1" {
		t.Skip("SKIPPED: SciFact-scale test; set ASSAY_SCIFACT=1 (and ASSAY_SCIFACT_DIR if the data is not at ../shared/data/scifact) to run it")
	}
	if dir := os.Getenv("ASSAY_SCIFACT_DIR"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "data", "scifact")
}

// scifactBuild is one index configuration under measurement.
type scifactBuild struct {
	chunking chunk.Settings
	bm25     backend.BM25
	analyzer string
	dim      int
	idf      bool // the IDF-weighted builtin embedder
	// restrictHalf gives every other document the ACL [restricted], so
	// a public principal sees half the corpus (BenchmarkSearchVisibleSet).
	restrictHalf bool
}

func defaultScifactBuild() scifactBuild {
	return scifactBuild{chunking: chunk.Default(), bm25: backend.DefaultBM25, analyzer: "en", dim: embed.DefaultHashedDim}
}

// buildSciFact indexes the SciFact corpus with b into a fresh directory.
func buildSciFact(t testing.TB, dir string, b scifactBuild) (*bleveindex.Index, *embed.Hashed) {
	t.Helper()
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if b.restrictHalf {
		for i := 1; i < len(docs); i += 2 {
			docs[i].ACL = []string{"restricted"}
		}
	}
	ch, err := chunk.New(b.chunking)
	if err != nil {
		t.Fatal(err)
	}
	chunks := ch.SplitAll(docs)
	emb, err := embed.NewHashed(b.dim)
	if b.idf {
		emb, err = embed.NewHashedIDF(b.dim, embed.Counts(backend.NewStats(chunks)), corpus.Checksum(docs))
	}
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "scifact")
	if _, _, err := bleveindex.Build(context.Background(), out, chunks, backend.BuildOptions{
		Checksum: corpus.Checksum(docs), Embedder: emb, Chunking: b.chunking.String(), BM25: b.bm25, Analyzer: b.analyzer,
	}); err != nil {
		t.Fatal(err)
	}
	ix, err := bleveindex.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	return ix, emb
}

// modeSystems returns one eval system per mode over r.
func modeSystems(r *retrieval.Retriever, modes ...retrieval.Mode) []eval.System {
	var out []eval.System
	for _, m := range modes {
		out = append(out, eval.System{Name: string(m), Searcher: eval.SearcherFunc(
			func(ctx context.Context, req retrieval.Request) (retrieval.Result, error) {
				req.Mode = m
				return r.Search(ctx, req)
			})})
	}
	return out
}

// TestSciFact reports nDCG@10 and Recall@100 for every mode with the
// defaults, on ASSAY_SCIFACT_SPLIT (test unless set), and checks the
// floors this package promises: BM25 at or above Anserini's published
// 0.679 on test, and the default mode not below BM25.
func TestSciFact(t *testing.T) {
	dir := scifactDir(t)
	split := os.Getenv("ASSAY_SCIFACT_SPLIT")
	if split == "" {
		split = eval.SplitTest
	}
	ds, err := eval.LoadBEIR(dir, split)
	if err != nil {
		t.Fatal(err)
	}
	ix, emb := buildSciFact(t, dir, defaultScifactBuild())
	defer ix.Close()
	r, err := retrieval.NewWithOptions(ix, retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights)})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.CompareRetrieval(context.Background(), ds.Queries, ds.Qrels, modeSystems(r, retrieval.Modes...), eval.RetrievalOptions{K: 100})
	if err != nil {
		t.Fatal(err)
	}
	rep.Dataset, rep.Split, rep.Documents = "scifact", split, ix.Manifest().Documents
	var b strings.Builder
	rep.WriteTable(&b)
	t.Logf("SciFact %s, %s:\n%s", split, ix.Manifest(), b.String())
	if runDir := os.Getenv("ASSAY_SCIFACT_RUNS"); runDir != "" {
		for _, s := range rep.Systems {
			f, err := os.Create(filepath.Join(runDir, "assay-"+strings.ReplaceAll(s.Mode, "+", "-")+"."+split+".trec"))
			if err != nil {
				t.Fatal(err)
			}
			eval.WriteRun(f, s.Run, "assay-"+strings.ReplaceAll(s.Mode, "+", "-"))
			f.Close()
		}
	}
	by := map[string]eval.SystemSummary{}
	for _, s := range rep.Systems {
		by[s.Mode] = s
	}
	if split == eval.SplitTest && by["bm25"].NDCG10 < 0.679 {
		t.Errorf("SciFact test bm25 nDCG@10 = %.4f, want >= 0.679 (Anserini)", by["bm25"].NDCG10)
	}
	// The default mode must not trail bm25: the builtin reranker's weights
	// and the fusion were refitted on SciFact train for the mean-length
	// BM25 (docs/retrieval.md, "Measured"); with the earlier fit the
	// default mode was 0.002 below bm25 on test.
	if def := by[string(retrieval.DefaultMode)]; def.NDCG10 < by["bm25"].NDCG10 {
		t.Errorf("SciFact %s: default mode %s nDCG@10 = %.4f, below bm25's %.4f", split, retrieval.DefaultMode, def.NDCG10, by["bm25"].NDCG10)
	}
}

// TestSciFactTune sweeps one setting on the train split and logs nDCG@10
// per value; it is how the defaults were chosen. ASSAY_SCIFACT_TUNE names
// the setting: bm25, analyzer, chunk, dim, fusion, rerank.
func TestSciFactTune(t *testing.T) {
	what := os.Getenv("ASSAY_SCIFACT_TUNE")
	if what == "" {
		t.Skip("SKIPPED: set ASSAY_SCIFACT=1 ASSAY_SCIFACT_TUNE=bm25|analyzer|chunk|dim|idf|fusion|rerank to sweep a setting on SciFact train")
	}
	dir := scifactDir(t)
	ds, err := eval.LoadBEIR(dir, eval.SplitTrain)
	if err != nil {
		t.Fatal(err)
	}
	weights := rerank.DefaultWeights
	// Builds are cached by configuration: most sweeps vary only query-time
	// options, and rebuilding SciFact for each value would dominate.
	type built struct {
		ix  *bleveindex.Index
		emb *embed.Hashed
	}
	var cache *built
	var cachedFor scifactBuild
	measure := func(label string, b scifactBuild, o retrieval.Options, modes ...retrieval.Mode) {
		if cache == nil || cachedFor != b {
			if cache != nil {
				cache.ix.Close()
			}
			ix, emb := buildSciFact(t, dir, b)
			cache, cachedFor = &built{ix, emb}, b
		}
		ix, emb := cache.ix, cache.emb
		o.Embedder = emb
		o.Reranker = rerank.NewBuiltin(terms.New(), weights)
		r, err := retrieval.NewWithOptions(ix, o)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eval.CompareRetrieval(context.Background(), ds.Queries, ds.Qrels, modeSystems(r, modes...), eval.RetrievalOptions{K: 100})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, s := range rep.Systems {
			parts = append(parts, fmt.Sprintf("%s nDCG@10 %.4f R@100 %.4f p50 %.2fms", s.Mode, s.NDCG10, s.Recall100, s.LatencyP50Ms))
		}
		t.Logf("%-40s %s", label, strings.Join(parts, " | "))
	}
	defer func() {
		if cache != nil {
			cache.ix.Close()
		}
	}()
	base := defaultScifactBuild()
	switch what {
	case "bm25":
		// The grid of docs/retrieval.md ("BM25"); each point is a build.
		for _, p := range []backend.BM25{{K1: 0.9, B: 0.4}, {K1: 1.2, B: 0.75}, {K1: 3, B: 0.75}, {K1: 6, B: 0.9}, {K1: 10, B: 0.85},
			{K1: 10, B: 0.8}, {K1: 10, B: 0.75}, {K1: 10, B: 0.5}, {K1: 10, B: 0.4}, {K1: 10, B: 0.3}} {
			b := base
			b.bm25 = p
			measure(fmt.Sprintf("k1=%g b=%g", p.K1, p.B), b, retrieval.Options{}, retrieval.BM25, retrieval.HybridRerank)
		}
	case "analyzer":
		for _, a := range []string{"en", "standard"} {
			b := base
			b.analyzer = a
			measure("analyzer "+a, b, retrieval.Options{}, retrieval.BM25)
		}
	case "chunk":
		for _, s := range []chunk.Settings{{MaxTokens: 128, Overlap: 16}, {MaxTokens: 256, Overlap: 32}, {MaxTokens: 400, Overlap: 40}, {MaxTokens: 8192, Overlap: 0}} {
			b := base
			b.chunking = s
			measure(s.String(), b, retrieval.Options{}, retrieval.BM25, retrieval.Hybrid)
		}
	case "dim":
		for _, d := range []int{256, 512, 768, 1024, 2048} {
			b := base
			b.dim = d
			measure("dim "+strconv.Itoa(d), b, retrieval.Options{}, retrieval.Vector, retrieval.Hybrid)
		}
	case "idf":
		for _, idf := range []bool{false, true} {
			b := base
			b.idf = idf
			measure(fmt.Sprintf("idf-weighted %v", idf), b, retrieval.Options{}, retrieval.Vector, retrieval.Hybrid, retrieval.HybridRerank)
		}
	case "fusion":
		for _, w := range []float64{0.25, 0.5, 0.75, 1} {
			for _, k := range []float64{20, 60} {
				measure(fmt.Sprintf("vector weight %g rrf k %g", w, k), base, retrieval.Options{VectorWeight: w, RRFK: k}, retrieval.Hybrid)
			}
		}
	case "rerank":
		// Fusion, rerank depth and the reranker's weights, replayed from
		// recorded features (rerankfit_test.go).
		tuneRerank(t, dir, ds)
	default:
		t.Fatalf("ASSAY_SCIFACT_TUNE=%q: want bm25, analyzer, chunk, dim, fusion or rerank", what)
	}
}

// TestSciFactRediSearch reports nDCG@10 for bm25 and hybrid+rerank on the
// redisearch backend with the defaults (ASSAY_SCIFACT=1 and a RediSearch
// server, see internal/redistest), and checks them against the bleve
// backend's with the shipped reranker, builtin:features-v3
// (docs/retrieval.md, "Measured": bm25 0.6847, hybrid+rerank 0.6908),
// within ±0.002. Until round 20 it wanted features-v2's 0.6855, which
// the reranker's refit to v3 left behind.
func TestSciFactRediSearch(t *testing.T) {
	dir := scifactDir(t)
	ds, err := eval.LoadBEIR(dir, eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	ix := build(t, "redisearch", ch.SplitAll(docs), corpus.Checksum(docs))
	r := retriever(t, ix, retrieval.Options{})
	rep, err := eval.CompareRetrieval(context.Background(), ds.Queries, ds.Qrels, modeSystems(r, retrieval.BM25, retrieval.HybridRerank), eval.RetrievalOptions{K: 100})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.WriteTable(&b)
	t.Logf("SciFact test on RediSearch:\n%s", b.String())
	want := map[string]float64{"bm25": 0.6847, "hybrid+rerank": 0.6908}
	for _, s := range rep.Systems {
		if w, ok := want[s.Mode]; ok && (s.NDCG10 < w-0.002 || s.NDCG10 > w+0.002) {
			t.Errorf("SciFact test %s on RediSearch: nDCG@10 %.4f, want %.4f ± 0.002", s.Mode, s.NDCG10, w)
		}
	}
}
