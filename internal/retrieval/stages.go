package retrieval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

func (s *search) stage(name string, start time.Time, n int, ids []string, note string) {
	s.res.Stages = append(s.res.Stages, newStage(name, start, n, ids, note))
}

func newStage(name string, start time.Time, n int, ids []string, note string) Stage {
	if len(ids) > TraceTop {
		ids = ids[:TraceTop]
	}
	return Stage{Name: name, Millis: millisSince(start), Candidates: n, Top: slices.Clone(ids), Note: note}
}

// bm25 runs the BM25 leg; its stage is returned, not recorded, so that it
// may run beside the vector leg (run records both in a fixed order).
func (s *search) bm25(ctx context.Context) ([]backend.Hit, []Stage, error) {
	start := time.Now()
	hits, err := s.r.b.SearchText(ctx, s.req.Query, s.filter, s.fetch)
	if err != nil {
		return nil, nil, err
	}
	return hits, []Stage{newStage("bm25", start, len(hits), hitIDs(hits), "")}, nil
}

// vector runs the vector leg (the query's embedding, then the search);
// its stages are returned, as bm25's.
func (s *search) vector(ctx context.Context) ([]backend.Hit, []Stage, error) {
	start := time.Now()
	e := s.r.o.Embedder
	vecs, err := e.Embed(ctx, []string{s.req.Query})
	if err != nil {
		return nil, nil, errs.E("retrieval.embed", err)
	}
	if len(vecs) != 1 || len(vecs[0]) != e.Dim() {
		return nil, nil, errs.Errorf("retrieval.embed", errs.Schema, "%s returned no query vector of dimension %d", e.ID(), e.Dim())
	}
	stages := []Stage{newStage("embed", start, 1, nil, e.ID())}
	start = time.Now()
	hits, st, err := s.r.b.SearchVector(ctx, vecs[0], s.filter, s.fetch)
	if err != nil {
		return nil, nil, err
	}
	note := fmt.Sprintf("exact scan of %d chunks that pass the filter", st.Allowed)
	if st.Method != "" {
		note = st.Method + " with the filter inside the query"
	}
	return hits, append(stages, newStage("vector", start, len(hits), hitIDs(hits), note)), nil
}

// legs runs the first-stage retrievers mode needs. With both, they run
// at once: each waits on its backend (on RediSearch, a round trip and
// the server's time) while the other decodes and re-scores, and neither
// reads the other's results. Their stages are recorded bm25 first, as
// when they ran one after the other.
func (s *search) legs(ctx context.Context, mode Mode) (lex, vec []backend.Hit, err error) {
	var lexStages, vecStages []Stage
	switch mode {
	case BM25:
		lex, lexStages, err = s.bm25(ctx)
	case Vector:
		vec, vecStages, err = s.vector(ctx)
	default:
		// The first failure cancels the other leg. Of two failures the
		// BM25 leg's is reported, as when the legs ran in turn, unless it
		// is only the cancellation the vector leg's failure caused.
		var lexErr, vecErr error
		g, gctx := errgroup.WithContext(ctx)
		g.Go(func() error {
			vec, vecStages, vecErr = s.vector(gctx)
			return vecErr
		})
		g.Go(func() error {
			lex, lexStages, lexErr = s.bm25(gctx)
			return lexErr
		})
		g.Wait()
		switch {
		case lexErr != nil && (vecErr == nil || ctx.Err() != nil || !errors.Is(lexErr, context.Canceled)):
			err = lexErr
		default:
			err = vecErr
		}
	}
	if err != nil {
		return nil, nil, err
	}
	s.res.Stages = append(append(s.res.Stages, lexStages...), vecStages...)
	return lex, vec, nil
}

// fuse merges the first-stage lists into candidates (Fuse). With one list
// the order and scores are that list's; with two, the fused order.
func (s *search) fuse(mode Mode, lex, vec []backend.Hit) {
	start := time.Now()
	k := s.r.o.RRFK
	s.cands = Fuse(lex, vec, k, s.r.o.VectorWeight)
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

// load reads the chunks of ids not read yet: metadata for hits and the
// prior, texts for the reranker and the empty-chunk check.
func (s *search) load(ctx context.Context, ids []string) error {
	if s.chunks == nil {
		s.chunks = make(map[string]*corpus.Chunk, len(s.cands))
		s.read = make(map[string]bool, len(s.cands))
	}
	var missing []string
	for _, id := range ids {
		if !s.read[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	chunks, err := s.r.b.Chunks(ctx, missing)
	if err != nil {
		return err
	}
	if len(chunks) != len(missing) {
		return errs.Errorf("retrieval.Search", errs.Internal, "backend returned %d chunks for %d ids", len(chunks), len(missing))
	}
	byID := make(map[string]*Candidate, len(s.cands))
	for _, c := range s.cands {
		byID[c.ChunkID] = c
	}
	for i := range chunks {
		c := &chunks[i]
		if !c.VisibleTo(s.req.Groups) {
			// The backend filtered already; a hit here is a backend bug,
			// and it must not leak.
			return errs.Errorf("retrieval.Search", errs.Internal, "backend returned chunk %s outside the principal's groups", c.ID)
		}
		s.chunks[c.ID], s.read[c.ID] = c, true
		cand := byID[c.ID]
		cand.Title, cand.Text = c.Title, c.Text
	}
	return nil
}

// meta records every candidate's status and authority from ms, without
// reading the chunks, and checks that the principal may see each.
func (s *search) meta(ctx context.Context, ms backend.MetaSource) error {
	ids := s.ids()
	metas, err := ms.ChunkMeta(ctx, ids, s.req.Groups)
	if err != nil {
		return err
	}
	fields := make([]backend.HitMeta, len(metas))
	for i, m := range metas {
		fields[i].ChunkMeta = m
	}
	return s.record(ids, fields, "metadata")
}

// hitMeta records every candidate's result fields from hs (status,
// authority, document, title, date, emptiness), without reading the
// chunks, and checks that the principal may see each.
func (s *search) hitMeta(ctx context.Context, hs backend.HitSource) error {
	ids := s.ids()
	metas, err := hs.HitMeta(ctx, ids, s.req.Groups)
	if err != nil {
		return err
	}
	s.empty = make(map[string]bool)
	return s.record(ids, metas, "result fields")
}

// record keeps each candidate's fields as its (unread) chunk, and the
// ids with no text when s.empty is kept (hitMeta); what names the fields
// in the error when the backend returned another number of them.
func (s *search) record(ids []string, metas []backend.HitMeta, what string) error {
	if len(metas) != len(ids) {
		return errs.Errorf("retrieval.Search", errs.Internal, "backend returned %s of %d chunks for %d ids", what, len(metas), len(ids))
	}
	s.chunks = make(map[string]*corpus.Chunk, len(ids))
	s.read = make(map[string]bool, len(ids))
	for i, m := range metas {
		if !m.Visible {
			return errs.Errorf("retrieval.Search", errs.Internal, "backend returned chunk %s outside the principal's groups", ids[i])
		}
		s.chunks[ids[i]] = &corpus.Chunk{ID: ids[i], DocID: m.DocID, Title: m.Title, Updated: m.Updated, Status: m.Status, Authority: m.Authority}
		if m.Empty && s.empty != nil {
			s.empty[ids[i]] = true
		}
	}
	return nil
}

// textless reports whether the chunk id has no text: from its text when
// it was read whole, else from what HitSource said.
func (s *search) textless(id string) bool {
	if s.read[id] {
		return strings.TrimSpace(s.chunks[id].Text) == ""
	}
	return s.empty[id]
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
			if backend.NearDuplicate(p, prints[i]) {
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
	// The analyzed terms of the chunks the reranker reads, when the
	// backend keeps them: asked here, for these n only, because a
	// backend may split them on demand (RediSearch keeps the content
	// field and splits it on the first call, round 19).
	ts, terms := s.r.b.(backend.TermSource)
	head := make([]Candidate, n)
	for i := range head {
		head[i] = *s.cands[i]
		if terms {
			head[i].Terms = ts.Terms(head[i].ChunkID)
		}
	}
	scores, err := s.r.o.Reranker.Rerank(ctx, s.req.Query, s.vocab, head)
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
		if s.textless(ch.ID) {
			s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("empty chunk retrieved: %s has no text", ch.ID))
		}
	}
	if n == 0 {
		s.res.Warnings = append(s.res.Warnings, "no chunk visible to the principal matched the query")
		return
	}
	if cov := Coverage(s.r.an, s.vocab, s.req.Query, s.cands[0].Title+"\n"+s.cands[0].Text); cov < s.r.o.WeakScore {
		s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("weak best score: the top hit %s covers %.0f%% of the query's term weight", s.cands[0].ChunkID, 100*cov))
	}
}

func (s *search) ids() []string {
	out := make([]string, len(s.cands))
	for i, c := range s.cands {
		out[i] = c.ChunkID
	}
	return out
}

func hitIDs(hits []backend.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}

func millisSince(t time.Time) float64 {
	return float64(time.Since(t).Microseconds()) / 1000
}
