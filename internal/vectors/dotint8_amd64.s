//go:build !purego

#include "textflag.h"

// func dotInt8AVX512(w *int16, c *int8, n int) int64
//
// Σ_{j<n} w[j]·c[j], n a positive multiple of 64: two int32 accumulators
// of 16 lanes, each lane adding two products an instruction, summed as
// int64 at the end. Needs AVX-512 F and BW.
TEXT ·dotInt8AVX512(SB), NOSPLIT, $0-32
	MOVQ   w+0(FP), SI
	MOVQ   c+8(FP), DI
	MOVQ   n+16(FP), CX
	XORQ   BX, BX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1

loop:
	VPMOVSXBW (DI)(BX*1), Z2
	VPMADDWD  (SI)(BX*2), Z2, Z2
	VPADDD    Z2, Z0, Z0
	VPMOVSXBW 32(DI)(BX*1), Z3
	VPMADDWD  64(SI)(BX*2), Z3, Z3
	VPADDD    Z3, Z1, Z1
	ADDQ      $64, BX
	CMPQ      BX, CX
	JLT       loop

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
// (dim/16 products a lane in all, under queryMax's dim/4+8), summed as
// int64 at the end. Needs AVX2.
TEXT ·dotInt8AVX2(SB), NOSPLIT, $0-32
	MOVQ  w+0(FP), SI
	MOVQ  c+8(FP), DI
	MOVQ  n+16(FP), CX
	XORQ  BX, BX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

loop2:
	VPMOVSXBW (DI)(BX*1), Y2
	VPMADDWD  (SI)(BX*2), Y2, Y2
	VPADDD    Y2, Y0, Y0
	VPMOVSXBW 16(DI)(BX*1), Y3
	VPMADDWD  32(SI)(BX*2), Y3, Y3
	VPADDD    Y3, Y1, Y1
	ADDQ      $32, BX
	CMPQ      BX, CX
	JLT       loop2

	// Widen the 16 int32 lanes to int64 and add them up.
	VEXTRACTI128 $1, Y0, X2
	VPMOVSXDQ    X0, Y4
	VPMOVSXDQ    X2, Y5
	VPADDQ       Y5, Y4, Y4
	VEXTRACTI128 $1, Y1, X3
	VPMOVSXDQ    X1, Y5
	VPADDQ       Y5, Y4, Y4
	VPMOVSXDQ    X3, Y5
	VPADDQ       Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPADDQ       X5, X4, X4
	VPSHUFD      $0x4e, X4, X5
	VPADDQ       X5, X4, X4
	VMOVQ        X4, AX
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
