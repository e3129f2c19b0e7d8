package retrieval

import (
	"context"
)

// QueryEmbedder embeds queries with the model the index was built with.
type QueryEmbedder interface {
	ID() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Candidate is what a reranker sees of one fused candidate.
type Candidate struct {
	ChunkID string
	Title   string
	Text    string
	// BM25 and Cosine are the first-stage scores, 0 when the candidate
	// came from the other list; the ranks are 1-based, 0 when absent.
	BM25       float64
	BM25Rank   int
	Cosine     float64
	VectorRank int
	// Fused is the reciprocal-rank fusion score.
	Fused float64
	// Terms are the analyzed terms of title and text when the backend
	// keeps them (backend.TermSource); nil otherwise. Shared: do not modify.
	Terms []string
}

// Reranker rescores candidates by reading the query with each one. It
// returns one score per candidate, higher is better. vocab is the term
// statistics of the chunks the principal may see; a reranker that weighs
// terms must use it and nothing wider.
type Reranker interface {
	ID() string
	Rerank(ctx context.Context, query string, vocab Vocabulary, cands []Candidate) ([]float64, error)
}
