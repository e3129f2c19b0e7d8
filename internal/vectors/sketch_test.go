package vectors

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// The sketch holds each code's first words, its correction factor and
// the count of the prefix's set bits.
func TestSketchIsTheCodesPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	const n = 500
	s := openWithCodes(t, randomVectors(rng, n, 256), defaultInt8Scaling)
	for _, words := range []int{1, 2, 4} {
		sk := s.bits.sketch(words, n)
		for i := range n {
			rec := s.bits.recs[i*(1+s.bits.words):][:1+s.bits.words]
			got := sk.recs[i*(1+words):][:1+words]
			ones := 0
			for _, w := range rec[1 : 1+words] {
				ones += bits.OnesCount64(w)
			}
			if uint32(got[0]) != uint32(rec[0]) || int(got[0]>>32) != ones || !slices.Equal(got[1:], rec[1:1+words]) {
				t.Fatalf("words %d, vector %d: sketch %x, code %x (prefix ones %d)", words, i, got, rec[:1+words], ones)
			}
		}
	}
}

// With the sketch on, a search still returns only allowed vectors, k of
// them when there are k, each with its exact score.
func TestSketchSearchReturnsOnlyAllowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	const dim = 256
	vecs := randomVectors(rng, 6000, dim)
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	s.SetSketch(2, 2, 0)
	for qi, q := range randomVectors(rng, 10, dim) {
		for _, share := range []float64{1, 0.5, 0.1} {
			allowed := randomSubset(rng, len(vecs), share)
			for _, k := range []int{10, 100} {
				got, err := s.Search(ctx, q, allowed, k, Bit, 4)
				if err != nil {
					t.Fatal(err)
				}
				if want := min(k, int(allowed.GetCardinality())); len(got) != want {
					t.Errorf("query %d share %v k %d: %d hits, want %d", qi, share, k, len(got), want)
				}
				for _, h := range got {
					if !allowed.Contains(h.Ordinal) {
						t.Fatalf("query %d: returned disallowed ordinal %d", qi, h.Ordinal)
					}
					if want := dot(q, vecs[h.Ordinal]); h.Score != want {
						t.Fatalf("query %d: ordinal %d scored %v, exact %v", qi, h.Ordinal, h.Score, want)
					}
				}
			}
		}
	}
}

// The sketch runs only for callers who see at least its minimum: below
// it (and with it off) a search is the full scan's, result for result;
// above it, on random vectors (the hard case), some results differ,
// which shows the stage ran.
func TestSketchMinVisible(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	const dim, n, k, over = 256, 20000, 10, 20
	vecs := randomVectors(rng, n, dim)
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	queries := randomVectors(rng, 20, dim)
	search := func() [][]Hit {
		var out [][]Hit
		for _, q := range queries {
			h, err := s.Search(ctx, q, nil, k, Bit, over)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, h)
		}
		return out
	}
	s.SetSketch(0, 4, 0)
	full := search()
	s.SetSketch(1, 2, n+1)
	if got := search(); !slices.EqualFunc(got, full, slices.Equal) {
		t.Errorf("with fewer visible vectors than the sketch's minimum, results differ from the full scan's")
	}
	s.SetSketch(1, 2, n)
	if got := search(); slices.EqualFunc(got, full, slices.Equal) {
		t.Errorf("a 64-bit sketch keeping 400 of 20,000 random vectors gave the full scan's results for every query: was it used?")
	}
}

// The sketch's recall@10 against the full 1-bit leg on clustered vectors
// of 256 dimensions (4-word codes): a prefix as long as the code keeps
// the full leg's results; shorter ones lose some even on this structured
// data (measured: 2 words ×4 0.64, ×8 0.80; 3 words ×4 0.88), which is
// why the stage needed measuring at scale (docs/performance-scale.md).
func TestSketchRecall(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 58))
	const dim, n, k, over = 256, 20000, 10, 20
	vecs := clusteredVectors(rng, n, dim, 300, 0.05)
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	queries := clusteredVectors(rng, 50, dim, 300, 0.05)
	for _, c := range []struct {
		words, keep int
		floor       float64
	}{{4, 1, 0.99}, {3, 4, 0.85}, {2, 8, 0.75}} {
		var sum float64
		for _, q := range queries {
			s.SetSketch(0, 0, 0)
			full, err := s.Search(ctx, q, nil, k, Bit, over)
			if err != nil {
				t.Fatal(err)
			}
			s.SetSketch(c.words, c.keep, 0)
			got, err := s.Search(ctx, q, nil, k, Bit, over)
			if err != nil {
				t.Fatal(err)
			}
			sum += overlap(full, got)
		}
		r := sum / float64(len(queries))
		t.Logf("clustered d%d: sketch %d words ×%d, recall@%d against the full 1-bit leg %.3f", dim, c.words, c.keep, k, r)
		if r < c.floor || math.IsNaN(r) {
			t.Errorf("sketch %d words ×%d: recall@%d %.3f, want ≥ %.2f", c.words, c.keep, k, r, c.floor)
		}
	}
}
