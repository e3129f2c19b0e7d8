package postings

import (
	"context"
	"iter"
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

// maxScoreWindows is MaxScore with block bounds, evaluated a window of chunks
// at a time, as Lucene's MaxScoreBulkScorer does: the window ends at the
// first end of an essential term's current block (so within it each
// term's bound is its block's); a window whose bound cannot beat θ is
// skipped without decoding; otherwise the essential terms' postings in it
// are accumulated term by term into per-chunk buffers, and only chunks
// whose bound can still beat θ are probed for the non-essential terms and
// scored. Chunks are scored in ordinal order, so pruning at "≤ θ" is
// exact.
//
// Terms are ordered by their bound; the longest prefix whose bound cannot
// beat the k-th best score θ is non-essential (Turtle & Flood's MaxScore):
// a chunk holding only those terms cannot enter the top k, so candidates
// come from the essential terms alone and the non-essential ones are
// probed, highest bound first, only while the chunk can still beat θ.
// Bounds include the coordination factor: a chunk holding the terms of a
// set of clauses scores at most the sum of their bounds times their share
// of the query's clauses.
//
// Candidates: every chunk (everyDoc), or, for a sparse set, those of
// cand read window by window from its bitmap; otherwise dense is cand as a
// bitset and a posting of a chunk outside it is not accumulated, so only
// candidates are scored.
func (q *query) maxScoreWindows(ctx context.Context, cand *roaring.Bitmap, dense []uint64, everyDoc bool, k int) ([]Hit, error) {
	m := len(q.terms)
	top := newTopK(k)
	cs, cumUB, cumClauses := q.byBound()
	inv := 1 / float64(len(q.clauses))
	// tfs[j*window+o]: essential term j's frequency in chunk start+o of
	// the window (0: absent); bit o of seen marks chunk start+o as held
	// by some essential term, so the chunks are visited in ordinal order
	// without sorting them; bit j-e of holds[o] marks it as holding term
	// j (bit heldRest: some term j ≥ e+heldRest), so its terms are
	// visited without reading the others' empty slots.
	tfs := make([]uint32, m*window)
	var seen [window / 64]uint64
	var holds [window]uint64
	var held []int      // the terms the chunk being scored holds, by index in cs
	var heldTF []uint32 // and their frequencies
	// For a sparse candidate set (a restricted caller, a narrow filter),
	// windows without candidates are skipped and postings of chunks that
	// are not candidates are not accumulated.
	sparse := !everyDoc && dense == nil
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
		for e < m && bound(inv, cumUB[e+1], cumClauses[e+1]) <= theta {
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
		if bound(inv, wraw, wheld) <= theta {
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
		for j, c := range cs[e:] {
			bit := uint64(1) << min(j, heldRest)
			j += e
			if c.lazy {
				c.materialize()
			}
			if c.doc != end && c.have < c.n {
				c.docsTo(end) // a probe or skipTo decoded a prefix
			}
			// The decoded block's postings up to w, read from its arrays
			// (what c.next and c.tf would give, without a call each);
			// then the next block, or stop at the first posting after w.
			for c.doc <= w {
				p := c.pos
				for ; p < c.n; p++ {
					doc := c.docs[p]
					if doc > w {
						break
					}
					o := doc - start
					if sparse && inWindow[o/64]&(1<<(o%64)) == 0 {
						continue
					}
					if dense != nil && dense[doc/64]&(1<<(doc%64)) == 0 {
						continue
					}
					seen[o/64] |= 1 << (o % 64)
					holds[o] |= bit
					if p >= c.tfHave {
						c.tfsTo(c.n)
					}
					tfs[j*window+int(o)] = c.tfs[p]
				}
				if p < c.n {
					c.pos, c.doc = p, c.docs[p]
					break
				}
				c.pos = c.n - 1
				c.next()
			}
		}
		for o := range setBits(seen[:(w-start)/64+1]) {
			doc := start + o
			theta := top.threshold()
			q.work.examined++
			kl := q.kLen(q.length(doc))
			raw, nheld := 0.0, 0
			held, heldTF = held[:0], heldTF[:0]
			hs := holds[o]
			holds[o] = 0
			for hs != 0 {
				b := bits.TrailingZeros64(hs)
				hs &= hs - 1
				j, last := e+b, e+b+1
				if b == heldRest {
					last = m
				}
				for ; j < last; j++ {
					if tf := tfs[j*window+int(o)]; tf != 0 {
						tfs[j*window+int(o)] = 0
						c := cs[j]
						raw += c.weight * q.saturate(float64(tf), kl) * boundSlack
						nheld += c.clauses
						held, heldTF = append(held, j), append(heldTF, tf)
					}
				}
			}
			if bound(inv, raw+cumUB[e], nheld+cumClauses[e]) <= theta {
				continue
			}
			// Probe the non-essential terms, highest bound first.
			pruned := false
			for i := e - 1; i >= 0; i-- {
				if bound(inv, raw+cumUB[i+1], nheld+cumClauses[i+1]) <= theta {
					pruned = true
					break
				}
				c := cs[i]
				if c.doc < doc || c.lazy { // a lazy cursor's doc is a lower bound, ≤ doc
					c.shallow(doc)
					if bound(inv, raw+cumUB[i]+c.blockBound(q), nheld+cumClauses[i+1]) <= theta {
						pruned = true
						break
					}
					c.advance(doc)
				}
				if c.doc == doc {
					tf := c.tf()
					raw += c.weight * q.saturate(float64(tf), kl) * boundSlack
					nheld += c.clauses
					held, heldTF = append(held, i), append(heldTF, tf)
				}
			}
			if pruned || bound(inv, raw, nheld) <= theta {
				continue
			}
			q.stamp++
			for x, j := range held {
				q.hold(cs[j], heldTF[x], kl)
			}
			top.push(doc, q.held())
			q.work.scored++
		}
		start = w + 1
	}
	return top.sorted(), nil
}

// heldRest is the bit of a chunk's holds that stands for every essential
// term from the heldRest-th on (a query may have more terms than a word
// has bits).
const heldRest = 63

// bound bounds the score of a chunk holding terms whose bounds sum to raw
// and whose clauses number held, inv being 1 / the query's clauses: the
// sum times the share of clauses matched. Multiplying by the reciprocal
// may round differently from dividing by a ulp; the bounds carry
// boundSlack, so that never prunes a chunk that can enter.
func bound(inv, raw float64, held int) float64 { return raw * float64(held) * inv }

// sparseCand reports whether a search of the candidates cand among n chunks
// reads them window by window from the bitmap (under 1/8 of the chunks)
// rather than testing each posting against a bitset of them.
func sparseCand(cand *roaring.Bitmap, n int) bool {
	return cand.GetCardinality()*8 < uint64(n)
}

// setBits yields the positions of the set bits of words in increasing
// order, clearing each word once it has been read.
func setBits(words []uint64) iter.Seq[uint32] {
	return func(yield func(uint32) bool) {
		for i := range words {
			x := words[i]
			words[i] = 0
			for x != 0 {
				if !yield(uint32(i*64 + bits.TrailingZeros64(x))) {
					for j := i + 1; j < len(words); j++ {
						words[j] = 0
					}
					return
				}
				x &= x - 1
			}
		}
	}
}
