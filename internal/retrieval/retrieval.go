// Package retrieval answers "which chunks may this principal see that match
// this query, best first". Access and metadata filters are applied before
// any candidate is retrieved (bleve filter clauses for BM25; the vector
// scan scores only chunks that pass the same filter). Then, by mode:
//
//	bm25           lexical BM25 over title + text
//	vector         dense vectors (exact scan)
//	hybrid         both, over-fetched, fused by weighted reciprocal rank
//	hybrid+rerank  hybrid, then a reranker reads query and chunk together
//
// Near-identical chunks collapse into the better-ranked one, and an
// optional status/authority prior demotes archived, withdrawn and
// low-authority sources. Every stage leaves its time and its top
// candidates in Result.Stages for the trace, and the cheap checks of
// DESIGN.md §2 (index counts, empty chunks, a weak best score) become
// Result.Warnings.
package retrieval

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"

	"github.com/assay-rag/assay/internal/wire"
)

// Mode selects the ranking pipeline.
type Mode string

// Modes.
const (
	BM25         Mode = "bm25"
	Vector       Mode = "vector"
	Hybrid       Mode = "hybrid"
	HybridRerank Mode = "hybrid+rerank"
)

// Modes lists every mode, in the order reports show them.
var Modes = []Mode{BM25, Vector, Hybrid, HybridRerank}

// DefaultMode is used when a request names none. It is the best mode
// measured on the SciFact train split (see docs/retrieval.md).
const DefaultMode = HybridRerank

// ParseMode checks a mode name; "" is DefaultMode.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return DefaultMode, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", errs.FieldError("retrieval.ParseMode", "mode", fmt.Sprintf("want bm25, vector, hybrid or hybrid+rerank, got %q", s))
}

// Filters narrow the candidates beyond the principal's groups. Empty
// fields do not filter. Filters, Hit and Stage are defined in the wire
// contract: runs record them and the gateway serves them.
type Filters = wire.Filters

// Request is one search.
type Request struct {
	Query string `json:"query"`
	// Groups are the principal's ACL groups; a search without groups fails.
	Groups  []string `json:"groups"`
	Filters Filters  `json:"filters,omitzero"`
	K       int      `json:"k"`
	// Mode is the ranking pipeline; empty means DefaultMode.
	Mode Mode `json:"mode,omitempty"`
}

// Hit is one ranked chunk. It carries ids and metadata, never the text.
// Score's scale depends on the mode that produced it: BM25 score, cosine,
// fused reciprocal-rank score, or reranker score.
type Hit = wire.Hit

// Stage is the record one stage leaves in the trace.
type Stage = wire.Stage

// TraceTop bounds Stage.Top.
const TraceTop = 10

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
		return errs.FieldError(op, "k", fmt.Sprintf("want 1..%d, got %d", MaxK, r.K))
	case r.Filters.MinAuthority < 0 || r.Filters.MinAuthority > 1:
		return errs.FieldError(op, "filters.min_authority", fmt.Sprintf("want 0..1, got %g", r.Filters.MinAuthority))
	}
	for _, d := range []struct{ name, v string }{{"filters.updated_from", r.Filters.UpdatedFrom}, {"filters.updated_to", r.Filters.UpdatedTo}} {
		if d.v != "" {
			if _, err := time.Parse(time.DateOnly, d.v); err != nil {
				return errs.FieldError(op, d.name, fmt.Sprintf("want YYYY-MM-DD, got %q", d.v))
			}
		}
	}
	if r.Mode != "" {
		if _, err := ParseMode(string(r.Mode)); err != nil {
			return err
		}
	}
	return nil
}

// Retriever searches one backend. Safe for concurrent use.
type Retriever struct {
	b    backend.Searcher
	o    Options
	an   *terms.Analyzer
	mode Mode
}

// Search ranks the chunks visible to req.Groups.
func (r *Retriever) Search(ctx context.Context, req Request) (Result, error) {
	if err := req.Validate(); err != nil {
		return Result{}, err
	}
	mode := req.Mode
	if mode == "" {
		mode = r.mode
	}
	if (mode != BM25) && r.o.Embedder == nil {
		return Result{}, errs.Errorf("retrieval.Search", errs.Unsupported, "mode %s needs vectors, and this index has no query embedder configured", mode)
	}
	if mode == HybridRerank && r.o.Reranker == nil {
		return Result{}, errs.Errorf("retrieval.Search", errs.Unsupported, "mode %s needs a reranker, and none is configured", mode)
	}
	f := IndexFilter(req.Groups, req.Filters)
	s := &search{r: r, req: req, filter: f, fetch: max(r.o.Fetch, req.K), vocab: backend.VisibleIn(ctx, r.b, req.Groups)}
	s.res.Warnings = append(s.res.Warnings, r.b.Warnings(req.Groups)...)
	if err := s.run(ctx, mode); err != nil {
		return Result{}, err
	}
	// The reranker's and the coverage's counts: a 0 the server did not
	// answer must not score (backend.Vocabulary.Err).
	if err := s.vocab.Err(); err != nil {
		return Result{}, err
	}
	return s.res, nil
}

// IndexFilter is what a search of groups with filters f may return, as
// the backends take it.
func IndexFilter(groups []string, f Filters) backend.Filter {
	return backend.Filter{
		Groups: groups, Types: f.Types, Products: f.Products, Statuses: f.Statuses,
		MinAuthority: f.MinAuthority, UpdatedFrom: f.UpdatedFrom, UpdatedTo: f.UpdatedTo,
	}
}

// search is the state of one Search call.
type search struct {
	r      *Retriever
	req    Request
	filter backend.Filter
	fetch  int
	vocab  backend.Vocabulary // statistics of the chunks the principal may see
	res    Result
	cands  []*Candidate
	chunks map[string]*corpus.Chunk
	// read holds the ids whose chunk was read whole; the others' chunks
	// hold only what backend.MetaSource says (status, authority) or
	// backend.HitSource (and document, title, date).
	read map[string]bool
	// empty holds the ids HitSource said have no text; non-nil when the
	// candidates' result fields came from HitSource, so that only the
	// chunks whose text is read are read whole.
	empty map[string]bool
}

func (s *search) run(ctx context.Context, mode Mode) error {
	lex, vec, err := s.legs(ctx, mode)
	if err != nil {
		return err
	}
	s.fuse(mode, lex, vec)
	// Every candidate's status and authority (for dedup and the prior);
	// texts only for the candidates the reranker reads and the results.
	// When the results are every candidate, every chunk is read whole
	// anyway, and the metadata would be a read more (a Redis round trip
	// on RediSearch; the same results either way, TestMetaReadsOnlyWhatRanks).
	// A HitSource gives what the results show besides their text, so
	// that texts are read only where they are read (TestHitsReadOnlyTexts),
	// when the results outnumber the reranker's candidates: below that
	// they are few or read whole anyway, and the loop reads their texts
	// next (the assessor), which the chunk cache then holds.
	hs, hits := s.r.b.(backend.HitSource)
	hits = hits && s.req.K > s.r.o.RerankDepth
	ms, meta := s.r.b.(backend.MetaSource)
	switch {
	case hits:
		if err := s.hitMeta(ctx, hs); err != nil {
			return err
		}
	case meta && len(s.cands) > s.req.K:
		if err := s.meta(ctx, ms); err != nil {
			return err
		}
	default:
		if err := s.load(ctx, s.ids()); err != nil {
			return err
		}
	}
	s.dedup()
	if mode == HybridRerank {
		if err := s.load(ctx, s.ids()[:min(len(s.cands), s.r.o.RerankDepth)]); err != nil {
			return err
		}
		if err := s.rerank(ctx); err != nil {
			return err
		}
	}
	if s.r.o.Prior == StatusPrior {
		s.prior()
	}
	// The results' chunks; with HitSource only the best one's, whose
	// text the coverage check reads.
	n := min(len(s.cands), s.req.K)
	if s.empty != nil {
		n = min(n, 1)
	}
	if err := s.load(ctx, s.ids()[:n]); err != nil {
		return err
	}
	s.finish()
	return nil
}
