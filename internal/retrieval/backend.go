package retrieval

import (
	"context"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/index"
)

// Backend is the index retrieval reads: *index.Index, or another store
// that offers the same filtered searches.
//
// Every number a principal sees must be computed only from the chunks it
// may see (internal/index/visible.go states the rule). So a backend:
// scores SearchText with the statistics (document frequencies, chunk
// count, lengths) of the chunks visible to f.Groups, not the whole
// store's; gives those statistics through VisibleCounts, which coverage,
// the weak-score warning and the builtin reranker use; and states its
// problems through Warnings without whole-store counts.
type Backend interface {
	SearchText(ctx context.Context, text string, f index.Filter, k int) ([]index.Hit, error)
	SearchVector(ctx context.Context, vec []float32, f index.Filter, k int) ([]index.Hit, index.VectorStats, error)
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
	Fingerprints(ids []string) []uint64
	VisibleCounts(groups []string) index.TermCounts
	Manifest() index.Manifest
	Warnings(groups []string) []string
}

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
	// keeps them (TermSource); nil otherwise. Shared: do not modify.
	Terms []string
}

// TermSource is an optional Backend capability: the analyzed terms of a
// chunk's title and text, kept so rerankers need not analyze them again.
type TermSource interface {
	Terms(chunkID string) []string
}

// Reranker rescores candidates by reading the query with each one. It
// returns one score per candidate, higher is better. vocab is the term
// statistics of the chunks the principal may see; a reranker that weighs
// terms must use it and nothing wider.
type Reranker interface {
	ID() string
	Rerank(ctx context.Context, query string, vocab Vocabulary, cands []Candidate) ([]float64, error)
}
