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
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/index"
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
// measured on the SciFact train split (see the README).
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

// Backend is the index retrieval reads: *index.Index, or another store
// that offers the same filtered searches.
type Backend interface {
	SearchText(ctx context.Context, text string, f index.Filter, k int) ([]index.Hit, error)
	SearchVector(ctx context.Context, vec []float32, f index.Filter, k int) ([]index.Hit, index.VectorStats, error)
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
	Fingerprints(ids []string) []uint64
	DocFreq(term string) int
	Len() int
	Manifest() index.Manifest
	Check() []string
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
// returns one score per candidate, higher is better.
type Reranker interface {
	ID() string
	Rerank(ctx context.Context, query string, cands []Candidate) ([]float64, error)
}

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
	// RRFK is reciprocal-rank fusion's k (default 60).
	RRFK float64
	// VectorWeight weighs the vector list in fusion, BM25's being 1
	// (default DefaultVectorWeight).
	VectorWeight float64
	// RerankDepth is how many fused candidates the reranker reads
	// (default 50).
	RerankDepth int
	// Prior is the status/authority prior (default DefaultPrior).
	Prior Prior
	// WeakScore is the query-term coverage of the top hit below which a
	// search warns of a weak best score (default 0.5).
	WeakScore float64
}

// Defaults. The reranker's weights were fitted on SciFact train with this
// fusion (k 60, vector weight 0.5); plain hybrid did best there at weight
// 0.25 and k 20 (nDCG@10 0.6746 with 400-word chunks), still below BM25
// (0.6858), which is why hybrid is not the default mode. The status prior
// was measured on the Hollin questions (see the README).
const (
	DefaultFetch        = 100
	DefaultRRFK         = 60
	DefaultVectorWeight = 0.5
	DefaultRerankDepth  = 50
	DefaultPrior        = StatusPrior
	DefaultWeakScore    = 0.5
)

// Retriever searches one backend. Safe for concurrent use.
type Retriever struct {
	b    Backend
	o    Options
	an   *terms.Analyzer
	mode Mode
}

// NewWithOptions returns a Retriever over b. It fails when an option is
// out of range or the embedder does not match the index's.
func NewWithOptions(b Backend, o Options) (*Retriever, error) {
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
func New(b Backend) *Retriever {
	r, _ := NewWithOptions(b, Options{}) // no embedder, default options: nothing to reject
	return r
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
	f := index.Filter{
		Groups: req.Groups, Types: req.Filters.Types, Products: req.Filters.Products,
		Statuses: req.Filters.Statuses, MinAuthority: req.Filters.MinAuthority,
		UpdatedFrom: req.Filters.UpdatedFrom, UpdatedTo: req.Filters.UpdatedTo,
	}
	s := &search{r: r, req: req, filter: f, fetch: max(r.o.Fetch, req.K)}
	s.res.Warnings = append(s.res.Warnings, r.b.Check()...)
	if err := s.run(ctx, mode); err != nil {
		return Result{}, err
	}
	return s.res, nil
}

// search is the state of one Search call.
type search struct {
	r      *Retriever
	req    Request
	filter index.Filter
	fetch  int
	res    Result
	cands  []*Candidate
	chunks map[string]*corpus.Chunk
}

func (s *search) run(ctx context.Context, mode Mode) error {
	var lex, vec []index.Hit
	var err error
	if mode != Vector {
		if lex, err = s.bm25(ctx); err != nil {
			return err
		}
	}
	if mode != BM25 {
		if vec, err = s.vector(ctx); err != nil {
			return err
		}
	}
	s.fuse(mode, lex, vec)
	if err := s.load(ctx); err != nil {
		return err
	}
	s.dedup()
	if mode == HybridRerank {
		if err := s.rerank(ctx); err != nil {
			return err
		}
	}
	if s.r.o.Prior == StatusPrior {
		s.prior()
	}
	s.finish()
	return nil
}

func (s *search) stage(name string, start time.Time, n int, ids []string, note string) {
	if len(ids) > TraceTop {
		ids = ids[:TraceTop]
	}
	s.res.Stages = append(s.res.Stages, Stage{Name: name, Millis: millisSince(start), Candidates: n, Top: slices.Clone(ids), Note: note})
}

func (s *search) bm25(ctx context.Context) ([]index.Hit, error) {
	start := time.Now()
	hits, err := s.r.b.SearchText(ctx, s.req.Query, s.filter, s.fetch)
	if err != nil {
		return nil, err
	}
	s.stage("bm25", start, len(hits), hitIDs(hits), "")
	return hits, nil
}

func (s *search) vector(ctx context.Context) ([]index.Hit, error) {
	start := time.Now()
	e := s.r.o.Embedder
	vecs, err := e.Embed(ctx, []string{s.req.Query})
	if err != nil {
		return nil, errs.E("retrieval.embed", err)
	}
	if len(vecs) != 1 || len(vecs[0]) != e.Dim() {
		return nil, errs.Errorf("retrieval.embed", errs.Schema, "%s returned no query vector of dimension %d", e.ID(), e.Dim())
	}
	s.stage("embed", start, 1, nil, e.ID())
	start = time.Now()
	hits, st, err := s.r.b.SearchVector(ctx, vecs[0], s.filter, s.fetch)
	if err != nil {
		return nil, err
	}
	s.stage("vector", start, len(hits), hitIDs(hits), fmt.Sprintf("exact scan of %d chunks that pass the filter", st.Allowed))
	return hits, nil
}

// fuse merges the first-stage lists into candidates. With one list the
// order and scores are that list's; with two, weighted reciprocal rank
// fusion: score = Σ w / (k + rank).
func (s *search) fuse(mode Mode, lex, vec []index.Hit) {
	start := time.Now()
	byID := map[string]*Candidate{}
	get := func(id string) *Candidate {
		c, ok := byID[id]
		if !ok {
			c = &Candidate{ChunkID: id}
			byID[id] = c
			s.cands = append(s.cands, c)
		}
		return c
	}
	k := s.r.o.RRFK
	for i, h := range lex {
		c := get(h.ChunkID)
		c.BM25, c.BM25Rank = h.Score, i+1
		c.Fused += 1 / (k + float64(i+1))
	}
	for i, h := range vec {
		c := get(h.ChunkID)
		c.Cosine, c.VectorRank = h.Score, i+1
		c.Fused += s.r.o.VectorWeight / (k + float64(i+1))
	}
	switch mode {
	case BM25:
		for _, c := range s.cands {
			c.Fused = c.BM25
		}
		return // already in BM25 order; no fusion stage
	case Vector:
		for _, c := range s.cands {
			c.Fused = c.Cosine
		}
		return
	}
	sort.SliceStable(s.cands, func(i, j int) bool { return s.cands[i].Fused > s.cands[j].Fused })
	s.stage("fuse", start, len(s.cands), s.ids(), fmt.Sprintf("rrf k=%g, vector weight %g", k, s.r.o.VectorWeight))
}

// load fetches the candidates' chunks: metadata for hits and the prior,
// texts for the reranker and the empty-chunk check.
func (s *search) load(ctx context.Context) error {
	chunks, err := s.r.b.Chunks(ctx, s.ids())
	if err != nil {
		return err
	}
	s.chunks = make(map[string]*corpus.Chunk, len(chunks))
	for i := range chunks {
		c := &chunks[i]
		if !c.VisibleTo(s.req.Groups) {
			// The backend filtered already; a hit here is a backend bug,
			// and it must not leak.
			return errs.Errorf("retrieval.Search", errs.Internal, "backend returned chunk %s outside the principal's groups", c.ID)
		}
		s.chunks[c.ID] = c
		s.cands[i].Title, s.cands[i].Text = c.Title, c.Text
		if ts, ok := s.r.b.(TermSource); ok {
			s.cands[i].Terms = ts.Terms(c.ID)
		}
	}
	return nil
}

// dedup collapses near-identical chunks into the better-ranked one.
func (s *search) dedup() {
	start := time.Now()
	prints := s.r.b.Fingerprints(s.ids())
	kept := s.cands[:0:0]
	keptPrints := make([]uint64, 0, len(prints))
	var notes []string
	for i, c := range s.cands {
		dup := -1
		for j, p := range keptPrints {
			if index.NearDuplicate(p, prints[i]) {
				dup = j
				break
			}
		}
		if dup >= 0 {
			// The pair collapses at the better rank, into the more
			// trustworthy copy: a current, higher-authority original beats
			// a stray copy that happened to score higher.
			if k := kept[dup]; trustier(s.chunks[c.ChunkID], s.chunks[k.ChunkID]) {
				c.Fused = k.Fused
				kept[dup], keptPrints[dup] = c, prints[i]
				notes = append(notes, k.ChunkID+" → "+c.ChunkID)
			} else {
				notes = append(notes, c.ChunkID+" → "+k.ChunkID)
			}
			continue
		}
		kept = append(kept, c)
		keptPrints = append(keptPrints, prints[i])
	}
	s.cands = kept
	note := "no near-duplicates"
	if len(notes) > 0 {
		note = "collapsed " + strings.Join(notes, ", ")
	}
	s.stage("dedup", start, len(s.cands), s.ids(), note)
}

// trustier reports whether a should stand for a near-duplicate pair
// rather than b: a better status first, then a higher authority.
func trustier(a, b *corpus.Chunk) bool {
	rank := map[corpus.Status]int{corpus.Current: 2, corpus.Archived: 1, corpus.Withdrawn: 0}
	if rank[a.Status] != rank[b.Status] {
		return rank[a.Status] > rank[b.Status]
	}
	return a.Authority > b.Authority
}

func (s *search) rerank(ctx context.Context) error {
	start := time.Now()
	n := min(len(s.cands), s.r.o.RerankDepth)
	if n == 0 {
		return nil
	}
	head := make([]Candidate, n)
	for i := range head {
		head[i] = *s.cands[i]
	}
	scores, err := s.r.o.Reranker.Rerank(ctx, s.req.Query, head)
	if err != nil {
		return errs.E("retrieval.rerank", err)
	}
	if len(scores) != n {
		return errs.Errorf("retrieval.rerank", errs.Schema, "%s returned %d scores for %d candidates", s.r.o.Reranker.ID(), len(scores), n)
	}
	// Reranked candidates go first, in score order; the tail keeps its
	// fused order below them.
	top := s.cands[:n]
	for i, c := range top {
		c.Fused = scores[i]
	}
	sort.SliceStable(top, func(i, j int) bool { return top[i].Fused > top[j].Fused })
	floor := math.Inf(1)
	for _, c := range top {
		floor = min(floor, c.Fused)
	}
	for i, c := range s.cands[n:] {
		c.Fused = floor - 1e-6*float64(i+1)
	}
	s.stage("rerank", start, n, s.ids(), s.r.o.Reranker.ID())
	return nil
}

// prior multiplies each score by a status and authority factor. Scores
// must be positive for a multiplicative prior to demote, so the fused or
// reranked score is first shifted to be.
func (s *search) prior() {
	start := time.Now()
	if len(s.cands) == 0 {
		return
	}
	lo := math.Inf(1)
	for _, c := range s.cands {
		lo = min(lo, c.Fused)
	}
	shift := 0.0
	if lo <= 0 {
		shift = -lo + 1e-9
	}
	moved := 0
	before := s.ids()
	for _, c := range s.cands {
		ch := s.chunks[c.ChunkID]
		c.Fused = (c.Fused + shift) * PriorFactor(ch.Status, ch.Authority)
	}
	sort.SliceStable(s.cands, func(i, j int) bool { return s.cands[i].Fused > s.cands[j].Fused })
	for i, id := range s.ids() {
		if before[i] != id {
			moved++
		}
	}
	s.stage("prior", start, len(s.cands), s.ids(), fmt.Sprintf("status/authority prior moved %d candidates", moved))
}

// PriorFactor is the status prior's multiplier for a source.
func PriorFactor(st corpus.Status, authority float64) float64 {
	f := 0.75 + 0.25*authority
	switch st {
	case corpus.Archived:
		f *= 0.5
	case corpus.Withdrawn:
		f *= 0.25
	}
	return f
}

// finish cuts the list to K, builds hits and runs the result checks.
func (s *search) finish() {
	n := min(len(s.cands), s.req.K)
	s.res.Hits = make([]Hit, 0, n)
	for _, c := range s.cands[:n] {
		ch := s.chunks[c.ChunkID]
		s.res.Hits = append(s.res.Hits, Hit{
			ChunkID: ch.ID, DocID: ch.DocID, Title: ch.Title, Score: c.Fused,
			Status: ch.Status, Authority: ch.Authority, Updated: ch.Updated,
		})
		if strings.TrimSpace(ch.Text) == "" {
			s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("empty chunk retrieved: %s has no text", ch.ID))
		}
	}
	if n == 0 {
		s.res.Warnings = append(s.res.Warnings, "no chunk visible to the principal matched the query")
		return
	}
	if cov := Coverage(s.r.an, s.r.b, s.req.Query, s.cands[0].Title+"\n"+s.cands[0].Text); cov < s.r.o.WeakScore {
		s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("weak best score: the top hit %s covers %.0f%% of the query's term weight", s.cands[0].ChunkID, 100*cov))
	}
}

// Vocabulary is what Coverage needs of an index.
type Vocabulary interface {
	DocFreq(term string) int
	Len() int
}

// Coverage is the share of the query's term weight (BM25 IDF over the
// index's chunks) that text contains: 1 when every query term is there,
// 0 when none is. A query with no searchable terms covers 0.
func Coverage(an *terms.Analyzer, v Vocabulary, query, text string) float64 {
	have := an.Set(text)
	n := float64(v.Len())
	var total, got float64
	for _, t := range an.Content(query) {
		df := float64(v.DocFreq(t))
		w := math.Log(1 + (n-df+0.5)/(df+0.5))
		total += w
		if have[t] {
			got += w
		}
	}
	if total == 0 {
		return 0
	}
	return got / total
}

func (s *search) ids() []string {
	out := make([]string, len(s.cands))
	for i, c := range s.cands {
		out[i] = c.ChunkID
	}
	return out
}

func hitIDs(hits []index.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}

func millisSince(t time.Time) float64 {
	return float64(time.Since(t).Microseconds()) / 1000
}
