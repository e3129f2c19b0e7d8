package postings

import (
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
// It reads the terms' chunk bitmaps, never their postings: each is
// intersected with the candidates container by container (chunks the
// caller may not see are skipped in blocks of up to 65,536), and the
// candidates holding it are marked in a per-chunk mask. The cost is that
// of the visible, allowed chunks holding the terms, not of the corpus.
func (v *Visible) Holdings(terms []string, allowed *roaring.Bitmap) map[uint64]int {
	if len(terms) > MaxHeld {
		return nil
	}
	cand := v.docs
	if allowed != nil {
		cand = roaring.And(v.docs, allowed)
	}
	out := map[uint64]int{}
	var holding []*roaring.Bitmap
	var bit []uint64
	for i, t := range terms {
		if r, ok := v.ix.term(t); ok {
			holding = append(holding, roaring.And(v.ix.termDocs(r), cand))
			bit = append(bit, 1<<i)
		}
	}
	if len(holding) == 0 {
		return out
	}
	masks := v.ix.masks.Get().(*[]uint64)
	defer v.ix.masks.Put(masks)
	held := *masks
	// touched collects each chunk the first time a term marks it, so the
	// marked chunks are counted (and their masks cleared) from it rather
	// than from a union of the terms' bitmaps built and walked again.
	// Counting does not depend on the order, so the counts are the same.
	// Each chunk is listed once, but every mark writes its slot before
	// knowing whether the chunk is new: room for the terms' chunks added,
	// at most one more than the index's chunks (MaxHeld terms' bitmaps can
	// add up to MaxHeld times that).
	total := 0
	for _, bm := range holding {
		total += int(bm.GetCardinality())
	}
	total = min(total, len(held)+1)
	tp := v.ix.touched.Get().(*[]uint32)
	defer v.ix.touched.Put(tp)
	if cap(*tp) < total {
		*tp = make([]uint32, total)
	}
	touched := (*tp)[:total]
	nt := 0
	// With at most denseHeld terms found, a chunk's mask is built from
	// their positions in holding and counted in an array indexed by it
	// (a map increment per chunk was 37% of the call at 500k); the
	// array's masks are translated back to terms' bits at the end.
	dense := len(holding) <= denseHeld
	var buf [256]uint32
	for i, bm := range holding {
		b := bit[i]
		if dense {
			b = 1 << i
		}
		it := bm.ManyIterator()
		for n := it.NextMany(buf[:]); n > 0; n = it.NextMany(buf[:]) {
			for _, d := range buf[:n] {
				m := held[d]
				touched[nt] = d
				if m == 0 {
					nt++
				}
				held[d] = m | b
			}
		}
	}
	touched = touched[:nt]
	if !dense {
		for _, d := range touched {
			out[held[d]]++
			held[d] = 0 // the pool's masks are kept zero
		}
		return out
	}
	counts := make([]int32, 1<<len(holding))
	for _, d := range touched {
		counts[held[d]]++
		held[d] = 0
	}
	for m, c := range counts {
		if c == 0 {
			continue
		}
		var key uint64
		for i := range holding {
			if m&(1<<i) != 0 {
				key |= bit[i]
			}
		}
		out[key] = int(c)
	}
	return out
}

// denseHeld is the most terms found for which Holdings counts masks in an
// array (2^denseHeld int32s: 256 KiB at 16) rather than a map.
const denseHeld = 16

// touchedPool hands out Holdings' lists of the chunks it marked.
func touchedPool() *sync.Pool {
	return &sync.Pool{New: func() any { return new([]uint32) }}
}

// maskPool hands out zeroed per-chunk masks for Holdings.
func maskPool(n int) *sync.Pool {
	return &sync.Pool{New: func() any {
		m := make([]uint64, n)
		return &m
	}}
}
