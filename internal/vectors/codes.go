package vectors

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/mmap"
)

// The code files. All numbers are little-endian.
//
// vectors.i8, int8 scalar quantization:
//
//	header   "AQI8", uint32 version (1), uint32 dim, uint32 scaling
//	         (1 per vector, 2 per dimension), uint64 count
//	dimScale dim float32
//	dimShift dim float32
//	records  count × (float32 vecScale, dim int8 codes)
//
// Vector v's component j is approximately
// dimShift[j] + dimScale[j]·vecScale·code[j]. Per-vector scaling sets
// dimScale to 1, dimShift to 0 and vecScale to max|v|/127; per-dimension
// scaling sets vecScale to 1 and maps each dimension's range over the
// corpus onto -127..127.
//
// vectors.b1, 1-bit codes of the vectors centred on their mean and
// randomly rotated (RaBitQ-style; see bits.go):
//
//	header   "AQB1", uint32 version (1), uint32 dim, uint32 words
//	         (P/64, P the power of two ≥ dim the rotation maps into),
//	         uint64 count
//	signs    rotationRounds × words uint64: the rotation's sign flips
//	mean     dim float32, then zero padding to a multiple of 8 bytes
//	records  count × (float32 factor, uint32 ones, words × uint64 bits)
//
// With d = R(v-mean), bit j of a record (bit j%64 of word j/64) is set
// when d[j] > 0; ones counts the set bits; factor is |d|²/Σ|d[j]|, which
// turns q'·sign(d) for the rotated query q' into an estimate of q'·d.
// Records are 8-byte aligned so the scan reads them as uint64s.
const (
	int8Magic   = "AQI8"
	bitMagic    = "AQB1"
	codeVersion = 1
	headerLen   = 24
)

// int8Scaling says how int8 codes map back to values.
type int8Scaling uint32

const (
	perVector    int8Scaling = 1
	perDimension int8Scaling = 2
)

func (s int8Scaling) String() string {
	switch s {
	case perVector:
		return "per-vector"
	case perDimension:
		return "per-dimension"
	}
	return fmt.Sprintf("int8Scaling(%d)", uint32(s))
}

// defaultInt8Scaling is per-vector: on the builtin embedder's SciFact
// vectors its recall@10 without over-fetch is 0.991, per-dimension's 0.986
// (TestInt8Scaling); both reach 1.000 at ×2. The hashed features give
// every dimension the same spread, while vectors differ in how peaked they
// are, which per-vector scaling follows.
const defaultInt8Scaling = perVector

// BuildCodes reads the float32 vector file at path (dim float32s per
// vector) and writes its int8 and 1-bit codes beside it (Int8Path,
// BitPath), replacing older ones. Each file is written under a temporary
// name and renamed when complete.
func BuildCodes(path string, dim int) error {
	return buildCodes(path, dim, defaultInt8Scaling)
}

func buildCodes(path string, dim int, scaling int8Scaling) error {
	const op = "vectors.BuildCodes"
	if dim < 1 {
		return errs.FieldError(op, "dim", fmt.Sprintf("want ≥ 1, got %d", dim))
	}
	// The file is read twice, in order, with read(2) rather than through a
	// mapping: its pages stay in the page cache but are not charged to the
	// building process (1.4 GiB at 500k vectors of 768 dimensions).
	f, err := os.Open(path)
	if err != nil {
		return errs.E(op, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return errs.E(op, err)
	}
	if st.Size()%int64(4*dim) != 0 {
		return errs.Errorf(op, errs.Invalid, "%s has %d bytes, not a whole number of %d-dimension float32 vectors", path, st.Size(), dim)
	}
	n := int(st.Size() / int64(4*dim))
	var r *bufio.Reader
	rewind := func() error {
		_, err := f.Seek(0, io.SeekStart)
		r = bufio.NewReaderSize(f, 1<<20)
		return err
	}
	raw := make([]byte, 4*dim)
	buf := make([]float32, dim)
	next := func() ([]float32, error) { // valid until the next call
		if _, err := io.ReadFull(r, raw); err != nil {
			return nil, errs.Errorf(op, errs.Internal, "reading %s: %w", path, err)
		}
		for j := range buf {
			buf[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
		}
		return buf, nil
	}
	// One pass for the corpus statistics: mean, and range per dimension.
	mean := make([]float64, dim)
	lo, hi := make([]float32, dim), make([]float32, dim)
	if err := rewind(); err != nil {
		return errs.E(op, err)
	}
	for i := range n {
		v, err := next()
		if err != nil {
			return err
		}
		for j, x := range v {
			mean[j] += float64(x)
			if i == 0 || x < lo[j] {
				lo[j] = x
			}
			if i == 0 || x > hi[j] {
				hi[j] = x
			}
		}
	}
	mean32 := make([]float32, dim)
	for j := range mean {
		if n > 0 {
			mean32[j] = float32(mean[j] / float64(n))
		}
	}
	i8, err := newCodeWriter(Int8Path(path))
	if err != nil {
		return errs.E(op, err)
	}
	defer i8.abandon()
	b1, err := newCodeWriter(BitPath(path))
	if err != nil {
		return errs.E(op, err)
	}
	defer b1.abandon()

	rot := newRotation(dim)
	dimScale, dimShift := make([]float32, dim), make([]float32, dim)
	for j := range dim {
		switch scaling {
		case perVector:
			dimScale[j] = 1
		case perDimension:
			dimShift[j] = (lo[j] + hi[j]) / 2
			dimScale[j] = (hi[j] - lo[j]) / 254
		default:
			return errs.Errorf(op, errs.Internal, "unknown int8 scaling %d", scaling)
		}
	}
	i8.header(int8Magic, dim, uint32(scaling), n)
	i8.floats(dimScale)
	i8.floats(dimShift)
	b1.header(bitMagic, dim, uint32(rot.words()), n)
	for _, signs := range rot.signs {
		for _, w := range signs {
			b1.uint64(w)
		}
	}
	b1.floats(mean32)
	b1.pad(8)

	codes := make([]byte, dim)
	rec := newBitRecord(rot, mean32)
	if err := rewind(); err != nil {
		return errs.E(op, err)
	}
	for range n {
		v, err := next()
		if err != nil {
			return err
		}
		// int8
		vecScale := float32(1)
		if scaling == perVector {
			var amax float32
			for _, x := range v {
				amax = max(amax, float32(math.Abs(float64(x))))
			}
			vecScale = amax / 127
		}
		for j, x := range v {
			var c float64
			if d := dimScale[j] * vecScale; d > 0 {
				c = math.Round(float64((x - dimShift[j]) / d))
			}
			codes[j] = byte(int8(max(-127, min(127, c))))
		}
		i8.floats([]float32{vecScale})
		i8.bytes(codes)
		rec.encode(v)
		b1.floats([]float32{rec.factor})
		b1.uint32(rec.ones)
		for _, w := range rec.words {
			b1.uint64(w)
		}
	}
	if err := i8.commit(); err != nil {
		return errs.E(op, err)
	}
	if err := b1.commit(); err != nil {
		return errs.E(op, err)
	}
	return nil
}

// codeWriter writes a code file under a temporary name and renames it into
// place on commit.
type codeWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	n    int64
	b    [8]byte
}

func newCodeWriter(path string) (*codeWriter, error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".codes-*")
	if err != nil {
		return nil, err
	}
	return &codeWriter{path: path, f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

func (c *codeWriter) bytes(b []byte) { c.w.Write(b); c.n += int64(len(b)) }

func (c *codeWriter) uint32(x uint32) {
	binary.LittleEndian.PutUint32(c.b[:4], x)
	c.bytes(c.b[:4])
}

func (c *codeWriter) uint64(x uint64) {
	binary.LittleEndian.PutUint64(c.b[:], x)
	c.bytes(c.b[:])
}

func (c *codeWriter) floats(xs []float32) {
	for _, x := range xs {
		c.uint32(math.Float32bits(x))
	}
}

func (c *codeWriter) pad(to int64) {
	for c.n%to != 0 {
		c.bytes([]byte{0})
	}
}

func (c *codeWriter) header(magic string, dim int, field uint32, n int) {
	c.bytes([]byte(magic))
	c.uint32(codeVersion)
	c.uint32(uint32(dim))
	c.uint32(field)
	c.uint64(uint64(n))
}

func (c *codeWriter) commit() error {
	if err := c.w.Flush(); err != nil {
		return err
	}
	if err := c.f.Sync(); err != nil {
		return err
	}
	if err := c.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(c.f.Name(), c.path); err != nil {
		return err
	}
	c.f = nil
	return nil
}

// abandon removes the temporary file unless it was committed.
func (c *codeWriter) abandon() {
	if c.f != nil {
		c.f.Close()
		os.Remove(c.f.Name())
	}
}

// readHeader checks a code file's header against the vector file's
// dimension and count and returns the header's third field.
func readHeader(m []byte, path, magic string, dim, n int) (uint32, error) {
	if len(m) < headerLen || string(m[:4]) != magic {
		return 0, errs.Errorf("", errs.Invalid, "%s is not a %s code file", path, magic)
	}
	le := binary.LittleEndian
	if v := le.Uint32(m[4:]); v != codeVersion {
		return 0, errs.Errorf("", errs.Invalid, "%s has code version %d, want %d: rebuild it", path, v, codeVersion)
	}
	if d, c := int(le.Uint32(m[8:])), le.Uint64(m[16:]); d != dim || c != uint64(n) {
		return 0, errs.Errorf("", errs.Conflict, "%s holds %d vectors of dimension %d, the vector file %d of dimension %d: rebuild the codes", path, c, d, n, dim)
	}
	return le.Uint32(m[12:]), nil
}

func floatsAt(m []byte, off, n int) []float32 {
	out := make([]float32, n)
	for j := range out {
		out[j] = math.Float32frombits(binary.LittleEndian.Uint32(m[off+4*j:]))
	}
	return out
}

// int8Codes is a mapped vectors.i8.
type int8Codes struct {
	m                  []byte
	dim                int
	dimScale, dimShift []float32
	recs               []byte // the records
	stride             int
}

// openInt8 maps the int8 codes at path; a missing file is no codes.
func openInt8(path string, dim, n int) (*int8Codes, error) {
	m, err := mmap.Map(path)
	if errs.Is(errs.NotFound, err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	scaling, err := readHeader(m, path, int8Magic, dim, n)
	if err == nil && scaling != uint32(perVector) && scaling != uint32(perDimension) {
		err = errs.Errorf("", errs.Invalid, "%s has unknown int8 scaling %d", path, scaling)
	}
	stride := 4 + dim
	body := headerLen + 8*dim
	if err == nil && len(m) != body+n*stride {
		err = errs.Errorf("", errs.Invalid, "%s has %d bytes, want %d for %d vectors: rebuild it", path, len(m), body+n*stride, n)
	}
	if err != nil {
		mmap.Unmap(m)
		return nil, err
	}
	return &int8Codes{
		m: m, dim: dim, stride: stride, recs: m[body:],
		dimScale: floatsAt(m, headerLen, dim),
		dimShift: floatsAt(m, headerLen+4*dim, dim),
	}, nil
}

func (c *int8Codes) mapped() []byte {
	if c == nil {
		return nil
	}
	return c.m
}

// int8Estimator estimates q·v from v's int8 codes: the query, weighted by
// each dimension's scale, is quantized to int16 so the inner loop is
// integer multiply-adds.
type int8Estimator struct {
	c     *int8Codes
	w     []int16
	scale float32 // of w
	shift float32 // q·dimShift
	// the error bound (bound): errPerScale per unit of a record's
	// vecScale, errFixed for every record
	errPerScale, errFixed float64
}

func (c *int8Codes) estimator(q []float32) *int8Estimator {
	e := &int8Estimator{c: c, w: make([]int16, len(q))}
	var wmax float32
	for j, x := range q {
		wmax = max(wmax, float32(math.Abs(float64(x*c.dimScale[j]))))
		e.shift += x * c.dimShift[j]
	}
	if wmax != 0 {
		e.scale = wmax / float32(queryMax(len(q)))
		for j, x := range q {
			e.w[j] = int16(math.Round(float64(x * c.dimScale[j] / e.scale)))
		}
	}
	e.errorBound(q)
	return e
}

// queryMax is the largest quantized query weight for dim dimensions: one
// of dotInt8's int32 sums adds at most dim/4+8 products of a weight and a
// code (|code| ≤ 127), and must stay below 2^31.
func queryMax(dim int) int {
	return min(math.MaxInt16, math.MaxInt32/(127*(dim/4+8)))
}

// errorBound returns the two numbers of bound for query q (the one the
// estimator was made for).
func (e *int8Estimator) errorBound(q []float32) {
	c := e.c
	var a, s1, s2 float64
	for j, x := range q {
		ax := math.Abs(float64(x))
		a += ax * float64(c.dimScale[j])
		s1 += ax * math.Abs(float64(c.dimShift[j]))
	}
	s2 = 127.5 * a
	// |q·v − the estimate|, for v's codes with scale vs, is at most
	// vs·Σ|q_j|·dimScale_j·½ (each code is v's component rounded to a
	// step of vs·dimScale_j; 0.5001 covers the float32 arithmetic that
	// made the step and the code) plus vs·(scale/2)·127·dim (the query's
	// weights rounded to steps of scale, times codes of at most 127).
	// The float32 sums of the estimate and of the exact dot product each
	// differ from their real values by at most (dim+8)·2⁻²⁴ times the sum
	// of the absolute products, which Σ|q_j|·(|dimShift_j| +
	// 127.5·vs·dimScale_j) bounds.
	g := 2 * float64(len(q)+8) / (1 << 24)
	e.errPerScale = (0.5001*a + float64(e.scale)/2*127*float64(len(q)) + g*s2) * 1.01
	e.errFixed = g * s1 * 1.01
}

// bound is at least |dot(q, v) − score(i)|, dot(q, v) the float32 dot
// product the re-rank computes, for record i.
func (e *int8Estimator) bound(i uint32) float64 {
	vecScale := math.Float32frombits(binary.LittleEndian.Uint32(e.c.recs[int(i)*e.c.stride:]))
	return float64(vecScale)*e.errPerScale + e.errFixed
}

func (e *int8Estimator) score(i uint32) float32 {
	rec := e.c.recs[int(i)*e.c.stride:][:e.c.stride]
	vecScale := math.Float32frombits(binary.LittleEndian.Uint32(rec))
	codes := unsafe.Slice((*int8)(unsafe.Pointer(&rec[4])), e.c.dim)
	return e.shift + vecScale*e.scale*float32(dotInt8(e.w, codes))
}

// dotInt8Go is the integer dot product of w and c (equal lengths), eight
// at a time into four int32 sums; int8Estimator bounds w so they cannot
// overflow. dotInt8 (dotint8_*.go) is this sum, with an AVX-512 kernel
// where the CPU has one.
func dotInt8Go(w []int16, c []int8) int64 {
	c = c[:len(w)]
	var s0, s1, s2, s3 int32
	for len(w) >= 8 {
		w8, c8 := w[:8:8], c[:8:8]
		s0 += int32(w8[0])*int32(c8[0]) + int32(w8[4])*int32(c8[4])
		s1 += int32(w8[1])*int32(c8[1]) + int32(w8[5])*int32(c8[5])
		s2 += int32(w8[2])*int32(c8[2]) + int32(w8[6])*int32(c8[6])
		s3 += int32(w8[3])*int32(c8[3]) + int32(w8[7])*int32(c8[7])
		w, c = w[8:], c[8:]
	}
	for i := range w {
		s0 += int32(w[i]) * int32(c[i])
	}
	return int64(s0) + int64(s1) + int64(s2) + int64(s3)
}
