// Package vectors searches a file of float32 vectors by dot product without
// loading it into memory: the file is memory-mapped, and quantized copies
// of it (int8 and 1-bit codes, built by BuildCodes and stored beside it)
// pick candidates that are then re-ranked with the full-precision vectors.
//
// The float32 file is an index's vectors.f32: one little-endian float32
// vector per ordinal, back to back, no header. The code files are
// described in codes.go. A Store maps them read-only, so the vectors live
// in the page cache, which the kernel may evict, and not in the Go heap.
//
// The codes are scanned through their mappings: they are the hot part,
// read in order by every search. The float32 vectors a search re-ranks
// are read with pread into a small buffer instead: through the mapping,
// each page read maps its cached neighbours too (fault-around, large
// folios; MADV_RANDOM does not stop it), so a few re-ranks put the whole
// file in the process's resident memory (RssFile) — 1.4 GiB at 500k
// chunks of 768 dimensions, within two seconds of `assay dev` answering
// questions. Read with pread, those pages are page cache only, which the
// kernel shares and reclaims without charging the process.
//
// Search visits only the ordinals a caller may see (a roaring bitmap), so
// a caller who sees 5% of the corpus scans 5% of it.
package vectors

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/mmap"
)

// Type says which representation picks the candidates.
type Type string

const (
	// Float32 scores every allowed vector exactly.
	Float32 Type = "float32"
	// Int8 scans int8 codes (4× smaller than float32) and re-ranks the
	// best k×overfetch exactly.
	Int8 Type = "int8"
	// Bit scans 1-bit codes (32× smaller) and re-ranks the best
	// k×overfetch exactly.
	Bit Type = "bit"
)

// DefaultType is the representation a search should use when the codes
// exist. Measured with BenchmarkSearch (builtin embedder, 768 dimensions,
// 2 shared cores): at 500k vectors the 1-bit scan costs 16-18 ms of CPU
// where the exact scan costs 99 ms in RAM and 165 ms memory-mapped, and
// re-ranking DefaultOverfetch's candidates keeps recall@100 at 0.985
// (0.998 for a caller who sees 5%); at 50k it is 0.997. The int8 codes
// recall more (1.000 at ×2) but, scored in pure Go without SIMD, cost
// more CPU than float32 (175 ms at 500k) as a scan; a 1-bit search uses
// them to narrow its candidates before reading float32 (Int8Narrow).
const DefaultType = Bit

// DefaultOverfetch is the over-fetch DefaultType is measured with for k
// results: at least 20×k and at least 1,000 candidates (recall@10 at 500k
// is 0.908 with 200 candidates, 0.988 with 1,000).
func DefaultOverfetch(k int) int {
	if k < 1 {
		return 1
	}
	return max(20, (1000+k-1)/k)
}

// ParseType reads a Type from its name.
func ParseType(s string) (Type, error) {
	switch t := Type(strings.ToLower(s)); t {
	case Float32, Int8, Bit:
		return t, nil
	}
	return "", errs.FieldError("vectors.ParseType", "type", fmt.Sprintf("want float32, int8 or bit, got %q", s))
}

// Hit is one result: the vector's ordinal and its exact float32 dot
// product with the query.
type Hit struct {
	Ordinal uint32
	Score   float32
}

// Store is a memory-mapped vector file and the codes beside it. Its
// methods are safe for concurrent use; Close waits for running searches.
type Store struct {
	path string
	dim  int
	n    int

	mu     sync.RWMutex // Close takes it for writing; readers for reading
	closed bool
	f32    *os.File // the float32 file, for pread
	f32map []byte
	vecs   []float32 // view of f32map
	i8     *int8Codes
	bits   *bitCodes

	// reranked counts the float32 vectors searches have re-scored, for
	// tests of how many a search reads.
	reranked atomic.Int64
}

// Open maps the float32 vector file at path (dim float32s per vector) and
// the int8 and 1-bit code files beside it, when they exist. Codes that
// exist but do not match the vector file (another dimension or count) are
// an error: they are stale and must be rebuilt with BuildCodes.
func Open(path string, dim int) (*Store, error) {
	const op = "vectors.Open"
	if dim < 1 {
		return nil, errs.FieldError(op, "dim", fmt.Sprintf("want ≥ 1, got %d", dim))
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return nil, errs.Errorf(op, errs.Unsupported, "the vector files are little-endian and this machine is not")
	}
	m, err := mmap.Map(path)
	if err != nil {
		return nil, errs.E(op, err)
	}
	if len(m)%(4*dim) != 0 {
		mmap.Unmap(m)
		return nil, errs.Errorf(op, errs.Invalid, "%s has %d bytes, not a whole number of %d-dimension float32 vectors", path, len(m), dim)
	}
	s := &Store{path: path, dim: dim, n: len(m) / (4 * dim), f32map: m}
	if len(m) > 0 {
		s.vecs = unsafe.Slice((*float32)(unsafe.Pointer(&m[0])), len(m)/4)
	}
	if s.f32, err = os.Open(path); err != nil {
		s.Close()
		return nil, errs.E(op, err)
	}
	if s.i8, err = openInt8(Int8Path(path), dim, s.n); err != nil {
		s.Close()
		return nil, errs.E(op, err)
	}
	if s.bits, err = openBits(BitPath(path), dim, s.n); err != nil {
		s.Close()
		return nil, errs.E(op, err)
	}
	return s, nil
}

// Int8Path and BitPath name the code files BuildCodes writes beside the
// float32 file at path.
func Int8Path(path string) string { return codePath(path, ".i8") }

// BitPath: see Int8Path.
func BitPath(path string) string { return codePath(path, ".b1") }

func codePath(path, ext string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ext
}

// Len is the number of vectors.
func (s *Store) Len() int { return s.n }

// Dim is the vector length.
func (s *Store) Dim() int { return s.dim }

// Has reports whether the store can search with t (its codes exist).
func (s *Store) Has(t Type) bool {
	switch t {
	case Float32:
		return true
	case Int8:
		return s.i8 != nil
	case Bit:
		return s.bits != nil
	}
	return false
}

// Vector returns vector i, a view into the mapped file that is valid
// until Close. The caller must not modify it. Reading through the
// mapping keeps the page in the process's resident memory: to read many
// vectors once, use ReadVectors.
func (s *Store) Vector(i int) []float32 { return s.vecs[i*s.dim : (i+1)*s.dim : (i+1)*s.dim] }

// readBlock is the most bytes one pread of ReadVectors reads: runs of
// consecutive ordinals are read together up to it.
const readBlock = 64 << 10

// blocks recycles ReadVectors' buffers.
var blocks sync.Pool

// ReadVectors reads the vectors of ordinals, which must be increasing and
// below Len, with pread (runs of consecutive ordinals in one call), and
// calls visit with each ordinal and its vector, a view into a buffer
// valid only during the call. The pages read stay in the page cache but
// not in this process's resident memory.
func (s *Store) ReadVectors(ordinals []uint32, visit func(i uint32, v []float32)) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return errs.Errorf("vectors.ReadVectors", errs.Invalid, "the store for %s is closed", s.path)
	}
	return s.readVectors(ordinals, visit)
}

func (s *Store) readVectors(ordinals []uint32, visit func(i uint32, v []float32)) error {
	const op = "vectors.ReadVectors"
	per := max(1, readBlock/(4*s.dim)) // vectors per pread
	bp, _ := blocks.Get().(*[]float32)
	if bp == nil || len(*bp) < per*s.dim {
		b := make([]float32, per*s.dim)
		bp = &b
	}
	defer blocks.Put(bp)
	buf := *bp
	bytes := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), 4*len(buf))
	for a := 0; a < len(ordinals); {
		first := ordinals[a]
		switch {
		case int(first) >= s.n:
			return errs.FieldError(op, "ordinals", fmt.Sprintf("holds ordinal %d, the store has %d vectors", first, s.n))
		case a > 0 && first <= ordinals[a-1]:
			return errs.FieldError(op, "ordinals", fmt.Sprintf("want increasing ordinals, got %d after %d", first, ordinals[a-1]))
		}
		b := a + 1
		for b < len(ordinals) && b-a < per && ordinals[b] == ordinals[b-1]+1 && int(ordinals[b]) < s.n {
			b++
		}
		size := (b - a) * 4 * s.dim
		if _, err := s.f32.ReadAt(bytes[:size], int64(first)*int64(4*s.dim)); err != nil {
			return errs.Errorf(op, errs.Internal, "reading %d vectors at ordinal %d of %s: %w", b-a, first, s.path, err)
		}
		for j := range b - a {
			visit(first+uint32(j), buf[j*s.dim:(j+1)*s.dim:(j+1)*s.dim])
		}
		a = b
	}
	return nil
}

// Close unmaps the files. It waits for running searches; later searches
// fail.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var first error
	for _, m := range [][]byte{s.f32map, s.i8.mapped(), s.bits.mapped()} {
		if err := mmap.Unmap(m); err != nil && first == nil {
			first = errs.E("vectors.Close", err)
		}
	}
	if s.f32 != nil {
		if err := s.f32.Close(); err != nil && first == nil {
			first = errs.E("vectors.Close", err)
		}
	}
	s.vecs, s.f32map, s.f32, s.i8, s.bits = nil, nil, nil, nil, nil
	return first
}

// checkEvery is how many vectors a scan scores between looks at the
// context.
const checkEvery = 4096

// Search returns the k allowed vectors with the highest dot product with
// query, best first, ties towards the lower ordinal, each with its exact
// float32 score. allowed holds the ordinals the caller may see (nil: all);
// only those are read. With t Int8 or Bit the codes pick the best
// k×overfetch candidates, which are then re-scored exactly (a Bit search
// over a store with int8 codes first narrows them to the best
// k×Int8Narrow by those codes, and reads only those of them that can be
// among the k best: rescoreNarrowed); when that is every allowed vector
// the search is exact. overfetch is ignored for Float32.
//
// Float32 scans the float32 file through its mapping, in order; the
// other types read only the vectors they re-score, with pread
// (ReadVectors), so a search adds nothing to the process's resident
// memory but its buffers.
func (s *Store) Search(ctx context.Context, query []float32, allowed *roaring.Bitmap, k int, t Type, overfetch int) ([]Hit, error) {
	return s.search(ctx, query, allowed, nil, k, t, overfetch)
}

// search is Search; a Bit search scans sub's records when sub is not nil
// (sub.allowed is allowed).
func (s *Store) search(ctx context.Context, query []float32, allowed *roaring.Bitmap, sub *Subset, k int, t Type, overfetch int) ([]Hit, error) {
	const op = "vectors.Search"
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch {
	case s.closed:
		return nil, errs.Errorf(op, errs.Invalid, "the store for %s is closed", s.path)
	case len(query) != s.dim:
		return nil, errs.Errorf(op, errs.Invalid, "query vector has %d dimensions, the store %d", len(query), s.dim)
	case !finite(query):
		return nil, errs.FieldError(op, "query", "has a NaN or infinite component")
	case t != Float32 && overfetch < 1:
		return nil, errs.FieldError(op, "overfetch", fmt.Sprintf("want ≥ 1, got %d", overfetch))
	case !s.Has(t):
		if t == Int8 || t == Bit {
			return nil, errs.Errorf(op, errs.Unsupported, "no %s codes beside %s: build them with BuildCodes", t, s.path)
		}
		return nil, errs.FieldError(op, "type", fmt.Sprintf("want float32, int8 or bit, got %q", t))
	case allowed != nil && !allowed.IsEmpty() && int(allowed.Maximum()) >= s.n:
		return nil, errs.FieldError(op, "allowed", fmt.Sprintf("holds ordinal %d, the store has %d vectors", allowed.Maximum(), s.n))
	case k < 1 || s.n == 0:
		return nil, nil
	}
	visible := uint64(s.n)
	if allowed != nil {
		visible = allowed.GetCardinality()
	}
	if t == Float32 {
		top := newTopK(k)
		err := s.scan(ctx, allowed, func(i uint32) { top.offer(i, dot(query, s.Vector(int(i)))) })
		if err != nil {
			return nil, errs.E(op, err)
		}
		return top.sorted(), nil
	}
	if uint64(k)*uint64(overfetch) >= visible {
		// The candidates would be every allowed vector: score them all
		// exactly.
		var all []uint32
		if allowed != nil {
			all = allowed.ToArray()
		} else {
			all = make([]uint32, s.n)
			for i := range all {
				all[i] = uint32(i)
			}
		}
		return s.rescore(query, all, k)
	}
	var ords []uint32
	var err error
	switch t {
	case Int8:
		cand := newTopK(k * overfetch)
		est := s.i8.estimator(query)
		err = s.scan(ctx, allowed, func(i uint32) { cand.offer(i, est.score(i)) })
		ords = make([]uint32, len(cand.items))
		for j, c := range cand.items {
			ords[j] = c.i
		}
	case Bit:
		cand := newBestSet(k * overfetch)
		if sub != nil {
			err = s.scanSubset(ctx, sub, s.bits.estimator(query), cand)
		} else {
			err = s.scanBits(ctx, allowed, s.bits.estimator(query), cand)
		}
		ords = cand.ords()
	}
	if err != nil {
		return nil, errs.E(op, err)
	}
	if t == Bit && s.i8 != nil && len(ords) > k*Int8Narrow {
		est := s.i8.estimator(query)
		return s.rescoreNarrowed(query, est, s.narrowScored(est, ords, k*Int8Narrow), k)
	}
	slices.Sort(ords)
	return s.rescore(query, ords, k)
}

// Int8Narrow: when the int8 codes exist, a Bit search re-scores its
// k×overfetch candidates with them and reads at most the best
// k×Int8Narrow as float32 (rescoreNarrowed skips those whose error bound
// rules them out). Each float32 vector re-ranked is a pread (3 KiB at 768
// dimensions): at 500k chunks the 2,000 of a k = 100 search put 18-35%
// of the worker's CPU in system calls (BenchmarkLoop's profile); the int8
// codes are read through their mapping (0.77 KiB a vector, 386 MB at
// 500k), no system call (BenchmarkRerank/int8-narrowed). The int8
// codes' recall@100 at ×2 is 1.000 on SciFact's vectors (TestInt8Scaling,
// recallFloors), so ×3 keeps the float32 top k nearly always.
const Int8Narrow = 3

// narrowAhead is how many candidates ahead narrowScored prefetches.
const narrowAhead = 8

// narrowScored is the keep of ords with the highest int8 estimate
// under est, each with its estimate, in no particular order. It sorts
// ords and scores them in increasing order, asking for the record
// narrowAhead candidates on before each score: the 2,000 candidates'
// records are scattered through the mapped file, and reaching each one,
// not the arithmetic, was most of the narrowing's time. Which candidates
// are kept does not depend on the order of the offers (better is a total
// order), so the result is the same.
func (s *Store) narrowScored(est *int8Estimator, ords []uint32, keep int) []scored {
	top := newTopK(keep)
	slices.Sort(ords)
	stride := s.i8.stride
	for j, i := range ords {
		if a := j + narrowAhead; a < len(ords) {
			prefetch(s.i8.recs[int(ords[a])*stride:][:stride])
		}
		top.offer(i, est.score(i))
	}
	return top.items
}

// rescoreNarrowed is rescore of the narrowed candidates, reading only
// those whose vector could be among the best k: it reads the k with the
// best estimates, and then only the others whose estimate plus its error
// bound (int8Estimator.bound) reaches the worst exact score of those k. A
// candidate below that is below the k-th best exact score, which only
// rises as more are read, so the hits are rescore's over every candidate
// (TestRescoreNarrowedEqualsRescore).
func (s *Store) rescoreNarrowed(query []float32, est *int8Estimator, kept []scored, k int) ([]Hit, error) {
	ords := make([]uint32, len(kept))
	if len(kept) <= k {
		for j, c := range kept {
			ords[j] = c.i
		}
		slices.Sort(ords)
		return s.rescore(query, ords, k)
	}
	slices.SortFunc(kept, bestFirst)
	for j, c := range kept[:k] {
		ords[j] = c.i
	}
	first := ords[:k]
	slices.Sort(first)
	top := newTopK(k)
	offer := func(i uint32, v []float32) { top.offer(i, dot(query, v)) }
	if err := s.readVectors(first, offer); err != nil {
		return nil, errs.E("vectors.Search", err)
	}
	theta := float64(top.items[0].score) // the worst of the k: top is full
	rest := ords[k:k]
	for _, c := range kept[k:] {
		if float64(c.score)+est.bound(c.i) < theta {
			continue
		}
		rest = append(rest, c.i)
	}
	slices.Sort(rest)
	if err := s.readVectors(rest, offer); err != nil {
		return nil, errs.E("vectors.Search", err)
	}
	s.reranked.Add(int64(k + len(rest)))
	return top.sorted(), nil
}

// rescore returns the k of the increasing ordinals whose vectors have
// the highest exact dot product with query, read with pread.
func (s *Store) rescore(query []float32, ordinals []uint32, k int) ([]Hit, error) {
	top := newTopK(k)
	s.reranked.Add(int64(len(ordinals)))
	if err := s.readVectors(ordinals, func(i uint32, v []float32) { top.offer(i, dot(query, v)) }); err != nil {
		return nil, errs.E("vectors.Search", err)
	}
	return top.sorted(), nil
}

// scan calls visit for every allowed ordinal in increasing order, looking
// at ctx every checkEvery ordinals.
func (s *Store) scan(ctx context.Context, allowed *roaring.Bitmap, visit func(uint32)) error {
	return s.scanBatches(ctx, allowed, func(batch []uint32) {
		for _, i := range batch {
			visit(i)
		}
	})
}

// scanBatches calls visit with every allowed ordinal in increasing order,
// in batches of at most checkEvery, looking at ctx before each batch.
func (s *Store) scanBatches(ctx context.Context, allowed *roaring.Bitmap, visit func([]uint32)) error {
	buf := make([]uint32, checkEvery)
	if allowed == nil {
		for from := 0; from < s.n; from += checkEvery {
			if ctx.Err() != nil {
				return errs.E(errs.Timeout, ctx.Err())
			}
			batch := buf[:min(checkEvery, s.n-from)]
			for j := range batch {
				batch[j] = uint32(from + j)
			}
			visit(batch)
		}
		return nil
	}
	it := allowed.ManyIterator()
	for {
		if ctx.Err() != nil {
			return errs.E(errs.Timeout, ctx.Err())
		}
		got := it.NextMany(buf)
		if got == 0 {
			return nil
		}
		visit(buf[:got])
	}
}

// scanBits offers every allowed vector's 1-bit estimate to top, as
// s.scan(ctx, allowed, func(i uint32) { top.offer(i, est.score(i)) })
// does, with the estimate computed in the loop (score's bitQuery.estimate,
// inlined on a copy of the query's numbers) and, once top has a floor, an
// estimate no better than it dropped before the offer's call:
// ordinals come in increasing order, so an equal score is never better
// than one already kept. top is a bestSet, which keeps the same
// ordinals as the topK heap the closure scan fills. The
// closure, estimator and offer calls per code were most of the scan's
// cost beside the popcount kernel (docs/log/performance-scale.md, "bleve end
// to end at 500k").
func (s *Store) scanBits(ctx context.Context, allowed *roaring.Bitmap, est *bitEstimator, top *bestSet) error {
	w := est.c.words
	stride := 1 + w
	recs, packed := est.c.recs, est.packed
	q := est.bitQuery
	visit := func(batch []uint32) {
		for _, i := range batch {
			rec := recs[int(i)*stride:][:stride]
			score := q.estimate(rec[0], weightedPopcount(packed, rec[1:]))
			if top.full && score <= top.floorScore {
				continue
			}
			top.offer(i, score)
		}
	}
	return s.scanBatches(ctx, allowed, visit)
}

func finite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// dot is the dot product of equal-length vectors, four lanes at a time
// (independent sums let the CPU overlap the multiplies). It adds in the
// same order as the bleve index's exact scan, so scores agree bit for bit.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(a); j += 4 {
		s0 += a[j] * b[j]
		s1 += a[j+1] * b[j+1]
		s2 += a[j+2] * b[j+2]
		s3 += a[j+3] * b[j+3]
	}
	for ; j < len(a); j++ {
		s0 += a[j] * b[j]
	}
	return (s0 + s1) + (s2 + s3)
}

type scored struct {
	i     uint32
	score float32
}

// better orders results: higher score first, then lower ordinal, as the
// bleve index's exact scan does.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.i < b.i
}

// rank orders results as better does, as one integer (a higher rank is
// better): the score's bits mapped so that unsigned order is the floats'
// order, then the ordinal complemented, so a lower ordinal ranks higher
// on equal scores. -0 ranks as +0 (the float comparison has them equal);
// scores are finite (Search rejects a query with a NaN or infinity, and
// the codes and vectors are finite).
func rank(i uint32, score float32) uint64 {
	b := math.Float32bits(score + 0) // -0 + 0 is +0
	b ^= uint32(int32(b)>>31) | 1<<31
	return uint64(b)<<32 | uint64(^i)
}

// topK keeps the k best offers in a binary min-heap whose root is the
// worst kept, without the interface calls of container/heap. The heap is
// ordered by each item's rank, kept beside it in keys: one integer
// comparison instead of better's two, which the compiler turns into
// conditional moves, where better's branches were mispredicted about
// every other level of a sift (a 1-bit scan replaces the root about ten
// thousand times a search). The kept set is the same (rank and better
// are the same total order).
type topK struct {
	k     int
	items []scored
	keys  []uint64 // keys[j] = rank(items[j])
}

func newTopK(k int) *topK {
	c := min(k, 1<<16)
	return &topK{k: k, items: make([]scored, 0, c), keys: make([]uint64, 0, c)}
}

func (t *topK) offer(i uint32, score float32) {
	x, xk := scored{i, score}, rank(i, score)
	h, keys := t.items, t.keys
	if len(h) < t.k {
		h, keys = append(h, x), append(keys, xk)
		// sift up: parents ranked above x move down into the hole
		j := len(h) - 1
		for j > 0 {
			p := (j - 1) / 2
			if keys[p] <= xk {
				break
			}
			h[j], keys[j] = h[p], keys[p]
			j = p
		}
		h[j], keys[j] = x, xk
		t.items, t.keys = h, keys
		return
	}
	if xk <= keys[0] {
		return
	}
	// sift down from the root: while x ranks above the lower of a node's
	// children, that child moves up into the hole
	n := len(h)
	j := 0
	for {
		l := 2*j + 1
		if l >= n {
			break
		}
		w := l
		if r := l + 1; r < n && keys[r] < keys[l] {
			w = r
		}
		if xk <= keys[w] {
			break
		}
		h[j], keys[j] = h[w], keys[w]
		j = w
	}
	h[j], keys[j] = x, xk
}

// bestFirst orders scored results best first (better is a total order:
// no two offers share an ordinal).
func bestFirst(a, b scored) int {
	if better(a, b) {
		return -1
	}
	return 1
}

// sorted returns the kept results, best first.
func (t *topK) sorted() []Hit {
	items := slices.Clone(t.items)
	slices.SortFunc(items, bestFirst)
	out := make([]Hit, len(items))
	for i, x := range items {
		out[i] = Hit{Ordinal: x.i, Score: x.score}
	}
	return out
}
