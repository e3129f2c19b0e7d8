// Package generate writes an answer from accepted evidence and says which
// sources it used.
//
// Sources carry short request-scoped labels ("1", "2", ...); the label →
// chunk mapping travels with them explicitly and citations in an answer
// name labels, never list positions.
package generate

import (
	"context"
	"strconv"

	"github.com/assay-rag/assay/internal/corpus"
)

// Source is one labelled piece of evidence given to a generator.
type Source struct {
	Label string `json:"label"`
	corpus.Chunk
}

// Request asks for an answer to Question from Sources.
type Request struct {
	Question string
	Sources  []Source
}

// Citation ties an answer to one source.
type Citation struct {
	Label   string `json:"label"`
	ChunkID string `json:"chunk_id"`
	DocID   string `json:"doc_id"`
	Title   string `json:"title"`
	URL     string `json:"url,omitempty"`
}

// Answer is what a generator returns.
type Answer struct {
	Text         string     `json:"text"`
	Citations    []Citation `json:"citations"`
	Model        string     `json:"model"`
	TokensIn     int        `json:"tokens_in"`
	TokensOut    int        `json:"tokens_out"`
	CostUSD      float64    `json:"cost_usd"`
	FinishReason string     `json:"finish_reason,omitempty"`
	Warnings     []string   `json:"warnings,omitempty"`
}

// Generator writes answers.
type Generator interface {
	Generate(ctx context.Context, req Request) (Answer, error)
}

// Label returns the request-scoped label of the i-th source (0-based).
func Label(i int) string { return strconv.Itoa(i + 1) }
