package vectors

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// closureScan is the 1-bit scan as it was before scanBits: a visitor
// call, the estimator's score and an offer for every allowed vector.
func closureScan(t testing.TB, s *Store, q []float32, allowed *roaring.Bitmap, keep int) *topK {
	est := s.bits.estimator(q)
	top := newTopK(keep)
	if err := s.scan(ctx, allowed, func(i uint32) { top.offer(i, est.score(i)) }); err != nil {
		t.Fatal(err)
	}
	return top
}

// heapOrds is the ordinals a topK kept, in increasing order.
func heapOrds(top *topK) []uint32 {
	out := make([]uint32, len(top.items))
	for j, x := range top.items {
		out[j] = x.i
	}
	return sortedOrds(out)
}

func sortedOrds(ords []uint32) []uint32 {
	slices.Sort(ords)
	return ords
}

// scanBits keeps exactly what the closure scan (a topK heap) keeps — the
// same ordinals — for every caller, including ties (many equal estimates
// among duplicated vectors).
func TestScanBitsEqualsTheClosureScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	const dim = 256
	vecs := randomVectors(rng, 9000, dim)
	for i := 0; i < 3000; i++ {
		vecs = append(vecs, vecs[rng.IntN(len(vecs))]) // duplicates: equal estimates
	}
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	for qi, q := range randomVectors(rng, 10, dim) {
		for _, share := range []float64{1, 0.5, 0.02} {
			var allowed *roaring.Bitmap
			if share < 1 {
				allowed = randomSubset(rng, len(vecs), share)
			}
			for _, keep := range []int{1, 200, 2000} {
				want := closureScan(t, s, q, allowed, keep)
				got := newBestSet(keep)
				if err := s.scanBits(ctx, allowed, s.bits.estimator(q), got); err != nil {
					t.Fatal(err)
				}
				if g, w := sortedOrds(got.ords()), heapOrds(want); !slices.Equal(g, w) {
					t.Fatalf("query %d share %v keep %d: scanBits kept %d ordinals, the closure scan %d, or others", qi, share, keep, len(g), len(w))
				}
			}
		}
	}
}

// BenchmarkScanBits is the 1-bit leg's scan alone (the best 2,000 of
// 200k random vectors of the builtin embedder's dimension, every one and
// half of them visible), the closure scan against scanBits:
//
//	go test ./internal/vectors -run '^$' -bench ScanBits -benchtime 100x
func BenchmarkScanBits(b *testing.B) {
	rng := rand.New(rand.NewPCG(73, 74))
	const n, dim, keep = 200_000, 768, 2000
	s := openWithCodes(b, randomVectors(rng, n, dim), defaultInt8Scaling)
	queries := randomVectors(rng, 50, dim)
	half := randomSubset(rng, n, 0.5)
	for _, v := range []struct {
		name    string
		allowed *roaring.Bitmap
	}{{"all", nil}, {"half", half}} {
		for _, fused := range []bool{false, true} {
			b.Run(fmt.Sprintf("allowed=%s/fused=%v", v.name, fused), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					q := queries[i%len(queries)]
					if !fused {
						closureScan(b, s, q, v.allowed, keep)
						continue
					}
					if err := s.scanBits(ctx, v.allowed, s.bits.estimator(q), newBestSet(keep)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestBitEstimate pins the 1-bit estimate's formula, which score and
// scanBits share (TestScanBitsEqualsTheClosureScan cannot notice a change
// to it): q·mean + factor·(2·(lo·ones + step·pop) − Σq'), on numbers
// exact in float32, for a hand-made code read through score.
func TestBitEstimate(t *testing.T) {
	q := bitQuery{lo: -0.5, step: 0.25, qMean: 1.5, sum: 3}
	head := uint64(math.Float32bits(2)) | 6<<32 // factor 2, 6 bits set
	// setSum = -0.5·6 + 0.25·20 = 2; 1.5 + 2·(2·2 − 3) = 3.5
	if got := q.estimate(head, 20); got != 3.5 {
		t.Errorf("estimate(factor 2, ones 6, pop 20) = %v, want 3.5", got)
	}
	// One word: the code's bits 0..5 set; the query's u = 1, 2, 3, 4, 5, 5
	// on them (planes 0..2), so pop = 20 again.
	c := &bitCodes{words: 1, recs: []uint64{0, 0, head, 0b111111}}
	e := &bitEstimator{c: c, packed: []uint64{0b110101, 0b000110, 0b111000, 0}, bitQuery: q}
	if got := e.score(1); got != 3.5 {
		t.Errorf("score of the hand-made code = %v, want 3.5", got)
	}
}
