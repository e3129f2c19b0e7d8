package vectors

import (
	"math"
	"sync"
)

// A sketch is a shorter first stage for the 1-bit scan: the first
// sketch.words words of every 1-bit code (the first 64×words rotated
// coordinates' signs; after the random rotation every coordinate is a
// random projection of the vector, so a prefix of the code is a shorter
// code of the same kind), copied into one contiguous slice in the heap
// with each code's correction factor and the count of its prefix's set
// bits. A search scans the sketches of every visible vector (24 or 40
// bytes a vector where the full record is 136 at 768 dimensions), keeps
// the best k×overfetch×keep, and scores only those with their full 1-bit
// codes; the rest of the search (int8 narrowing, float32 re-ranking) is
// unchanged. This makes the leg more approximate than the full scan: a
// vector the full code would have kept can fall outside the sketch's
// best; docs/performance-scale.md ("bleve end to end at 500k") has the
// recall measured at 500k.
type sketch struct {
	words int
	recs  []uint64 // per vector: factor bits | prefix ones << 32, then words
}

// sketchState is a Store's sketch setting and the sketch, built at the
// first search that uses it.
type sketchState struct {
	mu    sync.Mutex
	words int // 0: no sketch stage
	keep  int
	min   int // visible vectors below which the full scan is used
	built *sketch
}

// SketchWords, SketchKeep and SketchMinVisible are the sketch stage's
// defaults: see the measurements in docs/performance-scale.md.
const (
	SketchWords      = 8
	SketchKeep       = 4
	SketchMinVisible = 100_000
)

// SetSketch sets the 1-bit search's sketch stage: the first words words
// of each code scanned first, the best k×overfetch×keep then scored with
// the full code, for callers who see at least minVisible vectors. words
// 0 turns it off (every visible full code is scanned, as before), and so
// does a prefix as long as the code.
func (s *Store) SetSketch(words, keep, minVisible int) {
	s.sk.mu.Lock()
	defer s.sk.mu.Unlock()
	if words != s.sk.words {
		s.sk.built = nil
	}
	s.sk.words, s.sk.keep, s.sk.min = max(words, 0), max(keep, 1), minVisible
}

// sketchFor returns the sketch and its keep factor when a search over
// visible vectors should use it, building it on first use.
func (s *Store) sketchFor(visible uint64) (*sketch, int) {
	s.sk.mu.Lock()
	defer s.sk.mu.Unlock()
	if s.sk.words == 0 || s.bits == nil || s.sk.words >= s.bits.words || visible < uint64(s.sk.min) {
		return nil, 0
	}
	if s.sk.built == nil {
		s.sk.built = s.bits.sketch(s.sk.words, s.n)
	}
	return s.sk.built, s.sk.keep
}

// sketch copies the first words words of each of the n codes.
func (c *bitCodes) sketch(words, n int) *sketch {
	sk := &sketch{words: words, recs: make([]uint64, n*(1+words))}
	for i := range n {
		rec := c.recs[i*(1+c.words):][:1+c.words]
		dst := sk.recs[i*(1+words):][:1+words]
		ones := 0
		for _, w := range rec[1 : 1+words] {
			ones += popcount(w)
		}
		dst[0] = rec[0]&math.MaxUint32 | uint64(ones)<<32
		copy(dst[1:], rec[1:1+words])
	}
	return sk
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// sketchEstimator ranks vectors by their sketch: factor·(2·Σ_{set j}
// q'[j] − Σ q'[j]) over the prefix's coordinates, which orders them as
// the estimate of q·v from the prefix alone would (q·mean and the scale
// are the same for every vector).
type sketchEstimator struct {
	sk       *sketch
	packed   []uint64 // the bit planes of the prefix, back to back
	lo, step float32
	sum      float32 // Σ q'[j] over the prefix
}

func (sk *sketch) estimator(e *bitEstimator) *sketchEstimator {
	w := sk.words
	se := &sketchEstimator{sk: sk, packed: make([]uint64, queryBits*w), lo: e.lo, step: e.step}
	for p := range e.planes {
		copy(se.packed[p*w:(p+1)*w], e.planes[p][:w])
	}
	for j := 0; j < 64*w; j++ {
		u := 0
		for p := range e.planes {
			u |= int(e.planes[p][j/64]>>(j%64)&1) << p
		}
		se.sum += e.lo + e.step*float32(u)
	}
	return se
}

func (se *sketchEstimator) score(i uint32) float32 {
	w := se.sk.words
	rec := se.sk.recs[int(i)*(1+w):][:1+w]
	factor := math.Float32frombits(uint32(rec[0]))
	ones := float32(rec[0] >> 32)
	setSum := se.lo*ones + se.step*float32(weightedPopcount(se.packed, rec[1:]))
	return factor * (2*setSum - se.sum)
}
