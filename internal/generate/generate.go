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
// NotFound is the answer when there is no evidence: no model is asked.
package generate

import (
	"context"
	"strconv"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/guard"
	"github.com/assay-rag/assay/internal/prompt"
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
	// OnToken, when set, receives the answer's text piece by piece as a
	// model streams it (for server-sent events). The pieces are raw:
	// citation markers are checked only once the answer is complete, so a
	// consumer must replace what it showed with the final Answer.Text.
	// Generators that do not stream ignore it.
	OnToken func(piece string) error `json:"-"`
}

// Citation ties an answer to one source.
type Citation struct {
	Label   string `json:"label"`
	ChunkID string `json:"chunk_id"`
	DocID   string `json:"doc_id"`
	Title   string `json:"title"`
	URL     string `json:"url,omitempty"`
}

// Answer is what a generator returns, completed by Check.
type Answer struct {
	Text         string     `json:"text"`
	Citations    []Citation `json:"citations"`
	Model        string     `json:"model"`
	TokensIn     int        `json:"tokens_in"`
	TokensOut    int        `json:"tokens_out"`
	CostUSD      float64    `json:"cost_usd"`
	FinishReason string     `json:"finish_reason,omitempty"`
	// PromptVersion names the prompt templates a model answered from.
	PromptVersion string `json:"prompt_version,omitempty"`
	// Dropped are the sources the prompt's token budget left out; their
	// labels were never issued to the model.
	Dropped []prompt.Dropped `json:"dropped,omitempty"`
	// Stripped are the citation markers Check removed or rewrote because
	// they named labels that were never issued.
	Stripped []citation.Strip `json:"stripped,omitempty"`
	// Grounding are Check's grounding findings.
	Grounding []citation.Flag `json:"grounding,omitempty"`
	// Injections are suspected prompt injections Check found in the
	// sources. They changed nothing; they are reported.
	Injections []guard.Flag `json:"injections,omitempty"`
	// Warnings say all of the above in words, for the trace.
	Warnings []string `json:"warnings,omitempty"`
}

// Generator writes answers.
type Generator interface {
	Generate(ctx context.Context, req Request) (Answer, error)
}

// Label returns the request-scoped label of the i-th source (0-based).
func Label(i int) string { return strconv.Itoa(i + 1) }
