//go:build !purego

#include "textflag.h"

// DOTLOOP adds Σ_{j<CX} w[j]·c[j] (w at SI, c at DI) into two int32
// accumulators acc0 and acc1 (t0 and t1 scratch, of the same width):
// each step sign-extends twice half codes to int16 and multiplies them by
// VPMADDWD, each lane adding two products an instruction; wstep is 2·half
// (the weights' bytes). The loop's label is local to the function.
#define DOTLOOP(acc0, acc1, t0, t1, half, wstep) \
	MOVQ w+0(FP), SI \
	MOVQ c+8(FP), DI \
	MOVQ n+16(FP), CX \
	XORQ BX, BX \
dotloop: \
	VPMOVSXBW (DI)(BX*1), t0 \
	VPMADDWD  (SI)(BX*2), t0, t0 \
	VPADDD    t0, acc0, acc0 \
	VPMOVSXBW half(DI)(BX*1), t1 \
	VPMADDWD  wstep(SI)(BX*2), t1, t1 \
	VPADDD    t1, acc1, acc1 \
	ADDQ      $(2*half), BX \
	CMPQ      BX, CX \
	JLT       dotloop

// func dotInt8AVX512(w *int16, c *int8, n int) int64
//
// Σ_{j<n} w[j]·c[j], n a positive multiple of 64: two int32 accumulators
// of 16 lanes, each lane adding two products an instruction, summed as
// int64 at the end. Needs AVX-512 F and BW.
TEXT ·dotInt8AVX512(SB), NOSPLIT, $0-32
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	DOTLOOP(Z0, Z1, Z2, Z3, 32, 64)

	// Widen the 32 int32 lanes to int64 and add them up.
	VEXTRACTI64X4 $1, Z0, Y2
	VPMOVSXDQ     Y0, Z4
	VPMOVSXDQ     Y2, Z5
	VPADDQ        Z5, Z4, Z4
	VEXTRACTI64X4 $1, Z1, Y3
	VPMOVSXDQ     Y1, Z5
	VPADDQ        Z5, Z4, Z4
	VPMOVSXDQ     Y3, Z5
	VPADDQ        Z5, Z4, Z4
	VEXTRACTI64X4 $1, Z4, Y5
	VPADDQ        Y5, Y4, Y4
	VEXTRACTI128  $1, Y4, X5
	VPADDQ        X5, X4, X4
	VPSHUFD       $0x4e, X4, X5
	VPADDQ        X5, X4, X4
	VMOVQ         X4, AX
	VZEROUPPER
	MOVQ          AX, ret+24(FP)
	RET

// func dotInt8AVX2(w *int16, c *int8, n int) int64
//
// dotInt8AVX512 with 256-bit AVX2 registers, for CPUs without AVX-512
// BW: Σ_{j<n} w[j]·c[j], n a positive multiple of 32, two int32
// accumulators of 8 lanes, each lane adding two products an instruction
// (n/16 products a lane). The two are added as int32 (n/8 products a
// lane, under queryMax's bound of n/4+8), then the 8 lanes are widened to
// int64 and summed. Needs AVX2.
TEXT ·dotInt8AVX2(SB), NOSPLIT, $0-32
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	DOTLOOP(Y0, Y1, Y2, Y3, 16, 32)
	VPADDD       Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPMOVSXDQ    X0, Y2
	VPMOVSXDQ    X1, Y3
	VPADDQ       Y3, Y2, Y2
	VEXTRACTI128 $1, Y2, X3
	VPADDQ       X3, X2, X2
	VPSHUFD      $0x4e, X2, X3
	VPADDQ       X3, X2, X2
	VMOVQ        X2, AX
	VZEROUPPER
	MOVQ         AX, ret+24(FP)
	RET

// func prefetchLines(p *byte, n int)
//
// PREFETCHT0 of every cache line of p[:n], n ≥ 1.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
	ANDQ $-64, AX // from the line holding p[0]

pf:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JLT        pf
	RET
