package postings

import (
	"context"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
)

// maxScore is MaxScore (Turtle & Flood 1995) with block bounds, restricted
// to the chunks in cand, one chunk at a time; maxScoreWindows uses it for
// queries of more than 64 distinct terms. Terms are ordered by their bound; the longest
// prefix whose bound cannot beat the k-th best score θ is non-essential: a
// chunk holding only those terms cannot enter the top k, so candidates
// come from the essential terms alone and the non-essential ones are
// probed (highest bound first) only while the chunk can still beat θ.
// Bounds include the coordination factor: a chunk holding terms of a set
// of clauses scores at most the sum of their bounds times their share of
// the query's clauses. A chunk enters the top k only with a score above θ
// (ties go to the smaller ordinal, seen first), so pruning at "≤ θ" is
// exact.
func (q *query) maxScore(ctx context.Context, cand *roaring.Bitmap, everyDoc bool, k int) ([]Hit, error) {
	top := newTopK(k)
	// cumUB[i], cumClauses[i]: the bounds and clauses of cs[:i].
	cs, cumUB, cumClauses := q.byBound()
	m := len(cs)
	nClauses := float64(len(q.clauses))
	bound := func(raw float64, held int) float64 { return raw * float64(held) / nClauses }
	candIt := cand.Iterator()
	nextCand := func(d uint32) uint32 {
		if everyDoc {
			return d
		}
		candIt.AdvanceIfNeeded(d)
		if !candIt.HasNext() {
			return end
		}
		return candIt.PeekNext()
	}
	for _, c := range cs {
		c.advance(0)
	}
	at := make([]*cursor, 0, m)
	e := 0 // cs[:e] are non-essential
	for steps := 0; ; steps++ {
		if steps%1024 == 0 && ctx.Err() != nil {
			return nil, errs.E("postings.Search", errs.Timeout, ctx.Err())
		}
		theta := top.threshold()
		for e < m && bound(cumUB[e+1], cumClauses[e+1]) <= theta {
			e++
		}
		if e == m {
			break
		}
		d := uint32(end)
		for _, c := range cs[e:] {
			d = min(d, c.doc)
		}
		if d == end {
			break
		}
		// The window up to the first end of an essential term's current
		// block: within it each term's bound is its block's. A window
		// that cannot beat θ is skipped without decoding its blocks.
		w, wraw, wheld := uint32(end), cumUB[e], cumClauses[e]
		for _, c := range cs[e:] {
			if c.doc != end {
				w = min(w, c.blockLast())
				wraw += c.blockBound(q)
				wheld += c.clauses
			}
		}
		if bound(wraw, wheld) <= theta {
			for _, c := range cs[e:] {
				c.skipTo(w + 1)
			}
			continue
		}
		lazy := false
		for _, c := range cs[e:] {
			if c.lazy && c.doc == d {
				c.materialize()
				lazy = true
			}
		}
		if lazy {
			continue // d was a lower bound
		}
		at = at[:0]
		raw, held := cumUB[e], cumClauses[e]
		for _, c := range cs[e:] {
			if c.doc == d {
				at = append(at, c)
				raw += c.blockBound(q)
				held += c.clauses
			}
		}
		if bound(raw, held) > theta {
			if nd := nextCand(d); nd != d {
				for _, c := range cs[e:] {
					c.skipTo(nd)
				}
				continue
			}
			if q.probe(d, cs[:e], at, cumUB, cumClauses, theta) {
				top.push(d, q.score(d, q.at))
				q.work.scored++
			}
		}
		for _, c := range at {
			c.next()
		}
	}
	return top.sorted(), nil
}

// probe computes the contributions of the essential cursors at d (at) and
// of the non-essential cursors ne (ascending bounds), probing them from the
// highest bound down while d can still beat theta. It reports whether d
// must be scored, with its cursors in q.at.
func (q *query) probe(d uint32, ne, at []*cursor, cumUB []float64, cumClauses []int, theta float64) bool {
	norm := q.ix.norm(d)
	length := 1 / (norm * norm)
	raw, held := 0.0, 0
	for _, c := range at {
		raw += c.weight * q.termScore(float64(c.tf()), length) * boundSlack
		held += c.clauses
	}
	q.at = append(q.at[:0], at...)
	nClauses := float64(len(q.clauses))
	for i := len(ne) - 1; i >= 0; i-- {
		if (raw+cumUB[i+1])*float64(held+cumClauses[i+1])/nClauses <= theta {
			return false
		}
		c := ne[i]
		if c.doc < d || c.lazy { // a lazy cursor's doc is a lower bound, ≤ d
			c.shallow(d)
			if (raw+cumUB[i]+c.blockBound(q))*float64(held+cumClauses[i+1])/nClauses <= theta {
				return false
			}
			c.advance(d)
		}
		if c.doc == d {
			raw += c.weight * q.termScore(float64(c.tf()), length) * boundSlack
			held += c.clauses
			q.at = append(q.at, c)
		}
	}
	return raw*float64(held)/nClauses > theta
}
