// Package generate writes an answer from accepted evidence and says which
// sources it used.
//
// Sources carry short request-scoped labels ("1", "2", ...); the label →
// chunk mapping travels with them explicitly and citations in an answer
// name labels, never list positions.
//
// Two generators implement Generator: Extractive, the offline default,
// which answers with source sentences; and LLM, which asks a model at an
// OpenAI-compatible endpoint (internal/prompt builds its messages,
// internal/llm calls it). Whatever generated an answer, Check runs after
// it: it scans the sources for prompt injection (reported only), sanitizes
// citation markers, validates the answer (a rejection is a typed error)
// and grounds it, and fills Citations from what the answer cites.
package generate

import (
	"context"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/wire"
)

// Source is one labelled piece of evidence given to a generator.
type Source struct {
	Label string `json:"label"`
	corpus.Chunk
}

// Request asks for an answer to Question from Sources.
type Request struct {
	Question string
	// Sources are ranked, best first; each carries its label.
	Sources []Source
	// Accepted are the ids of the sources the assessor accepted, the one
	// that answers first (assess.Result.Accepted), when it said; empty
	// leaves the generator to judge the sources alone. The builtin
	// generator from v11 opens its answer with the first.
	Accepted []string
	// OnToken, when set, receives the answer's text piece by piece as a
	// model streams it (for server-sent events). The pieces are raw:
	// citation markers are checked only once the answer is complete, so a
	// consumer must replace what it showed with the final Answer.Text.
	// Generators that do not stream ignore it.
	OnToken func(piece string) error `json:"-"`
}

// Citation ties an answer to one source; Answer is what a generator
// returns, completed by Check. Both are defined in the wire contract: the
// Generate activity returns them and runs record them.
type (
	Citation = wire.Citation
	Answer   = wire.Answer
)

// Generator writes answers.
type Generator interface {
	Generate(ctx context.Context, req Request) (Answer, error)
}
