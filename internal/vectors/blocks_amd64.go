//go:build !purego

package vectors

// countBlocks32 is countBlocksGo in AVX2 for nblocks ≥ 1 blocks of codes
// of words ≥ 1 words: out gets 32 sums a block, in record order.
//
//go:noescape
func countBlocks32(tables *byte, blocks *byte, words, nblocks int, out *uint16)

// subsetBlocks is whether NewSubset lays its codes out in blocks (the
// AVX2 lookup kernel, countBlocks32) rather than in rows: on a CPU with
// AVX2 but without AVX-512 VPOPCNTQ, whose row kernel is scalar POPCNT.
// A CPU with AVX-512 VPOPCNTQ keeps the rows and their AVX-512 kernels
// (the byte-sliced kernel was not measured there). Tests switch it to
// check both layouts.
var subsetBlocks = hasAVX2 && !hasAVX512POPCNT

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
