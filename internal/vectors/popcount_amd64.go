//go:build !purego

package vectors

import "golang.org/x/sys/cpu"

// The 1-bit scan's inner loop (bitEstimator.score) in assembly: Go's
// bits.OnesCount64 checks for POPCNT at every call unless the binary is
// built for x86-64-v2 or later, and the fallback call around it makes the
// compiler spill the loop's registers: 70 ns a 768-dimension code against
// 24 ns with the instruction alone (BenchmarkScore/bit). The sums are the
// same integers whichever way they are counted, so scores are identical.

//go:noescape
func andPopcount4(planes *uint64, rec *uint64, words int) int

// andPopcount4Many is andPopcount4 of n records, each a header word and
// words code words, in one call: the batch kernel of a CPU with POPCNT
// but without AVX-512 VPOPCNTQ.
//
//go:noescape
func andPopcount4Many(planes *uint64, recs *uint64, words, n int, out *int64)

//go:noescape
func andPopcount4AVX512(planes *uint64, rec *uint64, words int) int

//go:noescape
func andPopcount4AVX512Many(planes *uint64, recs *uint64, words, n int, out *int64)

// weightedPopcounts16x4 is andPopcount4AVX512Many for codes of 16 words
// and n a positive multiple of 4, four records at a time.
//
//go:noescape
func weightedPopcounts16x4(planes *uint64, recs *uint64, n int, out *int64)

// scan16x4 turns weightedPopcounts16x4 off (its test and benchmark compare
// it with andPopcount4AVX512Many).
var scan16x4 = true

// scanMany turns andPopcount4Many off (its test and benchmark compare it
// with weightedPopcountsEach, one andPopcount4 call a record).
var scanMany = true

var (
	hasPOPCNT       = cpu.X86.HasPOPCNT
	hasAVX512POPCNT = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ
)

// weightedPopcount is Σ_p 2^p·popcount(planes[p]&rec) over 4 bit planes of
// len(rec) words each, laid out back to back in planes.
func weightedPopcount(planes, rec []uint64) int {
	w := len(rec)
	switch {
	case w == 0:
		return 0
	case hasAVX512POPCNT && w%8 == 0:
		_ = planes[4*w-1]
		return andPopcount4AVX512(&planes[0], &rec[0], w)
	case hasPOPCNT:
		_ = planes[4*w-1]
		return andPopcount4(&planes[0], &rec[0], w)
	}
	return weightedPopcountGo(planes, rec)
}

// weightedPopcounts sets out[i] to weightedPopcount(planes, code of record
// i) for the len(out) records of recs, each a header word and w code
// words, in one call when an AVX-512 kernel applies, else in one call of
// the POPCNT batch kernel (andPopcount4Many).
func weightedPopcounts(planes, recs []uint64, w int, out []int64) {
	n := len(out)
	if n == 0 {
		return
	}
	_ = recs[n*(1+w)-1]
	if n4 := n &^ 3; hasAVX512POPCNT && scan16x4 && w == 16 && n4 > 0 {
		_ = planes[4*w-1]
		weightedPopcounts16x4(&planes[0], &recs[0], n4, &out[0])
		if n4 == n {
			return
		}
		recs, out, n = recs[n4*(1+w):], out[n4:], n-n4
	}
	if hasAVX512POPCNT && w > 0 && w%8 == 0 {
		_ = planes[4*w-1]
		andPopcount4AVX512Many(&planes[0], &recs[0], w, n, &out[0])
		return
	}
	if hasPOPCNT && scanMany && w > 0 {
		_ = planes[4*w-1]
		andPopcount4Many(&planes[0], &recs[0], w, n, &out[0])
		return
	}
	weightedPopcountsEach(planes, recs, w, out)
}
