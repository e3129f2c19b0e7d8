package retrieval_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// TestKeptTermsSearchAsBefore: a bleve index gives the reranker its kept
// terms (chunks.terms, round 29), and every Hollin question, hybrid with
// rerank, for a public caller and for staff, gets the same hits with the
// same scores, to the bit, as from the same index without the file (an
// index built before round 29, whose candidates the reranker analyses).
func TestKeptTermsSearchAsBefore(t *testing.T) {
	r, ix := hollinWith(t, retrieval.Options{})
	if _, ok := backend.Searcher(ix).(backend.TermSource); !ok {
		t.Fatal("bleveindex.Index is not a backend.TermSource")
	}
	b, err := os.ReadFile(filepath.Join(hollinDir, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var q struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q.Question)
	}
	groups := [][]string{{"public"}, {"public", "staff", "partners"}}
	search := func(r *retrieval.Retriever) [][]retrieval.Hit {
		var out [][]retrieval.Hit
		for _, q := range qs {
			for _, g := range groups {
				res, err := r.Search(context.Background(), retrieval.Request{Query: q, Groups: g, K: 10, Mode: retrieval.HybridRerank})
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, res.Hits)
			}
		}
		return out
	}
	kept := search(r)
	var withTerms int
	for _, hs := range kept {
		for _, h := range hs {
			if ix.Terms(h.ChunkID) != nil {
				withTerms++
			}
		}
	}
	if withTerms == 0 {
		t.Fatal("no hit's chunk has kept terms")
	}
	dir := ix.Dir()
	ix.Close()
	if err := os.Remove(filepath.Join(dir, "chunks.terms")); err != nil {
		t.Fatal(err)
	}
	old, err := bleveindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if old.Terms(kept[0][0].ChunkID) != nil {
		t.Fatal("an index without chunks.terms keeps terms")
	}
	_, _, emb := hollinCorpus(t)
	// Uncached: a reranker on the process's shared cache would find there
	// the terms the first search recorded (Analyzer.Keep) instead of
	// analysing the chunks, and this test would pass with any kept terms
	// (rv29).
	ro, err := retrieval.NewWithOptions(old, retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.NewUncached(), rerank.DefaultWeights)})
	if err != nil {
		t.Fatal(err)
	}
	analysed := search(ro)
	for i := range kept {
		same := slices.EqualFunc(kept[i], analysed[i], func(a, b retrieval.Hit) bool {
			return a.ChunkID == b.ChunkID && math.Float64bits(a.Score) == math.Float64bits(b.Score)
		})
		if !same {
			t.Errorf("%q %v: kept terms give %v, analysis %v", qs[i/len(groups)], groups[i%len(groups)], kept[i], analysed[i])
		}
	}
}
