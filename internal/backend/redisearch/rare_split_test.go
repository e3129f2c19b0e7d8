package redisearch

import (
	"slices"
	"testing"
)

// TestDefaultRareMassShare: the shipped rule makes the commonest terms
// common while they carry at most 35% of a query's mass (round 35; 30%
// before), never more, and always keeps the rarest term rare.
func TestDefaultRareMassShare(t *testing.T) {
	const n = 250_000 // visible chunks: `public` at 500,000
	vdf := []int{40_000, 30_000, 20_000, 600, 300}
	for _, c := range []struct {
		mass []float64
		want []bool
	}{
		// The commonest term carries 34%: common now, not at 30%.
		{[]float64{34, 10, 10, 20, 26}, []bool{true, false, false, false, false}},
		// The two commonest carry 35% together: both common.
		{[]float64{20, 15, 10, 20, 35}, []bool{true, true, false, false, false}},
		// 36%: the commonest alone.
		{[]float64{20, 16, 10, 20, 34}, []bool{true, false, false, false, false}},
		// The commonest carries more than 35%: nothing is split.
		{[]float64{36, 5, 5, 20, 34}, nil},
	} {
		if got := defaultRare.split(vdf, c.mass, n); !slices.Equal(got, c.want) {
			t.Errorf("masses %v: common %v, want %v", c.mass, got, c.want)
		}
	}
}

// TestDefaultRareDepth: the shipped rule's split query reads 1.6 times
// the candidates' depth (round 37; twice before), rounded up: 314 for
// the retrieval's k of 100 (depth 196), and never fewer than the depth.
func TestDefaultRareDepth(t *testing.T) {
	if got := defaultRare.splitDepth(candidateDepth(100)); got != 314 {
		t.Errorf("split depth for k 100: %d, want 314", got)
	}
	if got := (rareRule{Deeper: 0.5}).splitDepth(196); got != 196 {
		t.Errorf("Deeper 0.5: %d, want the depth, 196", got)
	}
}
