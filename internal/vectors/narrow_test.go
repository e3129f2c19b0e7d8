package vectors

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

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
		ords := make([]uint32, 0, 2000)
		for _, i := range rng.Perm(n)[:2000] {
			ords = append(ords, uint32(i))
		}
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
