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

// One group of 8 records for aboveBlocks32: their headers at SI (factor
// bits low, count of ones high), their sums at DI; sets bits SHIFT..SHIFT+7
// of DX where the record's estimate is not ≤ the floor (Y14). The two
// VSHUFPS take the factors (even words) and the ones (odd words) of 8
// headers, in the order 0 1 4 5 | 2 3 6 7, which VPERMQ $0xD8 puts back
// as 0-7. Then lo·ones (Y10), step·pop (Y11), their sum, doubled, minus
// sum (Y13), times the factor, plus qMean (Y12), each rounded as
// bitQuery.estimate rounds it; VCMPPS $6 (NLE) is "not score ≤ floor",
// true on NaN as the Go test is.
#define ABOVE8(SHIFT) \
	VMOVDQU (SI), Y0; \
	VMOVDQU 32(SI), Y1; \
	VSHUFPS $0x88, Y1, Y0, Y2; \
	VSHUFPS $0xDD, Y1, Y0, Y3; \
	VPERMQ $0xD8, Y2, Y2; \
	VPERMQ $0xD8, Y3, Y3; \
	VCVTDQ2PS Y3, Y3; \
	VPMOVZXWD (DI), Y4; \
	VCVTDQ2PS Y4, Y4; \
	VMULPS Y10, Y3, Y3; \
	VMULPS Y11, Y4, Y4; \
	VADDPS Y4, Y3, Y3; \
	VADDPS Y3, Y3, Y3; \
	VSUBPS Y13, Y3, Y3; \
	VMULPS Y3, Y2, Y3; \
	VADDPS Y12, Y3, Y3; \
	VCMPPS $6, Y14, Y3, Y3; \
	VMOVMSKPS Y3, BX; \
	SHLL $SHIFT, BX; \
	ORL BX, DX; \
	ADDQ $64, SI; \
	ADDQ $16, DI

// func aboveBlocks32(q *[5]float32, heads *uint64, counts *uint16, nblocks int, masks *uint32)
//
// For each of nblocks blocks of 32 records, masks gets bit r set when
// record r's 1-bit estimate, bitQuery.estimate(heads[r], counts[r]) with
// q = lo, step, qMean, sum, is not ≤ floor (q[4]): the same operations
// in the same order, each rounded to float32, 8 records a register.
// Counts of ones must be below 2^31 (VCVTDQ2PS converts them signed).
TEXT ·aboveBlocks32(SB), NOSPLIT, $0-40
	MOVQ         q+0(FP), AX
	VBROADCASTSS 0(AX), Y10
	VBROADCASTSS 4(AX), Y11
	VBROADCASTSS 8(AX), Y12
	VBROADCASTSS 12(AX), Y13
	VBROADCASTSS 16(AX), Y14
	MOVQ         heads+8(FP), SI
	MOVQ         counts+16(FP), DI
	MOVQ         nblocks+24(FP), CX
	MOVQ         masks+32(FP), R11

mblock:
	XORL DX, DX
	ABOVE8(0)
	ABOVE8(8)
	ABOVE8(16)
	ABOVE8(24)
	MOVL DX, (R11)
	ADDQ $4, R11
	DECQ CX
	JNZ  mblock

	VZEROUPPER
	RET
