//go:build !purego

package vectors

import (
	"math/rand/v2"
	"testing"
)

// TestDotInt8 checks the AVX-512 kernel, and dotInt8 around it, against
// the Go loop on random weights and codes of many lengths, and at the
// extremes the estimator allows (every weight ±queryMax, every code ±127),
// where an int32 overflow or a lost tail would show.
func TestDotInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 20))
	for _, dim := range []int{1, 7, 31, 32, 33, 63, 64, 65, 96, 100, 128, 384, 768, 770, 1024, 1536} {
		qm := queryMax(dim)
		for trial := range 100 {
			w := make([]int16, dim)
			c := make([]int8, dim)
			for j := range w {
				switch trial {
				case 0: // the largest positive sum
					w[j], c[j] = int16(qm), 127
				case 1: // the largest negative sum
					w[j], c[j] = int16(-qm), 127
				case 2:
					w[j], c[j] = int16(-qm), -127
				default:
					w[j] = int16(rng.IntN(2*qm+1) - qm)
					c[j] = int8(rng.IntN(255) - 127)
				}
			}
			want := dotInt8Go(w, c)
			if got := dotInt8(w, c); got != want {
				t.Fatalf("dim %d trial %d: dotInt8 %d, want %d", dim, trial, got, want)
			}
			if n := dim &^ 63; hasAVX512BW && n > 0 {
				if got, want := dotInt8AVX512(&w[0], &c[0], n), dotInt8Go(w[:n], c[:n]); got != want {
					t.Fatalf("dim %d trial %d: dotInt8AVX512 %d, want %d", dim, trial, got, want)
				}
			}
			if n := dim &^ 31; hasAVX2 && n > 0 {
				if got, want := dotInt8AVX2(&w[0], &c[0], n), dotInt8Go(w[:n], c[:n]); got != want {
					t.Fatalf("dim %d trial %d: dotInt8AVX2 %d, want %d", dim, trial, got, want)
				}
			}
		}
	}
	if !hasAVX512BW {
		t.Log("no AVX-512 BW on this CPU: the AVX-512 kernel was not checked")
	}
	if !hasAVX2 {
		t.Log("no AVX2 on this CPU: the AVX2 kernel was not checked")
	}
}

// BenchmarkDotInt8 is the int8 narrowing's inner loop for one code of the
// builtin embedder's 768 dimensions: the Go loop against the kernel.
func BenchmarkDotInt8(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 21))
	const dim = 768
	qm := queryMax(dim)
	w := make([]int16, dim)
	c := make([]int8, dim)
	for j := range w {
		w[j] = int16(rng.IntN(2*qm+1) - qm)
		c[j] = int8(rng.IntN(255) - 127)
	}
	var sink int64
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			sink += dotInt8Go(w, c)
		}
	})
	if hasAVX512BW {
		b.Run("avx512", func(b *testing.B) {
			for b.Loop() {
				sink += dotInt8AVX512(&w[0], &c[0], dim)
			}
		})
	}
	if hasAVX2 {
		b.Run("avx2", func(b *testing.B) {
			for b.Loop() {
				sink += dotInt8AVX2(&w[0], &c[0], dim)
			}
		})
	}
	_ = sink
}
