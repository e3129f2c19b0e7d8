// Package percentile computes nearest-rank percentiles, the one
// definition the batch aggregate, the evaluations and the benchmarks
// share.
package percentile

import (
	"cmp"
	"math"
	"slices"
)

// NearestRank is the nearest-rank p-th percentile (0 < p <= 100) of
// values: the smallest value at least p% of them are at or below; the
// zero value when there are none. values need not be sorted and are not
// modified.
func NearestRank[T cmp.Ordered](values []T, p float64) T {
	var zero T
	if len(values) == 0 {
		return zero
	}
	s := slices.Clone(values)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}
