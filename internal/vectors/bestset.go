package vectors

import "math"

// bestSet keeps the k best offers (by rank, better's total order) for
// the 1-bit scan, which replaced topK's root about ten thousand times a
// search: offers that rank above a floor are appended to a buffer, and
// when it holds 2k a selection (quickselect, linear on average) keeps
// the k best and raises the floor to the worst of them. The floor lags
// the heap's root between selections, so a few more offers are
// appended, each at the cost of an append instead of a sift through
// log2(k) levels. The kept set is the same as topK's (the k best of all
// offers: an offer at or below the floor ranks below k kept ones).
type bestSet struct {
	k     int
	keys  []uint64 // ranks of the offers kept so far, in no order
	full  bool     // a selection ran: floor holds
	floor uint64   // the k-th best rank at the last selection
	// floorScore is floor's score: for an ordinal after every kept one,
	// score <= floorScore exactly when its rank is at most floor (on
	// equal scores the later ordinal ranks lower).
	floorScore float32
}

// newBestSet keeps the k best offers; k ≥ 1 (search returns before a
// scan when k < 1).
func newBestSet(k int) *bestSet {
	return &bestSet{k: k, keys: make([]uint64, 0, min(2*k, 1<<17))}
}

func (b *bestSet) offer(i uint32, score float32) {
	x := rank(i, score)
	if b.full && x <= b.floor {
		return
	}
	b.keys = append(b.keys, x)
	if len(b.keys) >= 2*b.k {
		b.shrink()
	}
}

// shrink keeps the k best keys and raises the floor to the worst of them.
func (b *bestSet) shrink() {
	if len(b.keys) <= b.k {
		return
	}
	selectBest(b.keys, b.k)
	b.keys = b.keys[:b.k]
	b.floor, b.full = b.keys[b.k-1], true
	b.floorScore = scoreOfRank(b.floor)
}

// ords returns the kept ordinals, the k best offers (or all of them if
// fewer), in no order.
func (b *bestSet) ords() []uint32 {
	b.shrink()
	out := make([]uint32, len(b.keys))
	for j, x := range b.keys {
		out[j] = ^uint32(x)
	}
	return out
}

// scoreOfRank is the score a rank was made from (rank's inverse; -0
// comes back as +0, which compares equal to it).
func scoreOfRank(x uint64) float32 {
	b := uint32(x >> 32)
	if b&(1<<31) != 0 {
		b ^= 1 << 31
	} else {
		b = ^b
	}
	return math.Float32frombits(b)
}

// selectBest reorders keys, which are distinct, so that keys[:k] are the
// k largest and keys[k-1] the smallest of those (Hoare's FIND, with the
// middle element as pivot), for 1 ≤ k ≤ len(keys).
func selectBest(keys []uint64, k int) {
	lo, hi, t := 0, len(keys)-1, k-1
	for lo < hi {
		// median of three as the pivot, for inputs that come in order
		mid := lo + (hi-lo)/2
		a, m, c := keys[lo], keys[mid], keys[hi]
		p := max(min(a, m), min(max(a, m), c))
		i, j := lo, hi
		for i <= j {
			for keys[i] > p {
				i++
			}
			for keys[j] < p {
				j--
			}
			if i <= j {
				keys[i], keys[j] = keys[j], keys[i]
				i++
				j--
			}
		}
		// keys[lo:j+1] ≥ p ≥ keys[i:hi+1]; between them, = p
		switch {
		case t <= j:
			hi = j
		case t >= i:
			lo = i
		default:
			return
		}
	}
}
