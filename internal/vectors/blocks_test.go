package vectors

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// countBlocks (the AVX2 kernel where there is one) and countBlocksGo give
// every record of the byte-sliced layout the integer weightedPopcountGo
// gives its row: widths 1–68 words (68 the layout's widest, whose sums
// reach 65,280 of the 16-bit lanes' 65,535), 1–300 records (partial last
// blocks, whose zero padding counts 0), dense, sparse, zero and all-ones
// codes and queries; nothing past the blocks' sums is written.
func TestCountBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 2))
	word := func(mode int) uint64 {
		switch mode {
		case 0:
			return rng.Uint64()
		case 1:
			return rng.Uint64() & rng.Uint64() & rng.Uint64()
		case 2:
			return 0
		default:
			return ^uint64(0)
		}
	}
	for _, w := range []int{1, 2, 3, 4, 7, 12, 16, 17, 24, 48, 68} {
		for _, n := range []int{1, 31, 32, 33, 64, 100, 256, 300} {
			for mode := range 4 {
				planes := make([]uint64, 4*w)
				for i := range planes {
					planes[i] = word((mode + i/w) % 4)
				}
				stride := 1 + w
				recs := make([]uint64, n*stride)
				for i := range recs {
					recs[i] = word(mode)
				}
				nb := (n + blockRecs - 1) / blockRecs
				blocks := make([]byte, nb*blockBytes(w))
				heads := make([]uint64, n)
				for j := range n {
					sliceRecord(blocks, heads, j, recs[j*stride:][:stride], w)
				}
				tables := blockTables(planes, w)
				got := make([]uint16, nb*blockRecs+5)
				goRef := make([]uint16, nb*blockRecs)
				for i := range got {
					got[i] = 0xdead
				}
				countBlocks(tables, blocks, w, got[:nb*blockRecs])
				countBlocksGo(tables, blocks, w, goRef)
				for j := range nb * blockRecs {
					want := 0
					if j < n {
						want = weightedPopcountGo(planes, recs[j*stride+1:][:w])
						if heads[j] != recs[j*stride] {
							t.Fatalf("w %d n %d: record %d's header %x, want %x", w, n, j, heads[j], recs[j*stride])
						}
					}
					if int(got[j]) != want || int(goRef[j]) != want {
						t.Fatalf("w %d n %d mode %d: record %d counts %d (Go %d), want %d", w, n, mode, j, got[j], goRef[j], want)
					}
				}
				for _, x := range got[nb*blockRecs:] {
					if x != 0xdead {
						t.Fatalf("w %d n %d: wrote past the blocks' sums", w, n)
					}
				}
			}
		}
	}
	if !subsetBlocks {
		t.Log("the block layout is not this CPU's subset layout (AVX-512 VPOPCNTQ or no AVX2)")
	}
}

// TestBlockWordsMaxExact: blockWordsMax is the widest code whose largest
// sum (every bit set, every weight 15: 960 a word) the 16-bit lanes hold,
// and the layout takes no wider one. At blockWordsMax the all-ones sum
// comes out exact; one word more and it would wrap (countBlocksGo keeps
// the lanes' uint16), so useBlocks must refuse that width.
func TestBlockWordsMaxExact(t *testing.T) {
	defer func(b bool) { subsetBlocks = b }(subsetBlocks)
	subsetBlocks = true
	for _, w := range []int{blockWordsMax, blockWordsMax + 1} {
		planes := make([]uint64, 4*w)
		for i := range planes {
			planes[i] = ^uint64(0)
		}
		rec := make([]uint64, 1+w)
		for i := range rec {
			rec[i] = ^uint64(0)
		}
		blocks := make([]byte, blockBytes(w))
		heads := make([]uint64, blockRecs)
		for j := range blockRecs {
			sliceRecord(blocks, heads, j, rec, w)
		}
		got := make([]uint16, blockRecs)
		countBlocksGo(blockTables(planes, w), blocks, w, got)
		want := weightedPopcountGo(planes, rec[1:])
		if want != 960*w {
			t.Fatalf("w %d: all-ones sum %d, want %d", w, want, 960*w)
		}
		fits := int(got[0]) == want
		if fits != (w <= blockWordsMax) || useBlocks(w) != fits {
			t.Errorf("w %d: sum %d comes out %d (fits %v), useBlocks %v", w, want, got[0], fits, useBlocks(w))
		}
	}
}

// aboveBlocks (the AVX2 kernel where there is one) sets the same bits as
// aboveBlocksGo, which tests each record's bitQuery.estimate against the
// floor: plausible queries and headers, and edge cases — negative, zero,
// −0, subnormal, infinite and NaN factors; counts of ones up to 2^31−1
// (above 2^24 float32 rounds them); the largest sums; queries whose
// products overflow (infinite and NaN estimates); floors equal to a
// record's estimate (the ≤ tie), ±Inf and random; 1–9 blocks, nothing
// written past the masks.
func TestAboveBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	factors := []float32{0, float32(math.Copysign(0, -1)), -0.02, 1e-40, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32}
	ones := []uint32{0, 1, 1 << 24, 1<<24 + 1, 1<<25 + 3, 1<<31 - 1}
	for trial := range 3000 {
		q := bitQuery{lo: -0.2 * rng.Float32(), step: 0.05 * rng.Float32(), qMean: rng.Float32() - 0.5, sum: rng.Float32() - 0.5}
		switch trial % 10 {
		case 7:
			q.lo = -q.lo // a query with no negative coordinate
		case 8:
			q.step = 0
		case 9:
			q.lo, q.step, q.sum = -3e38, 3e38, 1e38 // overflow: ±Inf and NaN estimates
		}
		nb := 1 + rng.IntN(9)
		heads := make([]uint64, nb*blockRecs)
		counts := make([]uint16, nb*blockRecs)
		for j := range heads {
			f := 0.01 + 0.04*rng.Float32()
			o := uint32(480 + rng.IntN(64))
			if trial%3 == 0 && rng.IntN(8) == 0 {
				f = factors[rng.IntN(len(factors))]
			}
			if trial%3 == 1 && rng.IntN(8) == 0 {
				o = ones[rng.IntN(len(ones))]
			}
			heads[j] = uint64(o)<<32 | uint64(math.Float32bits(f))
			counts[j] = uint16(3000 + rng.IntN(2000))
			if trial%5 == 0 {
				counts[j] = uint16(rng.Uint32())
			}
		}
		floor := q.estimate(heads[rng.IntN(len(heads))], int(counts[rng.IntN(len(counts))]))
		switch trial % 7 {
		case 1:
			j := rng.IntN(len(heads))
			floor = q.estimate(heads[j], int(counts[j])) // a tie
		case 2:
			floor = float32(math.Inf(1))
		case 3:
			floor = float32(math.Inf(-1))
		case 4:
			floor = rng.Float32() - 0.5
		}
		want := make([]uint32, nb)
		aboveBlocksGo(q, floor, heads, counts, want)
		got := make([]uint32, nb+2)
		got[nb], got[nb+1] = 0xdeadbeef, 0xdeadbeef
		aboveBlocks(q, floor, heads, counts, got[:nb])
		for b := range nb {
			if got[b] != want[b] {
				d := got[b] ^ want[b]
				j := b*blockRecs + bits.TrailingZeros32(d)
				t.Fatalf("trial %d, block %d: mask %032b, want %032b; record %d (head %x, count %d) estimates %v against floor %v (query %+v)",
					trial, b, got[b], want[b], j, heads[j], counts[j], q.estimate(heads[j], int(counts[j])), floor, q)
			}
		}
		if got[nb] != 0xdeadbeef || got[nb+1] != 0xdeadbeef {
			t.Fatalf("trial %d: wrote past %d masks", trial, nb)
		}
	}
}

// The block scan keeps the same offers with its masks as without when
// headers hold the factors TestAboveBlocks tests one block at a time —
// NaN of either sign, ±Inf, ±0, negative, subnormal — so that the floor
// itself may become NaN, infinite or a tie during a batch, and when the
// last block is partial (its records go through the loop alone).
// TestMaskedScanSameOffers only has the factors BuildCodes writes for
// real vectors.
func TestMaskedScanSpecialFactors(t *testing.T) {
	special := []float32{float32(math.NaN()), math.Float32frombits(0xffc00001), float32(math.Inf(1)), float32(math.Inf(-1)),
		0, float32(math.Copysign(0, -1)), -0.03, 1e-40}
	for trial := range 40 {
		rng := rand.New(rand.NewPCG(30, uint64(trial)))
		n := 32*(1+rng.IntN(40)) + rng.IntN(32)
		sub, est := benchBlockSubset(rng, n)
		share := []int{0, 64, 8, 2}[trial%4] // 1 in share headers special; 0: none
		for j := range sub.heads {
			if share > 0 && rng.IntN(share) == 0 {
				sub.heads[j] = sub.heads[j]&^0xffffffff | uint64(math.Float32bits(special[rng.IntN(len(special))]))
			}
		}
		for _, keep := range []int{1, 3, 40, 500} {
			scan := func(masked bool) *bestSet {
				sub.masked = masked
				top := newBestSet(keep)
				var s Store
				if err := s.scanSubsetBlocks(ctx, sub, est, top); err != nil {
					t.Fatal(err)
				}
				return top
			}
			want, got := scan(false), scan(true)
			if !slices.Equal(got.keys, want.keys) || got.floor != want.floor || got.full != want.full {
				t.Fatalf("trial %d (%d records, 1 in %d special), keep %d: with masks %d keys (floor %x), without %d (floor %x), or others",
					trial, n, share, keep, len(got.keys), got.floor, len(want.keys), want.floor)
			}
		}
	}
}
