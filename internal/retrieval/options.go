package retrieval

import (
	"fmt"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
)

// Prior selects the optional status/authority prior.
type Prior string

// Priors.
const (
	// NoPrior ranks by relevance alone.
	NoPrior Prior = "none"
	// StatusPrior multiplies scores by a status factor (current 1,
	// archived 0.5, withdrawn 0.25) and by 0.75 + 0.25 × authority.
	StatusPrior Prior = "status"
)

// Options configure a Retriever. Zero values take the defaults.
type Options struct {
	// Embedder embeds queries; required for the vector and hybrid modes,
	// and its ID must match the index's embedder.
	Embedder QueryEmbedder
	// Reranker serves hybrid+rerank.
	Reranker Reranker
	// Fetch is how many candidates each first-stage retriever returns
	// before fusion (default 100, at least K).
	Fetch int
	// RRFK is reciprocal-rank fusion's k (default DefaultRRFK).
	RRFK float64
	// VectorWeight weighs the vector list in fusion, BM25's being 1
	// (default DefaultVectorWeight).
	VectorWeight float64
	// RerankDepth is how many fused candidates the reranker reads
	// (default DefaultRerankDepth).
	RerankDepth int
	// Prior is the status/authority prior (default DefaultPrior).
	Prior Prior
	// WeakScore is the query-term coverage of the top hit below which a
	// search warns of a weak best score (default 0.5).
	WeakScore float64
}

// Defaults. The fusion (k 20, vector weight 0.25), the rerank depth and
// the builtin reranker's weights were fitted together on SciFact train
// and on SciFact's train queries over the 50k synthetic corpus
// (TestSciFactTune's rerank sweep, docs/retrieval.md "Measured"); plain
// hybrid is still below BM25, which is why hybrid is not the default mode. The status prior
// was measured on the Hollin questions (see docs/retrieval.md).
const (
	DefaultFetch        = 100
	DefaultRRFK         = 20
	DefaultVectorWeight = 0.25
	DefaultRerankDepth  = 20
	DefaultPrior        = StatusPrior
	DefaultWeakScore    = 0.5
)

// NewWithOptions returns a Retriever over b. It fails when an option is
// out of range or the embedder does not match the index's.
func NewWithOptions(b backend.Searcher, o Options) (*Retriever, error) {
	const op = "retrieval.New"
	if o.Fetch == 0 {
		o.Fetch = DefaultFetch
	}
	if o.RRFK == 0 {
		o.RRFK = DefaultRRFK
	}
	if o.VectorWeight == 0 {
		o.VectorWeight = DefaultVectorWeight
	}
	if o.RerankDepth == 0 {
		o.RerankDepth = DefaultRerankDepth
	}
	if o.Prior == "" {
		o.Prior = DefaultPrior
	}
	if o.WeakScore == 0 {
		o.WeakScore = DefaultWeakScore
	}
	switch {
	case o.Fetch < 1 || o.RRFK <= 0 || o.VectorWeight < 0 || o.RerankDepth < 1:
		return nil, errs.FieldError(op, "options", "fetch, rrf k and rerank depth must be positive, vector weight not negative")
	case o.Prior != NoPrior && o.Prior != StatusPrior:
		return nil, errs.FieldError(op, "prior", fmt.Sprintf("want none or status, got %q", o.Prior))
	}
	m := b.Manifest()
	if o.Embedder != nil && (o.Embedder.ID() != m.Embedder || o.Embedder.Dim() != m.Dim) {
		return nil, errs.Errorf(op, errs.Invalid, "query embedder %s (dim %d) does not match the index's %q (dim %d): rebuild the index or configure the same embedder",
			o.Embedder.ID(), o.Embedder.Dim(), m.Embedder, m.Dim)
	}
	mode := DefaultMode
	switch {
	case o.Embedder == nil:
		mode = BM25
	case o.Reranker == nil && mode == HybridRerank:
		mode = Hybrid
	}
	return &Retriever{b: b, o: o, an: terms.New(), mode: mode}, nil
}

// Mode is the mode used for requests that name none: DefaultMode, or the
// best this retriever can serve without an embedder or reranker.
func (r *Retriever) Mode() Mode { return r.mode }

// New returns a Retriever over b that serves BM25 only (with the default
// dedup, prior and checks); it cannot fail. NewWithOptions adds vectors
// and reranking.
func New(b backend.Searcher) *Retriever {
	r, _ := NewWithOptions(b, Options{}) // no embedder, default options: nothing to reject
	return r
}
