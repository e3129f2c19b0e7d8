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

// TestAndPopcount4Many checks the POPCNT batch kernel (the scan's kernel
// on a CPU without AVX-512 VPOPCNTQ) against the Go loop, record by
// record, whatever kernel weightedPopcounts takes on this CPU: every width
// a dimension can give, batches of 1 to 300 records, headers of any bits
// (skipped), dense, sparse, all-zero and all-ones planes and codes.
func TestAndPopcount4Many(t *testing.T) {
	if !hasPOPCNT {
		t.Skip("no POPCNT on this CPU")
	}
	rng := rand.New(rand.NewPCG(4, 27))
	eachRecordBatch(rng, []int{1, 2, 8, 12, 16, 32, 64}, []int{1, 2, 7, 256, 300}, func(w, n, pk, ck int, planes, recs []uint64) {
		out := make([]int64, n+1)
		out[n] = -7 // past the batch: must stay
		andPopcount4Many(&planes[0], &recs[0], w, n, &out[0])
		for j := range n {
			if want := int64(weightedPopcountGo(planes, recs[j*(1+w)+1:][:w])); out[j] != want {
				t.Fatalf("words %d, %d records, planes %d, codes %d: record %d counted %d, want %d", w, n, pk, ck, j, out[j], want)
			}
		}
		if out[n] != -7 {
			t.Fatalf("words %d, %d records: wrote past the batch", w, n)
		}
	})
}

// eachRecordBatch calls f with planes and a batch of records (headers of
// any bits, which the kernels must skip) for every width in ws, record
// count in ns and pair of word kinds for the planes and the codes (pk, ck:
// random, sparse, all-zero, all-ones).
func eachRecordBatch(rng *rand.Rand, ws, ns []int, f func(w, n, pk, ck int, planes, recs []uint64)) {
	kinds := []func() uint64{
		rng.Uint64,
		func() uint64 { return rng.Uint64() & rng.Uint64() & rng.Uint64() },
		func() uint64 { return 0 },
		func() uint64 { return ^uint64(0) },
	}
	for _, w := range ws {
		for _, n := range ns {
			for pk, plane := range kinds {
				for ck, code := range kinds {
					planes := make([]uint64, 4*w)
					for i := range planes {
						planes[i] = plane()
					}
					recs := make([]uint64, n*(1+w))
					for i := range recs {
						recs[i] = code()
					}
					for i := 0; i < len(recs); i += 1 + w {
						recs[i] = rng.Uint64()
					}
					f(w, n, pk, ck, planes, recs)
				}
			}
		}
	}
}

// TestWeightedPopcounts16x4 checks the four-record kernel
// (weightedPopcounts16x4, through weightedPopcounts) against the one-record
// kernel (andPopcount4AVX512Many, with scan16x4 off) and the Go loop,
// record by record, on random codes and planes: dense, sparse and all-zero
// planes (zero weights), all-ones codes and planes (the largest sums,
// 1,024·15, the packing's worst case), batch lengths that leave 0 to 3
// records of tail, and widths the kernel does not take (they must fall
// back). Any difference fails.
func TestWeightedPopcounts16x4(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 23))
	defer func() { scan16x4 = true }()
	eachRecordBatch(rng, []int{1, 8, 12, 16, 32}, []int{1, 3, 4, 5, 6, 7, 8, 255, 256}, func(w, n, pk, ck int, planes, recs []uint64) {
		got, old := make([]int64, n), make([]int64, n)
		scan16x4 = true
		weightedPopcounts(planes, recs, w, got)
		scan16x4 = false
		weightedPopcounts(planes, recs, w, old)
		for j := range n {
			want := int64(weightedPopcountGo(planes, recs[j*(1+w)+1:][:w]))
			if got[j] != want || old[j] != want {
				t.Fatalf("words %d, %d records, planes %d, codes %d: record %d counted %d (one-record kernel %d), want %d",
					w, n, pk, ck, j, got[j], old[j], want)
			}
		}
	})
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
// counting costs a record, apart from reaching the records: one is the
// one-record kernel (andPopcount4AVX512Many), four the four-record one
// (weightedPopcounts16x4).
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
	defer func() { scan16x4, scanMany = true, true }()
	for _, c := range []struct {
		name       string
		four, many bool
	}{{"one", false, true}, {"four", true, true}} {
		if !hasAVX512POPCNT {
			break
		}
		b.Run(c.name, func(b *testing.B) {
			scan16x4, scanMany = c.four, c.many
			for b.Loop() {
				weightedPopcounts(planes, recs, w, out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/record")
		})
	}
	// Without AVX-512 VPOPCNTQ: one andPopcount4 call a record (each)
	// against the POPCNT batch kernel (many).
	for _, c := range []struct {
		name string
		many bool
	}{{"popcnt-each", false}, {"popcnt-many", true}} {
		if hasAVX512POPCNT || !hasPOPCNT {
			break
		}
		b.Run(c.name, func(b *testing.B) {
			scanMany = c.many
			for b.Loop() {
				weightedPopcounts(planes, recs, w, out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/record")
		})
	}
}
