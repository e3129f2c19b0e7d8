package bleveindex

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// BenchmarkRerankHead is the reranker's part of a search on bleve: for
// each of 100 SciFact claims, read the 20 candidates of its BM25 head
// (the default rerank depth) from the index as retrieval does, then the
// builtin reranker's scores. index=old is an index without chunks.terms
// (before round 29): the reranker analyses each candidate (an uncached
// analyzer: at 500k chunks the analysis cache rarely holds a head's
// chunks, and the kept run must not fill it for this one). index=kept
// reads the kept terms, with the server's cached analyzer (the reranker
// records the terms in its cache).
func BenchmarkRerankHead(b *testing.B) {
	ix := sciFact(b, nil)
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data", "scifact")
	}
	f, err := os.Open(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		b.Skip("SKIPPED: no SciFact queries: ", err)
	}
	defer f.Close()
	var qs []string
	for sc := bufio.NewScanner(f); sc.Scan() && len(qs) < 100; {
		var q struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			b.Fatal(err)
		}
		qs = append(qs, q.Text)
	}
	ctx := context.Background()
	groups := callers[0].groups
	heads := make([][]string, len(qs))
	for i, q := range qs {
		hits, err := ix.SearchText(ctx, q, backend.Filter{Groups: groups}, 20)
		if err != nil {
			b.Fatal(err)
		}
		for _, h := range hits {
			heads[i] = append(heads[i], h.ChunkID)
		}
	}
	vocab := ix.Visible(groups)
	for _, mode := range []struct {
		name string
		an   *terms.Analyzer
		kept bool
	}{{"old", terms.NewUncached(), false}, {"kept", terms.New(), true}} {
		r := rerank.NewBuiltin(mode.an, rerank.DefaultWeights)
		b.Run("index="+mode.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i, q := range qs {
					chunks, err := ix.Chunks(ctx, heads[i])
					if err != nil {
						b.Fatal(err)
					}
					cands := make([]retrieval.Candidate, len(chunks))
					for j, c := range chunks {
						cands[j] = retrieval.Candidate{ChunkID: c.ID, Title: c.Title, Text: c.Text, BM25: float64(20 - j), Fused: 1 / float64(j+20)}
						if mode.kept {
							cands[j].Terms = ix.Terms(c.ID)
						}
					}
					if _, err := r.Rerank(ctx, q, vocab, cands); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
