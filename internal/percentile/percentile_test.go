package percentile

import (
	"testing"
	"time"
)

// TestPercentile: nearest rank, on unsorted input.
func TestNearestRank(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100..1, unsorted
	}
	tests := []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{ms(4, 1, 3, 2), 99, 4 * time.Millisecond},
		{ms(hundred...), 50, 50 * time.Millisecond},
		{ms(hundred...), 99, 99 * time.Millisecond},
	}
	for _, tc := range tests {
		if got := NearestRank(tc.in, tc.p); got != tc.want {
			t.Errorf("NearestRank(%v, %v) = %v, want %v", tc.in, tc.p, got, tc.want)
		}
	}
}
