package vectors

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// benchBlockSubset is a block-laid-out subset of n random 16-word codes
// (the builtin embedder's 1,024 bits) with plausible headers, and a
// query estimator over random planes: the scale benchmark's anonymous
// scan at 500k without the store around it.
func benchBlockSubset(rng *rand.Rand, n int) (*Subset, *bitEstimator) {
	const w = 16
	sub := &Subset{ords: make([]uint32, n), heads: make([]uint64, n), masked: true,
		blocks: make([]byte, (n+blockRecs-1)/blockRecs*blockBytes(w))}
	rec := make([]uint64, 1+w)
	for j := range n {
		ones := 0
		for k := 1; k <= w; k++ {
			rec[k] = rng.Uint64()
			ones += bits.OnesCount64(rec[k])
		}
		factor := 0.01 + 0.04*rng.Float32()
		rec[0] = uint64(ones)<<32 | uint64(math.Float32bits(factor))
		sub.ords[j] = uint32(2 * j)
		sliceRecord(sub.blocks, sub.heads, j, rec, w)
	}
	est := &bitEstimator{c: &bitCodes{words: w}, packed: make([]uint64, queryBits*w)}
	for i := range est.packed {
		est.packed[i] = rng.Uint64()
	}
	est.bitQuery = bitQuery{lo: -0.08, step: 0.01, qMean: 0.1, sum: 0.3}
	return sub, est
}

// BenchmarkScanBlocks is the block scan of 250,000 records (the
// anonymous caller's half of 500k) into a bestSet of 1,000 (k×overfetch
// of the default search): counting, estimates, offers and selections.
//
//	go test ./internal/vectors -run '^$' -bench ScanBlocks -count 6
func BenchmarkScanBlocks(b *testing.B) {
	if !subsetBlocks {
		b.Skip("no block layout on this CPU")
	}
	sub, est := benchBlockSubset(rand.New(rand.NewPCG(29, 1)), 250_000)
	var s Store
	for b.Loop() {
		if err := s.scanSubsetBlocks(ctx, sub, est, newBestSet(1000)); err != nil {
			b.Fatal(err)
		}
	}
}
