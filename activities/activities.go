// Package activities holds the steps of the answer loop that touch the
// outside world: Search, Assess and Generate. Each is a method on
// Activities, which holds their dependencies; the workflow calls them by
// method value and never sees chunk texts: inputs and outputs carry ids,
// scores and the final answer only, and the activities load texts by id.
package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/retrieval"
)

// Searcher ranks chunks for a principal.
type Searcher interface {
	Search(ctx context.Context, req retrieval.Request) (retrieval.Result, error)
}

// ChunkReader loads chunks by id.
type ChunkReader interface {
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
}

// Activities are the loop's side-effecting steps and their dependencies.
type Activities struct {
	Searcher  Searcher
	Chunks    ChunkReader
	Assessor  assess.Assessor
	Generator generate.Generator
}

// SearchInput is the input of Search.
type SearchInput struct {
	Query   string            `json:"query"`
	Groups  []string          `json:"groups"`
	Filters retrieval.Filters `json:"filters,omitzero"`
	K       int               `json:"k"`
}

// SearchOutput is the output of Search: ranked ids and scores, no text.
type SearchOutput struct {
	Hits     []retrieval.Hit   `json:"hits"`
	Stages   []retrieval.Stage `json:"stages"`
	Warnings []string          `json:"warnings,omitempty"`
}

// Search runs retrieval for one attempt.
func (a *Activities) Search(ctx context.Context, in SearchInput) (SearchOutput, error) {
	res, err := a.Searcher.Search(ctx, retrieval.Request{
		Query: in.Query, Groups: in.Groups, Filters: in.Filters, K: in.K,
	})
	if err != nil {
		return SearchOutput{}, temporalError("Search", err)
	}
	return SearchOutput{Hits: res.Hits, Stages: res.Stages, Warnings: res.Warnings}, nil
}

// AssessInput is the input of Assess: the attempt's chunk ids and their
// retrieval scores, in rank order.
type AssessInput struct {
	Question string    `json:"question"`
	Query    string    `json:"query"`
	Previous []string  `json:"previous,omitempty"`
	ChunkIDs []string  `json:"chunk_ids"`
	Scores   []float64 `json:"scores"`
	// Groups re-check access: an activity never reads a chunk its
	// principal may not see, whatever ids it is given.
	Groups []string `json:"groups"`
}

// AssessOutput is the output of Assess.
type AssessOutput struct {
	Assessment assess.Assessment `json:"assessment"`
	Usage      assess.Usage      `json:"usage"`
}

// Assess judges one attempt's evidence.
func (a *Activities) Assess(ctx context.Context, in AssessInput) (AssessOutput, error) {
	chunks, err := a.visibleChunks(ctx, in.ChunkIDs, in.Groups)
	if err != nil {
		return AssessOutput{}, temporalError("Assess", err)
	}
	req := assess.Request{Question: in.Question, Query: in.Query, Previous: in.Previous}
	for i, c := range chunks {
		ev := assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text}
		if i < len(in.Scores) {
			ev.Score = in.Scores[i]
		}
		req.Evidence = append(req.Evidence, ev)
	}
	res, err := a.Assessor.Assess(ctx, req)
	if err != nil {
		return AssessOutput{}, temporalError("Assess", err)
	}
	if err := res.Assessment.Check(); err != nil {
		return AssessOutput{}, temporalError("Assess", err)
	}
	return AssessOutput{Assessment: res.Assessment, Usage: res.Usage}, nil
}

// GenerateInput is the input of Generate: the accepted chunk ids in rank
// order.
type GenerateInput struct {
	Question string   `json:"question"`
	ChunkIDs []string `json:"chunk_ids"`
	Groups   []string `json:"groups"`
}

// GenerateOutput is the output of Generate.
type GenerateOutput struct {
	Answer generate.Answer `json:"answer"`
}

// Generate writes the answer from accepted evidence.
func (a *Activities) Generate(ctx context.Context, in GenerateInput) (GenerateOutput, error) {
	if len(in.ChunkIDs) == 0 {
		return GenerateOutput{}, temporalError("Generate", errs.FieldError("activities.Generate", "chunk_ids", "no evidence: generation needs at least one source"))
	}
	chunks, err := a.visibleChunks(ctx, in.ChunkIDs, in.Groups)
	if err != nil {
		return GenerateOutput{}, temporalError("Generate", err)
	}
	req := generate.Request{Question: in.Question}
	for i, c := range chunks {
		req.Sources = append(req.Sources, generate.Source{Label: generate.Label(i), Chunk: c})
	}
	ans, err := a.Generator.Generate(ctx, req)
	if err != nil {
		return GenerateOutput{}, temporalError("Generate", err)
	}
	return GenerateOutput{Answer: ans}, nil
}

// visibleChunks loads chunks and fails if any is outside groups.
func (a *Activities) visibleChunks(ctx context.Context, ids, groups []string) ([]corpus.Chunk, error) {
	chunks, err := a.Chunks.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, c := range chunks {
		if !c.VisibleTo(groups) {
			return nil, errs.Errorf("activities.load", errs.Forbidden, "chunk %s is not visible to the principal", c.ID)
		}
	}
	return chunks, nil
}

// temporalError maps a domain error to a Temporal application error whose
// type is the error's kind; kinds that cannot succeed on retry are marked
// non-retryable.
func temporalError(activity string, err error) error {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		return err
	}
	kind := errs.KindOf(err)
	if kind == errs.Other {
		kind = errs.Internal
	}
	return temporal.NewApplicationErrorWithOptions(activity+": "+err.Error(), kind.TemporalType(),
		temporal.ApplicationErrorOptions{NonRetryable: !kind.Retryable()})
}
