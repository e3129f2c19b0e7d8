package evalrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestSearchRunWarmup: with warmup n, SearchRun searches every query
// n+1 times, in the same order each pass, and writes only the last pass
// (the same run as without a warm-up), as the Lucene peer times its
// second pass; a negative count is refused before any search.
func TestSearchRunWarmup(t *testing.T) {
	dir := t.TempDir()
	queries := filepath.Join(dir, "queries.jsonl")
	if err := os.WriteFile(queries, []byte(`{"_id": "q1", "text": "kettle"}`+"\n"+`{"_id": "q2", "text": "descale"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var asked []string
	s := eval.SearcherFunc(func(_ context.Context, req retrieval.Request) (retrieval.Result, error) {
		asked = append(asked, req.Query)
		return retrieval.Result{Hits: []retrieval.Hit{{ChunkID: req.Query + "#0", DocID: req.Query, Score: float64(len(asked))}}}, nil
	})
	for _, warm := range []int{0, 2} {
		asked = nil
		run := filepath.Join(dir, "run")
		got, err := SearchRun(context.Background(), s, queries, run, []string{"public"}, retrieval.BM25, 5, warm)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Repeat("kettle,descale,", warm+1)
		if strings.Join(asked, ",")+"," != want || got.Queries != 2 {
			t.Errorf("warmup %d: searched %v (%d queries reported), want %s", warm, asked, got.Queries, want)
		}
		r, err := eval.LoadRun(run)
		if err != nil {
			t.Fatal(err)
		}
		// The scores count the searches: the run is the last pass's.
		if last := float64(2 * (warm + 1)); r["q2"][0].Score != last {
			t.Errorf("warmup %d: q2's score %v, want the last pass's %v", warm, r["q2"][0].Score, last)
		}
	}
	asked = nil
	if _, err := SearchRun(context.Background(), s, queries, filepath.Join(dir, "run"), []string{"public"}, retrieval.BM25, 5, -1); err == nil || len(asked) > 0 {
		t.Errorf("warmup -1: error %v after %d searches, want an error and none", err, len(asked))
	}
}
