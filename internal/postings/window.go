package postings

import (
	"context"
	"math/bits"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
)

// window is the most chunks maxScoreWindows accumulates at once.
const window = 1024

// byBound returns the query's cursors by ascending bound, with the prefix
// sums of their bounds and clause counts.
func (q *query) byBound() (cs []*cursor, cumUB []float64, cumClauses []int) {
	cs = slices.Clone(q.terms)
	slices.SortStableFunc(cs, func(a, b *cursor) int {
		switch {
		case a.ub < b.ub:
			return -1
		case a.ub > b.ub:
			return 1
		}
		return 0
	})
	cumUB = make([]float64, len(cs)+1)
	cumClauses = make([]int, len(cs)+1)
	for i, c := range cs {
		cumUB[i+1] = cumUB[i] + c.ub
		cumClauses[i+1] = cumClauses[i] + c.clauses
	}
	return cs, cumUB, cumClauses
}

// maxScoreWindows is MaxScore (see maxScore) evaluated a window of chunks
// at a time, as Lucene's MaxScoreBulkScorer does: the window ends at the
// first end of an essential term's current block (so within it each
// term's bound is its block's); a window whose bound cannot beat θ is
// skipped without decoding; otherwise the essential terms' postings in it
// are accumulated term by term into per-chunk buffers, and only chunks
// whose bound can still beat θ are probed for the non-essential terms and
// scored. Chunks are scored in ordinal order, so pruning at "≤ θ" is
// exact. Queries of more than 64 distinct terms use maxScore.
func (q *query) maxScoreWindows(ctx context.Context, cand *roaring.Bitmap, everyDoc bool, k int) ([]Hit, error) {
	m := len(q.terms)
	if m > 64 {
		return q.maxScore(ctx, cand, everyDoc, k)
	}
	top := newTopK(k)
	cs, cumUB, cumClauses := q.byBound()
	nClauses := float64(len(q.clauses))
	bound := func(raw float64, held int) float64 { return raw * float64(held) / nClauses }
	masks := make([]uint64, window)
	tfs := make([]uint32, m*window)
	var touched []uint32
	// For a sparse candidate set (a restricted caller, a narrow filter),
	// windows without candidates are skipped and postings of chunks that
	// are not candidates are not accumulated.
	sparse := !everyDoc && cand.GetCardinality()*8 < uint64(q.ix.Len())
	var inWindow [window / 64]uint64
	candIt := cand.Iterator()
	for _, c := range cs {
		c.doc, c.lazy = 0, true // nothing decoded yet
	}
	e := 0
	for start := uint32(0); start != end; {
		if ctx.Err() != nil {
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
			c.skipTo(start)
			d = min(d, c.doc)
		}
		if d == end {
			break
		}
		if sparse {
			candIt.AdvanceIfNeeded(d)
			if !candIt.HasNext() {
				break
			}
			if nc := candIt.PeekNext(); nc > d {
				start = nc
				continue
			}
		}
		start = d
		w := uint32(end - 1)
		if start < end-window {
			w = start + window - 1
		}
		wraw, wheld := cumUB[e], cumClauses[e]
		for _, c := range cs[e:] {
			if c.doc != end {
				c.shallow(start)
				w = min(w, c.blockLast())
				wraw += c.blockBound(q)
				wheld += c.clauses
			}
		}
		if bound(wraw, wheld) <= theta {
			start = w + 1
			continue
		}
		if sparse {
			inWindow = [window / 64]uint64{}
			for candIt.HasNext() && candIt.PeekNext() <= w {
				o := candIt.Next() - start
				inWindow[o/64] |= 1 << (o % 64)
			}
		}
		touched = touched[:0]
		for j, c := range cs[e:] {
			ji := e + j
			if c.lazy {
				c.materialize()
			}
			for ; c.doc <= w; c.next() {
				o := c.doc - start
				if sparse && inWindow[o/64]&(1<<(o%64)) == 0 {
					continue
				}
				if masks[o] == 0 {
					touched = append(touched, o)
				}
				masks[o] |= 1 << ji
				tfs[ji*window+int(o)] = c.tf()
			}
		}
		slices.Sort(touched)
		for _, o := range touched {
			mask := masks[o]
			masks[o] = 0
			doc := start + o
			theta := top.threshold()
			length := q.length(doc)
			raw, held := 0.0, 0
			for x := mask; x != 0; x &= x - 1 {
				c := cs[bits.TrailingZeros64(x)]
				raw += c.weight * q.termScore(float64(tfs[bits.TrailingZeros64(x)*window+int(o)]), length) * boundSlack
				held += c.clauses
			}
			if bound(raw+cumUB[e], held+cumClauses[e]) <= theta {
				continue
			}
			if !everyDoc && !sparse && !cand.Contains(doc) {
				continue
			}
			// Probe the non-essential terms, highest bound first.
			pruned := false
			for i := e - 1; i >= 0; i-- {
				if bound(raw+cumUB[i+1], held+cumClauses[i+1]) <= theta {
					pruned = true
					break
				}
				c := cs[i]
				if c.doc < doc || c.lazy {
					c.shallow(doc)
					if bound(raw+cumUB[i]+c.blockBound(q), held+cumClauses[i+1]) <= theta {
						pruned = true
						break
					}
					c.advance(doc)
				}
				if c.doc == doc {
					tf := c.tf()
					raw += c.weight * q.termScore(float64(tf), length) * boundSlack
					held += c.clauses
					mask |= 1 << i
					tfs[i*window+int(o)] = tf
				}
			}
			if pruned || bound(raw, held) <= theta {
				continue
			}
			q.stamp++
			for x := mask; x != 0; x &= x - 1 {
				ji := bits.TrailingZeros64(x)
				q.hold(cs[ji], tfs[ji*window+int(o)], length)
			}
			top.push(doc, q.held())
			q.work.scored++
		}
		start = w + 1
	}
	return top.sorted(), nil
}
