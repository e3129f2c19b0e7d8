//go:build !purego

#include "textflag.h"

// func countBlocks32(tables *byte, blocks *byte, words, nblocks int, out *uint16)
//
// For each block of 32 records (byte position k of the 32 codes in the
// 32 bytes at 32k), the sum over the positions k of lo_k[low nibble] +
// hi_k[high nibble] for every record (tables: 32 bytes of lo_k then 32 of
// hi_k a position, each 16-entry table written twice). Two positions an
// iteration: each lookup is ≤ 60, so a record's four lookups are ≤ 240
// and add in a byte. Bytes add into 16-bit lanes two records a lane: Y8
// adds the lane as a word (even record + 256·odd record, modulo 2^16),
// Y9 the odd record alone (its high byte). A record's total is at most
// 8·words·120 (15,360 for 16 words), below 2^16 for words ≤ 68 (the
// caller's bound), so the even record is Y8 - 256·Y9 exactly. The lanes are
// then interleaved back into record order: out gets 32 uint16 a block.
// A block is 4 KiB (32·128 bytes for 16 words), and the hardware
// prefetcher does not cross a page: each pair asks for the line two
// blocks ahead (250,000 codes out of cache: 22–24 ns a code without,
// 13–15 with; docs/log/round-28-p28-scan.md). A prefetch past the
// blocks is a hint and never faults.
TEXT ·countBlocks32(SB), NOSPLIT, $0-40
	MOVQ tables+0(FP), SI
	MOVQ blocks+8(FP), DI
	MOVQ words+16(FP), CX
	SHLQ $2, CX                 // pairs of byte positions a block: 8·words/2
	MOVQ nblocks+24(FP), R10
	MOVQ out+32(FP), R11
	MOVQ $0x0f0f0f0f0f0f0f0f, AX
	MOVQ AX, X15
	VPBROADCASTQ X15, Y15

block:
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	MOVQ  SI, R8
	MOVQ  CX, BX

pair:
	PREFETCHT0 8192(DI)
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VPSRLW  $4, Y0, Y2
	VPSRLW  $4, Y1, Y3
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPAND   Y15, Y2, Y2
	VPAND   Y15, Y3, Y3
	VMOVDQU (R8), Y4
	VMOVDQU 32(R8), Y5
	VMOVDQU 64(R8), Y6
	VMOVDQU 96(R8), Y7
	VPSHUFB Y0, Y4, Y4
	VPSHUFB Y2, Y5, Y5
	VPSHUFB Y1, Y6, Y6
	VPSHUFB Y3, Y7, Y7
	VPADDB  Y5, Y4, Y4
	VPADDB  Y7, Y6, Y6
	VPADDB  Y6, Y4, Y4
	VPADDW  Y4, Y8, Y8
	VPSRLW  $8, Y4, Y4
	VPADDW  Y4, Y9, Y9
	ADDQ    $64, DI
	ADDQ    $128, R8
	DECQ    BX
	JNZ     pair

	VPSLLW     $8, Y9, Y4
	VPSUBW     Y4, Y8, Y8
	VPUNPCKLWD Y9, Y8, Y0       // records 0-7 | 16-23
	VPUNPCKHWD Y9, Y8, Y1       // records 8-15 | 24-31
	VPERM2I128 $0x20, Y1, Y0, Y2
	VPERM2I128 $0x31, Y1, Y0, Y3
	VMOVDQU    Y2, (R11)
	VMOVDQU    Y3, 32(R11)
	ADDQ       $64, R11
	DECQ       R10
	JNZ        block

	VZEROUPPER
	RET
