//go:build !purego

#include "textflag.h"

// PREFETCH asks for the cache lines 2 KiB past the code: a scan visits
// ordinals in increasing order, so the records about 15 codes ahead are
// likely next, and a scan is bound by memory latency, not by the counting
// (a caller who sees half of 500k chunks: vector leg p50 29–37 ms without,
// 13–21 ms with, alternating rounds in one process). A prefetch past the
// mapping is a hint and never faults.
#define PREFETCH \
	PREFETCHT0 2048(DI) \
	PREFETCHT0 2112(DI) \
	PREFETCHT0 2176(DI)

// ARGS(code) loads the kernels' arguments: SI, R12, R13 and DX point at
// planes 0 to 3, DI at the code (the argument named code, rec or recs:
// asmdecl reads no macro, so each function names its own), CX is the word
// count and BX the word index (0).
#define ARGS(code) \
	MOVQ planes+0(FP), SI \
	MOVQ code+8(FP), DI \
	MOVQ words+16(FP), CX \
	MOVQ CX, DX \
	SHLQ $3, DX \
	LEAQ (SI)(DX*1), R12 \
	LEAQ (R12)(DX*1), R13 \
	LEAQ (R13)(DX*1), DX \
	XORQ BX, BX

// PLANEWORD(p, acc) adds popcount(plane p's word BX & AX) to acc; uses R9.
#define PLANEWORD(p, acc) \
	MOVQ    (p)(BX*8), R9 \
	ANDQ    AX, R9 \
	POPCNTQ R9, R9 \
	ADDQ    R9, acc

// COUNT4 leaves in R8 the weighted count of the code at DI over the planes
// at SI, R12, R13 and DX, words+16(FP) words (≥ 1): one accumulator a
// plane (R8, R10, R11, CX; plain adds, no chain through a scaled LEA),
// weighted once at the end. Uses AX, BX, R9. The loop's label is local to
// the function that uses the macro.
#define COUNT4 \
	XORQ R8, R8 \
	XORQ R10, R10 \
	XORQ R11, R11 \
	XORQ CX, CX \
	XORQ BX, BX \
wordp: \
	MOVQ (DI)(BX*8), AX \
	PLANEWORD(SI, R8) \
	PLANEWORD(R12, R10) \
	PLANEWORD(R13, R11) \
	PLANEWORD(DX, CX) \
	INCQ BX \
	CMPQ BX, words+16(FP) \
	JLT  wordp \
	LEAQ (R8)(R10*2), R8 \
	LEAQ (R8)(R11*4), R8 \
	LEAQ (R8)(CX*8), R8

// func andPopcount4(planes *uint64, rec *uint64, words int) int
//
// Σ_k popcount(p0[k]&rec[k]) + 2·popcount(p1[k]&rec[k]) +
// 4·popcount(p2[k]&rec[k]) + 8·popcount(p3[k]&rec[k]), where plane p is
// planes[p*words : (p+1)*words]. Needs POPCNT; words ≥ 1.
TEXT ·andPopcount4(SB), NOSPLIT, $0-32
	ARGS(rec)
	PREFETCH
	COUNT4
	MOVQ R8, ret+24(FP)
	RET

// WEIGHTEDZ leaves in X0's low quadword the weighted count of the code at
// DI over the planes at SI, R12, R13 and DX, CX words (a positive multiple
// of 8), eight words at a time; it uses BX, Z0-Z5. The loop's label is
// local to the function that uses the macro.
#define WEIGHTEDZ \
	VPXORQ Z0, Z0, Z0 \
	XORQ   BX, BX \
loopz: \
	VMOVDQU64 (DI)(BX*8), Z1 \
	VPANDQ    (SI)(BX*8), Z1, Z2 \
	VPOPCNTQ  Z2, Z2 \
	VPADDQ    Z2, Z0, Z0 \
	VPANDQ    (R12)(BX*8), Z1, Z3 \
	VPOPCNTQ  Z3, Z3 \
	VPSLLQ    $1, Z3, Z3 \
	VPADDQ    Z3, Z0, Z0 \
	VPANDQ    (R13)(BX*8), Z1, Z4 \
	VPOPCNTQ  Z4, Z4 \
	VPSLLQ    $2, Z4, Z4 \
	VPADDQ    Z4, Z0, Z0 \
	VPANDQ    (DX)(BX*8), Z1, Z5 \
	VPOPCNTQ  Z5, Z5 \
	VPSLLQ    $3, Z5, Z5 \
	VPADDQ    Z5, Z0, Z0 \
	ADDQ      $8, BX \
	CMPQ      BX, CX \
	JLT       loopz \
	VEXTRACTI64X4 $1, Z0, Y1 \
	VPADDQ        Y1, Y0, Y0 \
	VEXTRACTI128  $1, Y0, X1 \
	VPADDQ        X1, X0, X0 \
	VPSHUFD       $0x4e, X0, X1 \
	VPADDQ        X1, X0, X0

// func andPopcount4AVX512(planes *uint64, rec *uint64, words int) int
//
// andPopcount4 eight words at a time with AVX-512 VPOPCNTQ; words must be
// a positive multiple of 8.
TEXT ·andPopcount4AVX512(SB), NOSPLIT, $0-32
	ARGS(rec)
	PREFETCH
	WEIGHTEDZ
	VMOVQ X0, AX
	VZEROUPPER
	MOVQ  AX, ret+24(FP)
	RET

// func andPopcount4AVX512Many(planes *uint64, recs *uint64, words, n int, out *int64)
//
// andPopcount4AVX512 of n records laid out back to back, each a header
// word followed by its words code words (recs points at the first
// record's header): out[i] is record i's sum. One call for a batch
// instead of one a record; the same integers. words must be a positive
// multiple of 8, n ≥ 1.
TEXT ·andPopcount4AVX512Many(SB), NOSPLIT, $0-40
	MOVQ planes+0(FP), SI
	MOVQ recs+8(FP), DI
	MOVQ words+16(FP), CX
	MOVQ n+24(FP), R10
	MOVQ out+32(FP), R11
	MOVQ CX, DX
	SHLQ $3, DX
	LEAQ (SI)(DX*1), R12
	LEAQ (R12)(DX*1), R13
	LEAQ 8(DX), R9        // a record's bytes: header and code
	LEAQ (R13)(DX*1), DX
	ADDQ $8, DI           // the first record's code

recm:
	PREFETCH
	WEIGHTEDZ
	VMOVQ X0, (R11)
	ADDQ  $8, R11
	ADDQ  R9, DI
	DECQ  R10
	JNZ   recm

	VZEROUPPER
	RET

// PLANE(ra, rb, pa, pb, t, u, out) leaves in out, quadword by quadword,
// popcount(pa&ra) + popcount(pb&rb): one plane's count over both halves
// (words 0-7 in ra, 8-15 in rb) of a 16-word code.
#define PLANE(ra, rb, pa, pb, t, u, out) \
	VPANDQ   pa, ra, t \
	VPANDQ   pb, rb, u \
	VPOPCNTQ t, t \
	VPOPCNTQ u, u \
	VPADDQ   u, t, out

// REC16(base, acc) leaves in acc's quadwords the weighted count of the
// record whose header is at base(DI): its 16 code words against the
// planes in Z16-Z23 (plane p's halves in Z16+2p and Z17+2p), each plane's
// two halves added before its weight is applied once. Uses Z8-Z14.
#define REC16(base, acc) \
	VMOVDQU64 base+8(DI), Z8 \
	VMOVDQU64 base+72(DI), Z9 \
	PLANE(Z8, Z9, Z16, Z17, Z10, Z11, acc) \
	PLANE(Z8, Z9, Z18, Z19, Z10, Z11, Z12) \
	PLANE(Z8, Z9, Z20, Z21, Z10, Z11, Z13) \
	PLANE(Z8, Z9, Z22, Z23, Z10, Z11, Z14) \
	VPSLLQ $1, Z12, Z12 \
	VPSLLQ $2, Z13, Z13 \
	VPSLLQ $3, Z14, Z14 \
	VPADDQ Z12, acc, acc \
	VPADDQ Z14, Z13, Z13 \
	VPADDQ Z13, acc, acc

// func weightedPopcounts16x4(planes *uint64, recs *uint64, n int, out *int64)
//
// andPopcount4AVX512Many for codes of 16 words (the builtin embedder's
// 1,024 rotated bits), four records at a time, the same integers with
// fewer vector instructions a record: the planes stay in Z16-Z23 instead
// of being read again for every record, each plane's weight is applied
// once to the sum of its two halves, and the four records' sums are
// reduced together: each quadword of a record's vector is at most
// 128·15 and its whole sum at most 1,024·15 = 15,360 < 2^16, so the four
// vectors are packed 16 bits apart into one (no field carries into the
// next) and one horizontal reduction yields the four sums. n must be a
// positive multiple of 4; a record is a header and 16 words (136 bytes),
// recs points at the first header.
TEXT ·weightedPopcounts16x4(SB), NOSPLIT, $0-32
	MOVQ planes+0(FP), SI
	MOVQ recs+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ out+24(FP), R11
	VMOVDQU64 0(SI), Z16
	VMOVDQU64 64(SI), Z17
	VMOVDQU64 128(SI), Z18
	VMOVDQU64 192(SI), Z19
	VMOVDQU64 256(SI), Z20
	VMOVDQU64 320(SI), Z21
	VMOVDQU64 384(SI), Z22
	VMOVDQU64 448(SI), Z23

rec4:
	PREFETCHT0 2048(DI)
	PREFETCHT0 2112(DI)
	PREFETCHT0 2176(DI)
	PREFETCHT0 2240(DI)
	PREFETCHT0 2304(DI)
	PREFETCHT0 2368(DI)
	PREFETCHT0 2432(DI)
	PREFETCHT0 2496(DI)
	PREFETCHT0 2560(DI)
	REC16(0, Z0)
	REC16(136, Z1)
	REC16(272, Z2)
	REC16(408, Z3)
	VPSLLQ  $16, Z1, Z1
	VPSLLQ  $32, Z2, Z2
	VPSLLQ  $48, Z3, Z3
	VPADDQ  Z1, Z0, Z0
	VPADDQ  Z3, Z2, Z2
	VPADDQ  Z2, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDQ        Y1, Y0, Y0
	VEXTRACTI128  $1, Y0, X1
	VPADDQ        X1, X0, X0
	VPSHUFD       $0x4e, X0, X1
	VPADDQ        X1, X0, X0
	VMOVQ         X0, AX
	MOVWQZX AX, BX
	MOVQ    BX, 0(R11)
	SHRQ    $16, AX
	MOVWQZX AX, BX
	MOVQ    BX, 8(R11)
	SHRQ    $16, AX
	MOVWQZX AX, BX
	MOVQ    BX, 16(R11)
	SHRQ    $16, AX
	MOVQ    AX, 24(R11)
	ADDQ    $32, R11
	ADDQ    $544, DI
	SUBQ    $4, CX
	JNZ     rec4

	VZEROUPPER
	RET

// func andPopcount4Many(planes *uint64, recs *uint64, words, n int, out *int64)
//
// andPopcount4 of n records laid out back to back, each a header word
// followed by its words code words (recs points at the first record's
// header): out[i] is record i's sum. The batch kernel of a CPU without
// AVX-512 VPOPCNTQ (POPCNT only): one call a batch instead of a Go call,
// bounds checks and slicing a record; the same integers. words ≥ 1,
// n ≥ 1. n and out are kept in their argument slots.
TEXT ·andPopcount4Many(SB), NOSPLIT, $0-40
	ARGS(recs)
	ADDQ $8, DI           // the first record's code

recp:
	PREFETCH
	COUNT4
	MOVQ out+32(FP), R11
	MOVQ R8, (R11)
	ADDQ $8, R11
	MOVQ R11, out+32(FP)
	LEAQ 8(DI)(BX*8), DI  // the next record's code (BX = words)
	DECQ n+24(FP)
	JNZ  recp
	RET
