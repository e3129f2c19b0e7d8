//go:build !purego

package vectors

import "golang.org/x/sys/cpu"

// The int8 narrowing's inner loop (int8Estimator.score) in assembly: 64
// codes an iteration with AVX-512 BW, 32 with AVX2 (a CPU without
// AVX-512), sign-extended to int16 and multiplied with the query's int16
// weights by VPMADDWD into int32 lanes. Every product and partial sum is
// an integer that cannot overflow (each lane adds at most dim/32 products
// with AVX-512, dim/8 with AVX2; int8Estimator bounds the weights for
// dim/4+8), so the sum is the same integer dotInt8Go computes and the
// narrowing keeps the same candidates (TestDotInt8).

//go:noescape
func dotInt8AVX512(w *int16, c *int8, n int) int64

// dotInt8AVX2 is dotInt8AVX512 in 256-bit registers, 32 codes an
// iteration: the kernel of a CPU with AVX2 but not AVX-512 BW.
//
//go:noescape
func dotInt8AVX2(w *int16, c *int8, n int) int64

//go:noescape
func prefetchLines(p *byte, n int)

// prefetch asks for the cache lines of b; a hint that never faults (a
// page not yet mapped into the process is not fetched).
func prefetch(b []byte) {
	if len(b) > 0 {
		prefetchLines(&b[0], len(b))
	}
}

var (
	hasAVX512BW = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW
	hasAVX2     = cpu.X86.HasAVX2
)

// dotInt8 is the integer dot product of w and c (equal lengths).
func dotInt8(w []int16, c []int8) int64 {
	var n int
	var s int64
	switch {
	case hasAVX512BW && len(w) >= 64:
		n = len(w) &^ 63
		c = c[:len(w)]
		s = dotInt8AVX512(&w[0], &c[0], n)
	case hasAVX2 && len(w) >= 32:
		n = len(w) &^ 31
		c = c[:len(w)]
		s = dotInt8AVX2(&w[0], &c[0], n)
	default:
		return dotInt8Go(w, c)
	}
	if n < len(w) {
		s += dotInt8Go(w[n:], c[n:])
	}
	return s
}
