//go:build !amd64 || purego

package vectors

// subsetBlocks: a Subset keeps its codes in rows here (no AVX2 kernel).
var subsetBlocks = false

// countBlocks is countBlocksGo where there is no AVX2 kernel.
func countBlocks(tables, blocks []byte, w int, out []uint16) {
	countBlocksGo(tables, blocks, w, out)
}

// aboveBlocks is aboveBlocksGo where there is no AVX2 kernel.
func aboveBlocks(q bitQuery, floor float32, heads []uint64, counts []uint16, masks []uint32) {
	aboveBlocksGo(q, floor, heads, counts, masks)
}
