// Package retrieval answers "which chunks may this principal see that match
// this query, best first": access and metadata filters applied before any
// candidate is scored, then ranking. Each stage reports its time and
// candidates for the trace.
package retrieval

import (
	"context"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/index"
)

// Filters narrow the candidates beyond the principal's groups. Empty
// fields do not filter.
type Filters struct {
	Types    []string        `json:"types,omitempty"`
	Products []string        `json:"products,omitempty"`
	Statuses []corpus.Status `json:"statuses,omitempty"`
}

// Request is one search.
type Request struct {
	Query string `json:"query"`
	// Groups are the principal's ACL groups; a search without groups fails.
	Groups  []string `json:"groups"`
	Filters Filters  `json:"filters,omitzero"`
	K       int      `json:"k"`
}

// Hit is one ranked chunk. It carries ids and metadata, never the text.
type Hit struct {
	ChunkID   string        `json:"chunk_id"`
	DocID     string        `json:"doc_id"`
	Title     string        `json:"title"`
	Score     float64       `json:"score"`
	Status    corpus.Status `json:"status"`
	Authority float64       `json:"authority"`
	Updated   string        `json:"updated,omitempty"`
}

// Stage is the record one ranking stage leaves in the trace.
type Stage struct {
	Name       string  `json:"name"`
	Millis     float64 `json:"ms"`
	Candidates int     `json:"candidates"`
}

// Result is a ranked list plus what it took to make it.
type Result struct {
	Hits     []Hit    `json:"hits"`
	Stages   []Stage  `json:"stages"`
	Warnings []string `json:"warnings,omitempty"`
}

// MaxK bounds a request's K.
const MaxK = 1000

// Validate checks a request; errors name the field.
func (r Request) Validate() error {
	const op = "retrieval.Search"
	switch {
	case strings.TrimSpace(r.Query) == "":
		return errs.FieldError(op, "query", "must not be empty")
	case len(r.Groups) == 0:
		return errs.FieldError(op, "groups", "must name at least one group")
	case r.K < 1 || r.K > MaxK:
		return errs.FieldError(op, "k", "want 1..1000")
	}
	return nil
}

// Retriever searches one index.
type Retriever struct {
	ix *index.Index
}

// New returns a Retriever over ix.
func New(ix *index.Index) *Retriever { return &Retriever{ix: ix} }

// Search ranks the chunks visible to req.Groups.
func (r *Retriever) Search(ctx context.Context, req Request) (Result, error) {
	if err := req.Validate(); err != nil {
		return Result{}, err
	}
	var res Result
	start := time.Now()
	hits, err := r.ix.SearchText(ctx, req.Query, index.Filter{
		Groups: req.Groups, Types: req.Filters.Types,
		Products: req.Filters.Products, Statuses: req.Filters.Statuses,
	}, req.K)
	if err != nil {
		return Result{}, err
	}
	res.Stages = append(res.Stages, Stage{Name: "bm25", Millis: millisSince(start), Candidates: len(hits)})
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	chunks, err := r.ix.Chunks(ctx, ids)
	if err != nil {
		return Result{}, err
	}
	for i, c := range chunks {
		if !c.VisibleTo(req.Groups) { // belt and braces: the index filtered already
			continue
		}
		res.Hits = append(res.Hits, Hit{
			ChunkID: c.ID, DocID: c.DocID, Title: c.Title, Score: hits[i].Score,
			Status: c.Status, Authority: c.Authority, Updated: c.Updated,
		})
	}
	return res, nil
}

func millisSince(t time.Time) float64 {
	return float64(time.Since(t).Microseconds()) / 1000
}
