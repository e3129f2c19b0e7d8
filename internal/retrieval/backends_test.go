package retrieval_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// The retrieval tests that define behaviour run against every backend,
// built from the same chunks. The redisearch backend needs a server
// (package redistest); without one its subtests skip loudly.
var backendNames = []string{"bleve", "redisearch"}

// eachBackend runs fn as one subtest per backend.
func eachBackend(t *testing.T, fn func(t *testing.T, which string)) {
	for _, b := range backendNames {
		t.Run(b, func(t *testing.T) { fn(t, b) })
	}
}

// build indexes chunks in the named backend with the builtin embedder
// and returns it.
func build(t testing.TB, which string, chunks []corpus.Chunk, sum string) backend.Searcher {
	t.Helper()
	ctx := context.Background()
	emb, err := embed.NewHashed(embed.DefaultHashedDim)
	if err != nil {
		t.Fatal(err)
	}
	switch which {
	case "bleve":
		dir := filepath.Join(t.TempDir(), "ix")
		if _, _, err := bleveindex.Build(ctx, dir, chunks, backend.BuildOptions{Checksum: sum, Embedder: emb, Chunking: chunk.Default().String()}); err != nil {
			t.Fatal(err)
		}
		ix, err := bleveindex.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	case "redisearch":
		srv := redistest.Start(t)
		rdb := srv.Client(t)
		name := redistest.Name("retrieval")
		if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Checksum: sum, Embedder: emb, Chunking: chunk.Default().String()}); err != nil {
			t.Fatal(err)
		}
		ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	t.Fatalf("no backend %q", which)
	return nil
}

// hollinOn is hollinWith on the named backend.
func hollinOn(t testing.TB, which string, o retrieval.Options) (*retrieval.Retriever, backend.Searcher) {
	t.Helper()
	docs, err := corpus.LoadJSONL(filepath.Join(hollinDir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	b := build(t, which, ch.SplitAll(docs), corpus.Checksum(docs))
	return retriever(t, b, o), b
}

func retriever(t testing.TB, b backend.Searcher, o retrieval.Options) *retrieval.Retriever {
	t.Helper()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	o.Embedder, o.Reranker = emb, rerank.NewBuiltin(terms.New(), rerank.DefaultWeights)
	r, err := retrieval.NewWithOptions(b, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func stageNames(res retrieval.Result) []string {
	var out []string
	for _, s := range res.Stages {
		out = append(out, s.Name)
	}
	return out
}

// TestStageTrace: every mode leaves the same stages, in order, on both
// backends; each stage's Top is at most TraceTop ids and the first
// stage's ids are its hits.
func TestStageTrace(t *testing.T) {
	want := map[retrieval.Mode][]string{
		retrieval.BM25:         {"bm25", "dedup", "prior"},
		retrieval.Vector:       {"embed", "vector", "dedup", "prior"},
		retrieval.Hybrid:       {"bm25", "embed", "vector", "fuse", "dedup", "prior"},
		retrieval.HybridRerank: {"bm25", "embed", "vector", "fuse", "dedup", "rerank", "prior"},
	}
	eachBackend(t, func(t *testing.T, which string) {
		r, _ := hollinOn(t, which, retrieval.Options{})
		for _, mode := range retrieval.Modes {
			res, err := r.Search(context.Background(), retrieval.Request{Query: "warranty claim for the X200 motor", Groups: []string{"public"}, K: 20, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			if got := stageNames(res); !slices.Equal(got, want[mode]) {
				t.Errorf("%s: stages %v, want %v", mode, got, want[mode])
			}
			for _, s := range res.Stages {
				if len(s.Top) > retrieval.TraceTop || (s.Name != "embed" && s.Candidates > 0 && len(s.Top) == 0) {
					t.Errorf("%s: stage %s has %d candidates and top %v", mode, s.Name, s.Candidates, s.Top)
				}
			}
			if len(res.Hits) == 0 || res.Stages[len(res.Stages)-1].Top[0] != res.Hits[0].ChunkID {
				t.Errorf("%s: the last stage's top is not the first hit", mode)
			}
		}
	})
}

// TestDedupOnBothBackends: a near-identical copy collapses into the
// current, higher-authority original, and the dedup stage says so.
func TestDedupOnBothBackends(t *testing.T) {
	text := "Descale the kettle monthly with citric acid. Rinse twice before boiling water again. Hard water builds limescale on the element."
	chunks := []corpus.Chunk{
		{ID: "orig#0", DocID: "orig", Title: "Descaling", Text: text, Status: corpus.Current, Authority: 0.9, ACL: []string{"public"}},
		{ID: "copy#0", DocID: "copy", Title: "Descaling (copy)", Text: text, Status: corpus.Archived, Authority: 0.3, ACL: []string{"public"}},
		{ID: "other#0", DocID: "other", Title: "Kettle lid", Text: "The kettle lid opens with a button on the handle.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
	}
	eachBackend(t, func(t *testing.T, which string) {
		r := retriever(t, build(t, which, chunks, "x"), retrieval.Options{})
		for _, mode := range retrieval.Modes {
			res, err := r.Search(context.Background(), retrieval.Request{Query: "descale kettle limescale copy", Groups: []string{"public"}, K: 10, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			got := chunkIDs(res.Hits)
			if slices.Contains(got, "copy#0") || !slices.Contains(got, "orig#0") {
				t.Errorf("%s: hits %v, want orig#0 standing for its copy", mode, got)
			}
			i := slices.Index(stageNames(res), "dedup")
			if i < 0 || !strings.Contains(res.Stages[i].Note, "copy#0 → orig#0") {
				t.Errorf("%s: dedup stage %+v, want it to record copy#0 → orig#0", mode, res.Stages)
			}
		}
	})
}

// TestWarningsOnBothBackends: the cheap checks say the same on both
// backends.
func TestWarningsOnBothBackends(t *testing.T) {
	chunks := []corpus.Chunk{
		{ID: "a#0", DocID: "a", Title: "Kettle", Text: "The kettle boils water.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
		{ID: "e#0", DocID: "e", Title: "Zephyr manual", Text: "", Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
	}
	has := func(ws []string, prefix string) bool {
		return slices.ContainsFunc(ws, func(w string) bool { return strings.HasPrefix(w, prefix) })
	}
	eachBackend(t, func(t *testing.T, which string) {
		b := build(t, which, chunks, "x")
		r := retriever(t, b, retrieval.Options{})
		ctx := context.Background()
		res, err := r.Search(ctx, retrieval.Request{Query: "kettle warranty refund", Groups: []string{"public"}, K: 5, Mode: retrieval.BM25})
		if err != nil || !has(res.Warnings, "weak best score") {
			t.Errorf("weak match: warnings %q, %v; want a weak best score", res.Warnings, err)
		}
		res, err = r.Search(ctx, retrieval.Request{Query: "zephyr", Groups: []string{"public"}, K: 5, Mode: retrieval.BM25})
		if err != nil || !has(res.Warnings, "empty chunk retrieved: e#0") {
			t.Errorf("empty chunk: warnings %q, %v", res.Warnings, err)
		}
		res, err = r.Search(ctx, retrieval.Request{Query: "kettle", Groups: []string{"staff"}, K: 5})
		if err != nil || len(res.Hits) != 0 || !has(res.Warnings, "no chunk visible to the principal matched") {
			t.Errorf("nothing visible: %v, warnings %q, %v", chunkIDs(res.Hits), res.Warnings, err)
		}
		res, err = r.Search(ctx, retrieval.Request{Query: "kettle boils", Groups: []string{"public"}, K: 5, Mode: retrieval.BM25})
		if res.Warnings = slices.DeleteFunc(res.Warnings, func(w string) bool { return slices.Contains(b.Warnings([]string{"public"}), w) }); err != nil || len(res.Warnings) != 0 {
			t.Errorf("a good match warns %q, %v", res.Warnings, err)
		}
	})
}

// TestBackendsAgree: for a principal who sees every document (so that
// the visible statistics the redisearch leg scores with are bleve's
// whole-index ones), the BM25 legs of both backends rank the same chunks
// with the same scores, up to float rounding.
func TestBackendsAgree(t *testing.T) {
	qs := []string{"how many years is the X300 Pro motor covered for", "E12", "descale kettle", "partner hourly rate", "batch B-2291 recall"}
	_, bl := hollinOn(t, "bleve", retrieval.Options{})
	_, rs := hollinOn(t, "redisearch", retrieval.Options{})
	for _, q := range qs {
		for _, g := range [][]string{{"public", "partners", "staff", "finance", "partner:brook-street", "partner:calder-fix"}} {
			f := backend.Filter{Groups: g}
			a, err := bl.SearchText(context.Background(), q, f, 10)
			if err != nil {
				t.Fatal(err)
			}
			b, err := rs.SearchText(context.Background(), q, f, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(a) != len(b) {
				t.Errorf("%q as %v: bleve %d hits, redisearch %d", q, g, len(a), len(b))
				continue
			}
			for i := range a {
				if d := a[i].Score - b[i].Score; d > 1e-4*a[i].Score || d < -1e-4*a[i].Score {
					t.Errorf("%q as %v rank %d: bleve %s %.5f, redisearch %s %.5f", q, g, i+1, a[i].ChunkID, a[i].Score, b[i].ChunkID, b[i].Score)
					break
				}
			}
		}
	}
}
