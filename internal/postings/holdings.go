package postings

import (
	"math/bits"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// MaxHeld is the most terms Holdings takes.
const MaxHeld = 64

// Holdings counts the visible chunks that are also in allowed (nil: every
// visible chunk) by which of terms they hold: bit i of a key is set when
// the chunks hold terms[i]. Chunks holding none of terms are not counted.
// More than MaxHeld terms give nil.
//
// It reads the terms' chunk bitmaps, never their postings. The candidates
// (the visible chunks in allowed) and each found term's chunks are written
// out as dense bit sets, one bit a chunk, and read side by side a word (64
// chunks) at a time: the word's candidates holding a term get their masks
// in a 64-entry array, and are counted by mask from it.
//
// Until round 30 each term's bitmap was intersected with the candidates
// and walked chunk by chunk, marking the chunk in an array of one uint64
// a chunk (4 MB at 500,000 chunks, more than a core's cache), then the
// marked chunks were walked again to count them: the marks' cache misses,
// the walks and the intersections were most of the call. A dense set is
// 1/64 of that array, written and read in order, and the marks stay in
// the 64-entry array. The counts are the same (TestHoldingsDense).
func (v *Visible) Holdings(terms []string, allowed *roaring.Bitmap) map[uint64]int {
	if len(terms) > MaxHeld {
		return nil
	}
	out := map[uint64]int{}
	var holding []*roaring.Bitmap
	var bit []uint64
	for i, t := range terms {
		if r, ok := v.ix.term(t); ok {
			holding = append(holding, v.ix.termDocs(r))
			bit = append(bit, 1<<i)
		}
	}
	if len(holding) == 0 {
		return out
	}
	s := v.ix.held.Get().(*heldScratch)
	defer v.ix.held.Put(s)
	words := (v.ix.Len() + 63) / 64
	// The candidates: the visible set's own dense copy (read only), or
	// the visible chunks in allowed written out here (cleared at the end).
	// An allowed set that is the visible set itself (the bleve backend's
	// candidates for a filter of the caller's groups alone) is no
	// restriction.
	cand := v.denseDocs()
	if allowed != nil && allowed != v.docs {
		cand = grown(&s.cand, words)
		defer clear(cand)
		roaring.And(v.docs, allowed).WriteDenseTo(cand)
	}
	// The found terms' sets lie one after another in one slice: set i's
	// word w is sets[i*words+w]. Cleared at the end, so the pool's are
	// zero.
	sets := grown(&s.sets, len(holding)*words)
	defer clear(sets)
	for i, bm := range holding {
		bm.WriteDenseTo(sets[i*words : (i+1)*words])
	}
	// With at most denseHeld terms found, a chunk's mask is built from
	// their positions in holding and counted in an array indexed by it
	// (a map increment per chunk was 37% of the call at 500k); the
	// array's masks are translated back to terms' bits at the end.
	dense := len(holding) <= denseHeld
	var mark [MaxHeld]uint64
	for i := range holding {
		mark[i] = bit[i]
		if dense {
			mark[i] = 1 << i
		}
	}
	var counts []int32
	if dense {
		counts = s.countsArray()
	}
	masks := s.masks[:0]
	// local holds the masks of the word's chunks; every entry read is
	// cleared, so it is zero at each word's start.
	var local [64]uint64
	for w, c := range cand {
		if c == 0 {
			continue
		}
		var u uint64
		for j, i := 0, w; i < len(sets); j, i = j+1, i+words {
			x := sets[i] & c
			if x == 0 {
				continue
			}
			u |= x
			for m := mark[j]; x != 0; x &= x - 1 {
				local[bits.TrailingZeros64(x)] |= m
			}
		}
		for ; u != 0; u &= u - 1 {
			t := bits.TrailingZeros64(u)
			m := local[t]
			local[t] = 0
			if !dense {
				out[m]++
				continue
			}
			if counts[m] == 0 {
				masks = append(masks, uint32(m))
			}
			counts[m]++
		}
	}
	s.masks = masks[:0]
	for _, m := range masks {
		var key uint64
		for i := range holding {
			if m&(1<<i) != 0 {
				key |= bit[i]
			}
		}
		out[key] = int(counts[m])
		counts[m] = 0 // the pool's counts are kept zero
	}
	return out
}

// denseHeld is the most terms found for which Holdings counts masks in an
// array (2^denseHeld int32s: 256 KiB at 16) rather than a map.
const denseHeld = 16

// heldScratch is Holdings' working memory, pooled by the index: the dense
// bit sets (cand the allowed candidates', sets the found terms'), the
// counts by mask and the masks counted. Sets and counts are all zero
// whenever the scratch is in the pool.
type heldScratch struct {
	cand, sets []uint64
	counts     []int32
	masks      []uint32
}

// grown returns *set, n words long, made anew when it is shorter.
func grown(set *[]uint64, n int) []uint64 {
	if len(*set) < n {
		*set = make([]uint64, n)
	}
	return (*set)[:n]
}

// countsArray returns the counts by mask, 2^denseHeld of them.
func (s *heldScratch) countsArray() []int32 {
	if s.counts == nil {
		s.counts = make([]int32, 1<<denseHeld)
	}
	return s.counts
}

// heldPool hands out Holdings' scratch.
func heldPool() *sync.Pool {
	return &sync.Pool{New: func() any { return new(heldScratch) }}
}
