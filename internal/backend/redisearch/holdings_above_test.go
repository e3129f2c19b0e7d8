package redisearch

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// aboveBySubsets is above as first written: every subset of every mask.
func aboveBySubsets(masks []uint64, k, limit int) int {
	seen := map[uint64]bool{}
	for _, m := range masks {
		for s := m; s != 0; s = (s - 1) & m {
			if bits.OnesCount64(s) > k && !seen[s] {
				seen[s] = true
				if len(seen) > limit {
					return len(seen)
				}
			}
		}
	}
	return len(seen)
}

// TestAboveCountsSubsets checks above against every subset of small
// masks, and that a mask of many terms with k close to its size is
// counted without visiting its 2^p subsets (the first form took minutes
// on the last case; Holdings passes up to backend.MaxHeld terms).
func TestAboveCountsSubsets(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 1))
	for i := range 2000 {
		masks := make([]uint64, 1+r.IntN(4))
		for j := range masks {
			masks[j] = r.Uint64() & (1<<(4+r.IntN(9)) - 1)
		}
		k, limit := r.IntN(6), r.IntN(300)
		want := aboveBySubsets(masks, k, limit)
		if got := above(masks, k, limit, nil); got != want {
			t.Fatalf("case %d: above(%b, %d, %d) = %d, want %d", i, masks, k, limit, got, want)
		}
	}
	// 40 terms, sets of more than 38: the mask and its 40 sets of 39.
	wide := uint64(1)<<40 - 1
	if got := above([]uint64{wide}, 38, 1024, nil); got != 41 {
		t.Fatalf("above(40 terms, 38) = %d, want 41", got)
	}
	if got := above([]uint64{wide}, 2, 1024, nil); got != 1025 {
		t.Fatalf("above(40 terms, 2, 1024) = %d, want 1025 (stops past the limit)", got)
	}
}
