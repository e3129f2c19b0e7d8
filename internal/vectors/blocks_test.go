package vectors

import (
	"math/rand/v2"
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
