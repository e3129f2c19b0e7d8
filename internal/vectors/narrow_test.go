package vectors

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// candidates are m distinct random ordinals below n, in random order.
func candidates(rng *rand.Rand, n, m int) []uint32 {
	ords := make([]uint32, m)
	for j, i := range rng.Perm(n)[:m] {
		ords[j] = uint32(i)
	}
	return ords
}

// narrowInt8 is narrowScored under the query's estimator, the kept
// ordinals only: what the narrowing tests and benchmarks compare.
func (s *Store) narrowInt8(query []float32, ords []uint32, keep int) []uint32 {
	kept := s.narrowScored(s.i8.estimator(query), ords, keep)
	out := make([]uint32, len(kept))
	for j, c := range kept {
		out[j] = c.i
	}
	return out
}

// TestNarrowInt8KeepsTheBest checks narrowInt8, which sorts its
// candidates and scores them with dotInt8, against the narrowing as it was
// written before: the candidates offered in the order given, each scored
// with the Go loop. Duplicated vectors give tied estimates, which the
// kept set must break towards the lower ordinal either way.
func TestNarrowInt8KeepsTheBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 23))
	const n, dim = 3000, 768
	vecs := randomVectors(rng, n, dim)
	for i := 1; i < n; i += 7 {
		vecs[i] = vecs[i-1] // ties
	}
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	for trial := range 20 {
		q := randomVectors(rng, 1, dim)[0]
		if trial%2 == 1 {
			q = vecs[rng.IntN(n)]
		}
		ords := candidates(rng, n, 2000)
		for _, keep := range []int{1, 300, 1999} {
			est := s.i8.estimator(q)
			top := newTopK(keep)
			for _, i := range ords {
				rec := s.i8.recs[int(i)*s.i8.stride:][:s.i8.stride]
				codes := make([]int8, dim)
				for j := range codes {
					codes[j] = int8(rec[4+j])
				}
				top.offer(i, est.shift+math.Float32frombits(binary.LittleEndian.Uint32(rec))*est.scale*float32(dotInt8Go(est.w, codes)))
			}
			want := make([]uint32, 0, keep)
			for _, h := range top.sorted() {
				want = append(want, h.Ordinal)
			}
			slices.Sort(want)
			got := s.narrowInt8(q, slices.Clone(ords), keep)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d keep %d: narrowInt8 kept %d candidates different from the Go loop's", trial, keep, len(got))
			}
		}
	}
}

// peakedVectors are n vectors of dim components, some far from unit
// length, some dominated by a few large components (the largest per-vector
// int8 step), some shifted off the origin (per-dimension scaling's shift).
func peakedVectors(rng *rand.Rand, n, dim int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dim)
		scale := float32(math.Exp(rng.NormFloat64()))
		for j := range v {
			v[j] = scale * float32(rng.NormFloat64())
			if rng.IntN(50) == 0 {
				v[j] *= 20
			}
			if i%3 == 0 {
				v[j] += 0.5
			}
		}
		out[i] = v
	}
	return out
}

// TestInt8ErrorBound checks that int8Estimator.bound bounds the distance
// between a record's estimate and the float32 dot product the re-rank
// computes, for both scalings, unit and peaked vectors, and queries that
// are and are not stored vectors.
func TestInt8ErrorBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 24))
	for _, scaling := range []int8Scaling{perVector, perDimension} {
		for _, kind := range []string{"unit", "peaked"} {
			const n, dim = 2000, 384
			vecs := randomVectors(rng, n, dim)
			if kind == "peaked" {
				vecs = peakedVectors(rng, n, dim)
			}
			s := openWithCodes(t, vecs, scaling)
			var worst float64 // the largest |error| / bound seen
			for trial := range 20 {
				q := randomVectors(rng, 1, dim)[0]
				if trial%2 == 1 {
					q = vecs[rng.IntN(n)]
				}
				est := s.i8.estimator(q)
				for i := range n {
					errAbs := math.Abs(float64(dot(q, vecs[i])) - float64(est.score(uint32(i))))
					b := est.bound(uint32(i))
					if errAbs > b {
						t.Fatalf("%s %s vector %d: |dot - estimate| = %g, above its bound %g", scaling, kind, i, errAbs, b)
					}
					if b > 0 {
						worst = max(worst, errAbs/b)
					}
				}
			}
			t.Logf("%s %s: the largest error is %.3f of its bound", scaling, kind, worst)
		}
	}
}

// TestRescoreNarrowedEqualsRescore checks that re-ranking the narrowed
// candidates while skipping those their bounds rule out gives exactly the
// hits of re-ranking them all, for both scalings, with tied vectors, and
// that it skipped some.
func TestRescoreNarrowedEqualsRescore(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 25))
	const n, dim = 4000, 256
	for _, scaling := range []int8Scaling{perVector, perDimension} {
		vecs := clusteredVectors(rng, n, dim, 40, 0.05)
		for i := 1; i < n; i += 11 {
			vecs[i] = vecs[i-1] // ties
		}
		s := openWithCodes(t, vecs, scaling)
		var read, all int64
		for trial := range 30 {
			q := clusteredVectors(rng, 1, dim, 40, 0.05)[0]
			if trial%3 == 0 {
				q = vecs[rng.IntN(n)]
			}
			ords := candidates(rng, n, 1000)
			for _, k := range []int{1, 10, 100} {
				est := s.i8.estimator(q)
				kept := s.narrowScored(est, slices.Clone(ords), 3*k)
				all0 := make([]uint32, len(kept))
				for j, c := range kept {
					all0[j] = c.i
				}
				slices.Sort(all0)
				want, err := s.rescore(q, all0, k)
				if err != nil {
					t.Fatal(err)
				}
				before := s.reranked.Load()
				got, err := s.rescoreNarrowed(q, est, slices.Clone(kept), k)
				if err != nil {
					t.Fatal(err)
				}
				read += s.reranked.Load() - before
				all += int64(len(kept))
				if !slices.Equal(got, want) {
					t.Fatalf("%s trial %d k %d: hits differ from re-ranking every candidate:\n got %v\nwant %v", scaling, trial, k, got, want)
				}
			}
		}
		t.Logf("%s: read %d of %d candidates' float32 vectors", scaling, read, all)
		if read >= all {
			t.Errorf("%s: read every candidate (%d): the bounds ruled none out", scaling, read)
		}
	}
}
