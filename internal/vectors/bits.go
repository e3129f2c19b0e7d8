package vectors

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"unsafe"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/mmap"
)

// The 1-bit codes follow RaBitQ (Gao and Long, SIGMOD 2024) in its
// simplest form: centre each vector on the corpus mean, rotate it at
// random, keep the signs of its coordinates and one correction factor.
// Without the rotation a sign says little about a coordinate that carries
// most of a vector's weight, which is what the builtin embedder's hashed
// features produce; after it every coordinate carries a little.

// rotationRounds is how many sign-flip and Hadamard rounds the rotation
// applies; three mix as well as a dense random rotation in practice.
const rotationRounds = 3

// rotationSeed fixes the rotation, so two builds of the same vectors write
// the same codes. The signs are stored in the file all the same.
const rotationSeed = 0x5eed_b175

// rotation is an orthogonal map from dim dimensions into p, the power of
// two ≥ dim: zero padding, then rounds of random sign flips, each followed
// by a normalised Walsh–Hadamard transform.
type rotation struct {
	dim, p int
	signs  [rotationRounds][]uint64 // bit j set: negate coordinate j
}

func newRotation(dim int) rotation {
	r := rotation{dim: dim, p: 64}
	for r.p < dim {
		r.p *= 2
	}
	rng := rand.New(rand.NewPCG(rotationSeed, uint64(dim)))
	for k := range r.signs {
		r.signs[k] = make([]uint64, r.p/64)
		for w := range r.signs[k] {
			r.signs[k][w] = rng.Uint64()
		}
	}
	return r
}

func (r rotation) words() int { return r.p / 64 }

// apply writes R(src) into dst (len p).
func (r rotation) apply(dst, src []float32) {
	copy(dst, src)
	clear(dst[len(src):])
	norm := float32(1 / math.Sqrt(float64(r.p)))
	for _, signs := range r.signs {
		for j := range dst {
			if signs[j/64]>>(j%64)&1 == 1 {
				dst[j] = -dst[j]
			}
		}
		for h := 1; h < len(dst); h *= 2 {
			for i := 0; i < len(dst); i += 2 * h {
				a, b := dst[i:i+h], dst[i+h:i+2*h]
				for j := range a {
					a[j], b[j] = a[j]+b[j], a[j]-b[j]
				}
			}
		}
		for j := range dst {
			dst[j] *= norm
		}
	}
}

// bitRecord encodes one vector's 1-bit record.
type bitRecord struct {
	rot    rotation
	mean   []float32
	centre []float32 // scratch, dim
	d      []float32 // scratch, p
	factor float32
	ones   uint32
	words  []uint64
}

func newBitRecord(rot rotation, mean []float32) *bitRecord {
	return &bitRecord{rot: rot, mean: mean, centre: make([]float32, rot.dim), d: make([]float32, rot.p), words: make([]uint64, rot.words())}
}

func (b *bitRecord) encode(v []float32) {
	for j, x := range v {
		b.centre[j] = x - b.mean[j]
	}
	b.rot.apply(b.d, b.centre)
	clear(b.words)
	b.ones = 0
	var sq, abs float64
	for j, x := range b.d {
		sq += float64(x) * float64(x)
		abs += math.Abs(float64(x))
		if x > 0 {
			b.words[j/64] |= 1 << (j % 64)
			b.ones++
		}
	}
	b.factor = 0
	if abs > 0 {
		b.factor = float32(sq / abs)
	}
}

// bitCodes is a mapped vectors.b1.
type bitCodes struct {
	m     []byte
	rot   rotation
	words int
	mean  []float32
	recs  []uint64 // the records, as words
}

// openBits maps the 1-bit codes at path; a missing file is no codes.
func openBits(path string, dim, n int) (*bitCodes, error) {
	m, err := mmap.Map(path)
	if errs.Is(errs.NotFound, err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rot := rotation{dim: dim, p: 64}
	for rot.p < dim {
		rot.p *= 2
	}
	words := rot.words()
	field, err := readHeader(m, path, bitMagic, dim, n)
	if err == nil && int(field) != words {
		err = errs.Errorf("", errs.Invalid, "%s has %d words per vector, want %d", path, field, words)
	}
	meanAt := headerLen + rotationRounds*words*8
	body := (meanAt + 4*dim + 7) &^ 7
	if err == nil && len(m) != body+n*8*(1+words) {
		err = errs.Errorf("", errs.Invalid, "%s has %d bytes, want %d for %d vectors: rebuild it", path, len(m), body+n*8*(1+words), n)
	}
	if err != nil {
		mmap.Unmap(m)
		return nil, err
	}
	// The map is page-aligned and the header and body multiples of 8.
	for k := range rot.signs {
		rot.signs[k] = unsafe.Slice((*uint64)(unsafe.Pointer(&m[headerLen+k*words*8])), words)
	}
	c := &bitCodes{m: m, rot: rot, words: words, mean: floatsAt(m, meanAt, dim)}
	if n > 0 {
		c.recs = unsafe.Slice((*uint64)(unsafe.Pointer(&m[body])), n*(1+words))
	}
	return c, nil
}

func (c *bitCodes) mapped() []byte {
	if c == nil {
		return nil
	}
	return c.m
}

// queryBits is how many bits of the rotated query the estimate keeps: the
// query is quantized to 0..2^queryBits-1 and split into bit planes, so
// Σ q[j] over a code's set bits is a few popcounts per word.
const queryBits = 4

// bitEstimator estimates q·v ≈ q·mean + factor·(q'·sign(d)) for the
// rotated query q', where q'·sign(d) = 2·Σ_{bit j set} q'[j] - Σ q'[j].
type bitEstimator struct {
	c *bitCodes
	// planes[p] is bit p of every u[j]; the planes are back to back in
	// packed, the layout weightedPopcount reads.
	planes [queryBits][]uint64
	packed []uint64
	bitQuery
}

// bitQuery is the query's part of the 1-bit estimate: four numbers, so a
// copy of it lives in registers in scanBits' loop.
type bitQuery struct {
	lo, step   float32 // q'[j] ≈ lo + step·u[j]
	qMean, sum float32 // q·mean, Σ q'[j]
}

// estimate is the estimate for a code whose record starts with head
// (factor's bits, and the code's count of set bits above them) and whose
// set bits weigh pop = Σ_{bit j set} u[j] (weightedPopcount). score and
// scanBits both call it, so their scores are the same. Each product is
// rounded to float32 before it is added (the conversions forbid the
// compiler to fuse a multiply and an add, as it may with GOAMD64=v3), so
// the block scan's vector kernel (aboveBlocks), which rounds every
// operation, computes the same floats.
func (q bitQuery) estimate(head uint64, pop int) float32 {
	factor := math.Float32frombits(uint32(head))
	ones := float32(head >> 32)
	setSum := float32(q.lo*ones) + float32(q.step*float32(pop))
	return q.qMean + float32(factor*(float32(2*setSum)-q.sum))
}

func (c *bitCodes) estimator(q []float32) *bitEstimator {
	e := &bitEstimator{c: c, packed: make([]uint64, queryBits*c.words)}
	for p := range e.planes {
		e.planes[p] = e.packed[p*c.words : (p+1)*c.words]
	}
	for j, x := range q {
		e.qMean += x * c.mean[j]
	}
	r := make([]float32, c.rot.p)
	c.rot.apply(r, q)
	lo, hi := r[0], r[0]
	for _, x := range r {
		lo, hi = min(lo, x), max(hi, x)
		e.sum += x
	}
	e.lo = lo
	e.step = (hi - lo) / (1<<queryBits - 1)
	if e.step == 0 {
		return e
	}
	for j, x := range r {
		u := uint(math.Round(float64((x - lo) / e.step)))
		for p := range e.planes {
			if u>>p&1 == 1 {
				e.planes[p][j/64] |= 1 << (j % 64)
			}
		}
	}
	return e
}

func (e *bitEstimator) score(i uint32) float32 {
	w := e.c.words
	rec := e.c.recs[int(i)*(1+w):][:1+w]
	return e.estimate(rec[0], weightedPopcount(e.packed, rec[1:]))
}

// weightedPopcountsEach is weightedPopcounts one record at a time through
// weightedPopcount: the whole of it where the batch kernel is missing.
func weightedPopcountsEach(planes, recs []uint64, w int, out []int64) {
	for j := range out {
		out[j] = int64(weightedPopcount(planes, recs[j*(1+w)+1:][:w]))
	}
}

// weightedPopcountGo is weightedPopcount in Go, for machines without the
// assembly (and to check it).
func weightedPopcountGo(planes, rec []uint64) int {
	w := len(rec)
	p0, p1, p2, p3 := planes[:w], planes[w:2*w], planes[2*w:3*w], planes[3*w:4*w]
	var c0, c1, c2, c3 int
	for k, x := range rec {
		c0 += bits.OnesCount64(p0[k] & x)
		c1 += bits.OnesCount64(p1[k] & x)
		c2 += bits.OnesCount64(p2[k] & x)
		c3 += bits.OnesCount64(p3[k] & x)
	}
	return c0 + 2*c1 + 4*c2 + 8*c3
}
