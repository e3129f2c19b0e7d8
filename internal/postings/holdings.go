package postings

import "github.com/RoaringBitmap/roaring/v2"

// MaxHeld is the most terms Holdings takes.
const MaxHeld = 64

// Holdings counts the visible chunks that are also in allowed (nil: every
// visible chunk) by which of terms they hold: bit i of a key is set when
// the chunks hold terms[i]. Chunks holding none of terms are not counted.
// More than MaxHeld terms give nil.
//
// It reads the terms' chunk bitmaps, never their postings: the chunks are
// split term by term into the sets that hold and lack it (roaring And and
// AndNot, proportional to the bitmaps' containers), and a set small
// enough is finished chunk by chunk.
func (v *Visible) Holdings(terms []string, allowed *roaring.Bitmap) map[uint64]int {
	if len(terms) > MaxHeld {
		return nil
	}
	cand := v.docs
	if allowed != nil {
		cand = roaring.And(v.docs, allowed)
	}
	held := make([]*roaring.Bitmap, len(terms))
	var present []*roaring.Bitmap
	for i, t := range terms {
		if r, ok := v.ix.term(t); ok {
			held[i] = v.ix.termDocs(r)
			present = append(present, held[i])
		}
	}
	out := map[uint64]int{}
	if len(present) == 0 {
		return out
	}
	set := roaring.And(roaring.FastOr(present...), cand)
	var split func(i int, set *roaring.Bitmap, mask uint64)
	split = func(i int, set *roaring.Bitmap, mask uint64) {
		card := set.GetCardinality()
		switch {
		case card == 0:
			return
		case i == len(terms):
			out[mask] += int(card)
			return
		case card <= smallSet:
			it := set.Iterator()
			for it.HasNext() {
				doc, m := it.Next(), mask
				for j := i; j < len(terms); j++ {
					if held[j] != nil && held[j].Contains(doc) {
						m |= 1 << j
					}
				}
				out[m]++
			}
			return
		case held[i] == nil:
			split(i+1, set, mask)
			return
		}
		in := roaring.And(set, held[i])
		if in.GetCardinality() == card {
			split(i+1, set, mask|1<<i)
			return
		}
		split(i+1, in, mask|1<<i)
		split(i+1, roaring.AndNot(set, held[i]), mask)
	}
	split(0, set, 0)
	return out
}

// smallSet is the size below which Holdings tests chunks one by one.
const smallSet = 64
