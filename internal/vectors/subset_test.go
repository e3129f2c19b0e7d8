package vectors

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
)

// A search over a Subset returns what the search over its bitmap
// returns, hit for hit and score for score, for every type, and the
// subset's scan keeps the same heap as scanBits (ties included: many
// duplicated vectors have equal estimates).
func TestSubsetSearchEqualsBitmapSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	const dim = 256
	vecs := randomVectors(rng, 9000, dim)
	for i := 0; i < 3000; i++ {
		vecs = append(vecs, vecs[rng.IntN(len(vecs))])
	}
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	full := roaring.New()
	full.AddRange(0, uint64(len(vecs)))
	defer func(b bool) { subsetBlocks = b }(subsetBlocks)
	for _, c := range []struct {
		share  float64
		blocks bool // the byte-sliced layout (blocks.go) or rows
	}{{1, false}, {0.5, false}, {0.02, false}, {1, true}, {0.5, true}, {0.02, true}} {
		share := c.share
		subsetBlocks = c.blocks
		allowed := full
		if share < 1 {
			allowed = randomSubset(rng, len(vecs), share)
		}
		sub, err := s.NewSubset(allowed)
		if err != nil {
			t.Fatal(err)
		}
		n := sub.Len()
		size := n * (4 + 8*(1+s.bits.words))
		if c.blocks {
			size = 12*n + (n+31)/32*32*8*s.bits.words
		}
		if n != int(allowed.GetCardinality()) || sub.Bytes() != size || s.SubsetBytes(n) != size || (sub.blocks != nil) != c.blocks {
			t.Fatalf("share %v blocks %v: subset of %d ordinals holds %d in %d bytes (SubsetBytes %d)", share, c.blocks, allowed.GetCardinality(), n, sub.Bytes(), s.SubsetBytes(n))
		}
		for qi, q := range randomVectors(rng, 8, dim) {
			for _, keep := range []int{1, 200, 2000} {
				want := closureScan(t, s, q, allowed, keep)
				got := newBestSet(keep)
				if err := s.scanSubset(ctx, sub, s.bits.estimator(q), got); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(sortedOrds(got.ords()), heapOrds(want)) {
					t.Fatalf("query %d share %v blocks %v keep %d: the subset's scan kept other ordinals than the closure scan", qi, share, c.blocks, keep)
				}
			}
			for _, typ := range []Type{Bit, Int8, Float32} {
				for _, k := range []int{1, 10, 100} {
					want, err := s.Search(ctx, q, allowed, k, typ, 20)
					if err != nil {
						t.Fatal(err)
					}
					got, err := s.SearchSubset(ctx, q, sub, k, typ, 20)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) || len(got) != min(k, sub.Len()) {
						t.Fatalf("query %d share %v %s k %d: the subset search returned %d hits, the bitmap search %d, or others", qi, share, typ, k, len(got), len(want))
					}
					for _, h := range got {
						if !allowed.Contains(h.Ordinal) {
							t.Fatalf("query %d share %v %s: hit %d is outside the subset", qi, share, typ, h.Ordinal)
						}
					}
				}
			}
		}
	}
}

// Bad input is an error naming what is wrong, never a panic; a cancelled
// search over a subset stops.
func TestSubsetErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(83, 84))
	vecs := randomVectors(rng, 300, 64)
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	other := openWithCodes(t, vecs, defaultInt8Scaling)
	if _, err := s.NewSubset(nil); !errs.Is(errs.Invalid, err) {
		t.Errorf("nil bitmap: %v", err)
	}
	if _, err := s.NewSubset(roaring.BitmapOf(1, 300)); !errs.Is(errs.Invalid, err) {
		t.Errorf("ordinal past the store: %v", err)
	}
	sub, err := other.NewSubset(roaring.BitmapOf(1, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SearchSubset(ctx, vecs[0], sub, 1, Bit, 2); !errs.Is(errs.Invalid, err) {
		t.Errorf("another store's subset: %v", err)
	}
	if _, err := s.SearchSubset(ctx, vecs[0], nil, 1, Bit, 2); !errs.Is(errs.Invalid, err) {
		t.Errorf("nil subset: %v", err)
	}
	big := randomSubset(rng, len(vecs), 1)
	own, err := s.NewSubset(big)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.SearchSubset(cctx, vecs[0], own, 1, Bit, 2); !errs.Is(errs.Timeout, err) {
		t.Errorf("cancelled: %v", err)
	}
	plain, err := Open(writeVectors(t, t.TempDir(), vecs), 64)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := plain.NewSubset(roaring.BitmapOf(1)); !errs.Is(errs.Unsupported, err) {
		t.Errorf("no bit codes: %v", err)
	}
}

// BenchmarkScanSubset is BenchmarkScanBits's half-visible scan, through
// the bitmap and over a Subset of the same ordinals (the latter with each
// counting kernel):
//
//	go test ./internal/vectors -run '^$' -bench ScanSubset -benchtime 100x
func BenchmarkScanSubset(b *testing.B) {
	rng := rand.New(rand.NewPCG(73, 74))
	const n, dim, keep = 200_000, 768, 2000
	s := openWithCodes(b, randomVectors(rng, n, dim), defaultInt8Scaling)
	queries := randomVectors(rng, 50, dim)
	for _, share := range []float64{0.5, 0.02} {
		allowed := randomSubset(rng, n, share)
		sub, err := s.NewSubset(allowed)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range []struct {
			contiguous, four bool
		}{{false, true}, {true, false}, {true, true}} {
			contiguous := v.contiguous
			name := fmt.Sprintf("share=%v/subset=%v", share, contiguous)
			if contiguous {
				// the counting kernel: one record at a time or four
				// (weightedPopcounts16x4, on amd64 with AVX-512)
				name += fmt.Sprintf("/four=%v", v.four)
			}
			b.Run(name, func(b *testing.B) {
				scan16x4 = v.four
				defer func() { scan16x4 = true }()
				for i := 0; i < b.N; i++ {
					q := queries[i%len(queries)]
					var err error
					if contiguous {
						err = s.scanSubset(ctx, sub, s.bits.estimator(q), newBestSet(keep))
					} else {
						err = s.scanBits(ctx, allowed, s.bits.estimator(q), newBestSet(keep))
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
