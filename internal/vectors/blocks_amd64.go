//go:build !purego

package vectors

// countBlocks32 is countBlocksGo in AVX2 for nblocks ≥ 1 blocks of codes
// of words ≥ 1 words: out gets 32 sums a block, in record order.
//
//go:noescape
func countBlocks32(tables *byte, blocks *byte, words, nblocks int, out *uint16)

// subsetBlocks is whether NewSubset lays its codes out in blocks (the
// AVX2 lookup kernel, countBlocks32) rather than in rows: on every CPU
// with AVX2. Without AVX-512 VPOPCNTQ the row kernel is scalar POPCNT
// (round 28). With it (an Intel Xeon with AVX-512 VPOPCNTDQ, round 30)
// the blocks count the anonymous caller's 250k real codes at 500k about
// as fast as the rows' AVX-512 kernel (2.08 against 2.19 ms a scan), and
// their masks (aboveBlocks) take the per-record loop's estimates out of
// most of the scan: 1.68 against 2.19 ms (docs/log/round-30-p30-vec.md).
// Tests switch it to check both layouts.
var subsetBlocks = hasAVX2

// countBlocks sets out[32b+r] to the weighted count of record r of block
// b, for the len(out)/32 blocks at the start of blocks (codes of w
// words).
func countBlocks(tables, blocks []byte, w int, out []uint16) {
	nb := len(out) / blockRecs
	if nb == 0 || w == 0 {
		return
	}
	_ = blocks[nb*blockBytes(w)-1]
	_ = tables[8*w*64-1]
	if !hasAVX2 {
		countBlocksGo(tables, blocks, w, out)
		return
	}
	countBlocks32(&tables[0], &blocks[0], w, nb, &out[0])
}

// aboveBlocks32 is aboveBlocksGo in AVX2 for nblocks ≥ 1 blocks: q is
// the query's lo, step, qMean and sum, then the floor.
//
//go:noescape
func aboveBlocks32(q *[5]float32, heads *uint64, counts *uint16, nblocks int, masks *uint32)

// aboveBlocks sets masks[b] as aboveBlocksGo does, for the len(masks)
// blocks of 32 records at the start of heads and counts; every count of
// ones in heads must be below 2^31 (Subset.masked).
func aboveBlocks(q bitQuery, floor float32, heads []uint64, counts []uint16, masks []uint32) {
	nb := len(masks)
	if nb == 0 {
		return
	}
	_ = heads[nb*blockRecs-1]
	_ = counts[nb*blockRecs-1]
	if !hasAVX2 {
		aboveBlocksGo(q, floor, heads, counts, masks)
		return
	}
	p := [5]float32{q.lo, q.step, q.qMean, q.sum, floor}
	aboveBlocks32(&p, &heads[0], &counts[0], nb, &masks[0])
}
