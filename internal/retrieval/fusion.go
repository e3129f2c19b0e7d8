package retrieval

import "github.com/assay-rag/assay/internal/backend"

// Fuse merges a BM25 list and a vector list, each best first, into one
// candidate per chunk by weighted reciprocal rank fusion: a candidate's
// Fused score is Σ w / (k + rank) over the lists that hold it, with weight
// 1 for BM25 and vectorWeight for the vector list. Each candidate also
// keeps its score and 1-based rank in either list (0 when absent). The
// candidates come in first-seen order, BM25's list first; sorting by
// Fused is the caller's. It is a pure function of its arguments.
func Fuse(lex, vec []backend.Hit, k, vectorWeight float64) []*Candidate {
	var cands []*Candidate
	byID := make(map[string]*Candidate, len(lex)+len(vec))
	get := func(id string) *Candidate {
		c, ok := byID[id]
		if !ok {
			c = &Candidate{ChunkID: id}
			byID[id] = c
			cands = append(cands, c)
		}
		return c
	}
	for i, h := range lex {
		c := get(h.ChunkID)
		c.BM25, c.BM25Rank = h.Score, i+1
		c.Fused += 1 / (k + float64(i+1))
	}
	for i, h := range vec {
		c := get(h.ChunkID)
		c.Cosine, c.VectorRank = h.Score, i+1
		c.Fused += vectorWeight / (k + float64(i+1))
	}
	return cands
}
