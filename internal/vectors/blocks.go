package vectors

// The subset scan's byte-sliced layout (round 28, p28-scan). On a CPU
// without AVX-512 VPOPCNTQ the row layout's counting is compute-bound
// (scalar POPCNT, 64 of them a 1,024-bit code: ~35 ns a code whether the
// codes sit in cache or not; docs/log/round-28-p28-scan.md). In blocks of
// blockRecs records, byte k of every record's code sits beside byte k of
// the other 31, so one 256-bit register holds byte k of 32 codes. The
// weighted count Σ_{bit j set} u[j] splits by byte and nibble: byte k
// adds lo_k[its low nibble] + hi_k[its high nibble], where lo_k[v] is
// Σ_{bit t of v} u[8k+t] and hi_k[v] is Σ_{bit t of v} u[8k+4+t] (u[j]
// ≤ 15, so an entry is at most 60 and fits a byte). Per query the 2·8w
// tables of 16 bytes are built once (blockTables); the AVX2 kernel looks
// up 32 records' nibbles in one VPSHUFB. Each lookup is the exact sum of
// those bits' weights, so a record's total is the same integer the
// plane popcounts give, and the scan offers the same scores.

// blockRecs is how many records a block holds side by side.
const blockRecs = 32

// blockBytes is the size of one block of codes of w words.
func blockBytes(w int) int { return blockRecs * 8 * w }

// sliceRecord puts record j (a header word and w code words) into its
// block of blocks, byte k of its code at 32k + j%32, and its header into
// heads[j].
func sliceRecord(blocks []byte, heads []uint64, j int, rec []uint64, w int) {
	heads[j] = rec[0]
	bb := blockBytes(w)
	blk := blocks[(j/blockRecs)*bb:][:bb]
	r := j % blockRecs
	for k, x := range rec[1 : 1+w] {
		for t := range 8 {
			blk[(8*k+t)*blockRecs+r] = byte(x >> (8 * t))
		}
	}
}

// blockTables is the query's lookup tables for a block scan of codes of
// w words: for byte position k, 32 bytes of lo_k then 32 of hi_k, each
// table of 16 entries written twice (VPSHUFB looks up within each
// 128-bit half). planes are the query's 4 bit planes of w words (bit p
// of u[j] is bit j of plane p).
func blockTables(planes []uint64, w int) []byte {
	tables := make([]byte, 8*w*4*16)
	var u [8]byte
	for k := range 8 * w {
		for t := range 8 {
			j := 8*k + t
			u[t] = 0
			for p := range queryBits {
				u[t] |= byte(planes[p*w+j/64]>>(j%64)&1) << p
			}
		}
		tab := tables[k*64:][:64]
		for v := range 16 {
			var lo, hi byte
			for t := range 4 {
				if v>>t&1 == 1 {
					lo += u[t]
					hi += u[4+t]
				}
			}
			tab[v], tab[16+v] = lo, lo
			tab[32+v], tab[48+v] = hi, hi
		}
	}
	return tables
}

// countBlocksGo sets out[32b+r] to the weighted count of record r of
// block b, for the len(out)/32 blocks at the start of blocks (codes of w
// words): countBlocks in Go, for a CPU without AVX2 and to check the
// kernel.
func countBlocksGo(tables, blocks []byte, w int, out []uint16) {
	bb := blockBytes(w)
	for b := range len(out) / blockRecs {
		blk := blocks[b*bb:][:bb]
		for r := range blockRecs {
			s := 0
			for k := range 8 * w {
				x := blk[k*blockRecs+r]
				s += int(tables[k*64+int(x&15)]) + int(tables[k*64+32+int(x>>4)])
			}
			out[b*blockRecs+r] = uint16(s)
		}
	}
}

// aboveBlocksGo sets bit r of masks[b] when the estimate of record
// 32b+r, q.estimate(heads[32b+r], counts[32b+r]), is not ≤ floor (a NaN
// estimate sets it), for the len(masks) blocks at the start of heads and
// counts: the records the block scan's loop would offer against that
// floor. aboveBlocks in Go, and to check it.
func aboveBlocksGo(q bitQuery, floor float32, heads []uint64, counts []uint16, masks []uint32) {
	for b := range masks {
		var m uint32
		for r := range blockRecs {
			j := b*blockRecs + r
			if !(q.estimate(heads[j], int(counts[j])) <= floor) {
				m |= 1 << r
			}
		}
		masks[b] = m
	}
}
