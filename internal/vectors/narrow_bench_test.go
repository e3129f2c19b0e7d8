package vectors

import (
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkNarrowInt8 is a Bit search's int8 narrowing at k = 100: 2,000
// random candidates of 200k vectors of 768 dimensions scored by their int8
// codes, the best 300 kept. "resident": the records in the page cache and
// mapped into the process (after the first run); "evicted": before each
// narrowing the mapping's pages are dropped from the process
// (MADV_DONTNEED; they stay in the page cache), so each candidate's
// record is a minor fault, as for a process whose mapping the kernel
// reclaims under other work.
func BenchmarkNarrowInt8(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 22))
	const n, dim, cands = 200_000, 768, 2000
	s := openWithCodes(b, randomVectors(rng, n, dim), defaultInt8Scaling)
	q := randomVectors(rng, 1, dim)[0]
	ords := make([]uint32, cands)
	for i := range ords {
		ords[i] = uint32(rng.IntN(n))
	}
	ords = slices.Compact(slices.Sorted(slices.Values(ords)))
	rng.Shuffle(len(ords), func(i, j int) { ords[i], ords[j] = ords[j], ords[i] })
	in := make([]uint32, len(ords))
	b.Run("resident", func(b *testing.B) {
		for b.Loop() {
			copy(in, ords)
			_ = s.narrowInt8(q, in, 100*Int8Narrow)
		}
	})
	b.Run("evicted", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			_ = unix.Madvise(s.i8.m, unix.MADV_DONTNEED)
			copy(in, ords)
			b.StartTimer()
			_ = s.narrowInt8(q, in, 100*Int8Narrow)
		}
	})
}
