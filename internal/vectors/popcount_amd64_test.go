//go:build !purego

package vectors

import (
	"math/rand/v2"
	"testing"
)

// TestAndPopcount4 checks both assembly kernels against the Go loop on
// random planes and codes of every width a dimension can give.
func TestAndPopcount4(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 20))
	for _, w := range []int{1, 2, 4, 8, 12, 16, 32, 64} {
		for range 200 {
			planes := make([]uint64, 4*w)
			rec := make([]uint64, w)
			for i := range planes {
				planes[i] = rng.Uint64() & rng.Uint64() // sparser words too
			}
			for i := range rec {
				rec[i] = rng.Uint64()
			}
			want := weightedPopcountGo(planes, rec)
			if hasPOPCNT {
				if got := andPopcount4(&planes[0], &rec[0], w); got != want {
					t.Fatalf("words %d: andPopcount4 %d, want %d", w, got, want)
				}
			}
			if hasAVX512POPCNT && w%8 == 0 {
				if got := andPopcount4AVX512(&planes[0], &rec[0], w); got != want {
					t.Fatalf("words %d: andPopcount4AVX512 %d, want %d", w, got, want)
				}
			}
			if got := weightedPopcount(planes, rec); got != want {
				t.Fatalf("words %d: weightedPopcount %d, want %d", w, got, want)
			}
		}
	}
	if !hasPOPCNT {
		t.Log("no POPCNT on this CPU: only the Go loop was checked")
	}
	if !hasAVX512POPCNT {
		t.Log("no AVX-512 VPOPCNTQ on this CPU: the AVX-512 kernel was not checked")
	}
}

// TestWeightedPopcounts checks the batched kernel against the Go loop,
// record by record, for batches of 1 to 300 records with headers of every
// bit pattern (the kernel must skip them) and each width a dimension can
// give (the Go fallback for widths it does not take).
func TestWeightedPopcounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 22))
	for _, w := range []int{1, 8, 12, 16, 32, 64} {
		for _, n := range []int{1, 2, 7, 256, 300} {
			planes := make([]uint64, 4*w)
			for i := range planes {
				planes[i] = rng.Uint64() & rng.Uint64()
			}
			recs := make([]uint64, n*(1+w))
			for i := range recs {
				recs[i] = rng.Uint64()
			}
			out := make([]int64, n)
			weightedPopcounts(planes, recs, w, out)
			for j := range n {
				if want := weightedPopcountGo(planes, recs[j*(1+w)+1:][:w]); out[j] != int64(want) {
					t.Fatalf("words %d, %d records: record %d counted %d, want %d", w, n, j, out[j], want)
				}
			}
		}
	}
	if !hasAVX512POPCNT {
		t.Log("no AVX-512 VPOPCNTQ on this CPU: only the fallback was checked")
	}
}

// BenchmarkAndPopcount4 is the 1-bit scan's inner loop for one code of
// the builtin embedder's 768 dimensions (1,024 rotated bits, 16 words):
// the Go loop against each assembly kernel.
func BenchmarkAndPopcount4(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 21))
	const w = 16
	planes := make([]uint64, 4*w)
	rec := make([]uint64, w)
	for i := range planes {
		planes[i] = rng.Uint64()
	}
	for i := range rec {
		rec[i] = rng.Uint64()
	}
	sink := 0
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			sink += weightedPopcountGo(planes, rec)
		}
	})
	if hasPOPCNT {
		b.Run("popcnt", func(b *testing.B) {
			for b.Loop() {
				sink += andPopcount4(&planes[0], &rec[0], w)
			}
		})
	}
	if hasAVX512POPCNT {
		b.Run("avx512", func(b *testing.B) {
			for b.Loop() {
				sink += andPopcount4AVX512(&planes[0], &rec[0], w)
			}
		})
	}
	_ = sink
}

// BenchmarkWeightedPopcounts is the subset scan's kernel over one batch
// of 256 records of 16 words, resident in cache (35 KB): what the
// counting costs a record, apart from reaching the records.
func BenchmarkWeightedPopcounts(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 22))
	const w, n = 16, 256
	planes := make([]uint64, 4*w)
	recs := make([]uint64, n*(1+w))
	for i := range planes {
		planes[i] = rng.Uint64()
	}
	for i := range recs {
		recs[i] = rng.Uint64()
	}
	out := make([]int64, n)
	for b.Loop() {
		weightedPopcounts(planes, recs, w, out)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/record")
}
