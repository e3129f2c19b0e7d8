package vectors

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/mmap"
)

// An inverted file (IVF) over the 1-bit codes: the vectors are split into
// lists by their nearest of a few hundred centroids (k-means on a sample),
// and a search scans the codes of the lists whose centroids are nearest
// the query instead of every code, then re-ranks as Search does. The
// search becomes approximate: a neighbour whose list is not probed is
// missed.
//
// Measured, not used: no index builds it. On the scale benchmark's 500k
// chunks with the builtin embedder, probing 44 of 707 lists found 0.41 of
// the exact 1-bit leg's top 100 (88 lists: 0.54), and the hybrid+rerank
// top 10 agreed 0.88 with the exact leg's, far from 0.99: its chunks mix
// 3 to 8 unrelated sentences, so a chunk's nearest centroid says little
// about which queries it answers (docs/performance-scale.md, "bleve's
// vector leg"). It stays, tested, for embedders whose vectors cluster.
//
// vectors.ivf, beside vectors.b1 and valid only with it (it copies its
// records):
//
//	header    "AQIV", uint32 version (1), uint32 dim, uint32 lists,
//	          uint64 count
//	          uint32 words (of a 1-bit record), uint32 zero
//	centroids lists × dim float32, unit length; zero padding to 8 bytes
//	offsets   lists+1 uint32: list l is positions offsets[l]..offsets[l+1]
//	          (zero padding to 8 bytes)
//	ordinals  count uint32, each list's in increasing order (padding to 8)
//	records   count × (1+words) uint64: the vectors.b1 record of the
//	          ordinal at the same position
//
// The records are copied in list order so that a probe reads one run of
// memory, which the scan's prefetch follows, instead of scattered codes.
const (
	ivfMagic   = "AQIV"
	ivfVersion = 1
	ivfHeader  = headerLen + 8
)

// IVFLists is how many lists BuildIVF makes for n vectors: about √n, at
// least 1.
func IVFLists(n int) int {
	return max(1, int(math.Round(math.Sqrt(float64(n)))))
}

// ivfSampleFactor is how many sampled vectors per list k-means trains on,
// and ivfIterations its rounds; ivfRefine how many centroids, picked by
// the 1-bit estimate, a vector's exact assignment chooses among; ivfSeed
// fixes the sample, so two builds of the same vectors write the same file.
const (
	ivfSampleFactor = 16
	ivfIterations   = 8
	ivfRefine       = 8
	ivfSeed         = 0x1f_c0de
)

// IVFPath names the inverted file BuildIVF writes beside the float32 file
// at path.
func IVFPath(path string) string { return codePath(path, ".ivf") }

// BuildIVF writes the inverted file for the float32 vector file at path
// and its 1-bit codes (BuildCodes first), with the given number of lists
// (IVFLists suggests one).
func BuildIVF(path string, dim, lists int) error {
	s, err := Open(path, dim)
	if err != nil {
		return errs.E("vectors.BuildIVF", err)
	}
	defer s.Close()
	return s.buildIVF(lists)
}

// buildIVF writes the inverted file of s with the given number of lists.
func (s *Store) buildIVF(lists int) error {
	const op = "vectors.BuildIVF"
	switch {
	case s.bits == nil:
		return errs.Errorf(op, errs.Invalid, "no 1-bit codes beside %s: build them with BuildCodes first", s.path)
	case lists < 1 || lists > s.n:
		return errs.FieldError(op, "lists", fmt.Sprintf("want 1..%d (the vectors), got %d", s.n, lists))
	}
	cents, err := s.trainCentroids(lists)
	if err != nil {
		return errs.E(op, err)
	}
	assign, err := s.assignLists(cents, lists)
	if err != nil {
		return errs.E(op, err)
	}
	// Counting sort by list; ordinals stay increasing within a list.
	offsets := make([]uint32, lists+1)
	for _, l := range assign {
		offsets[l+1]++
	}
	for l := range lists {
		offsets[l+1] += offsets[l]
	}
	ords := make([]uint32, s.n)
	next := slices.Clone(offsets[:lists])
	for i, l := range assign {
		ords[next[l]] = uint32(i)
		next[l]++
	}
	w, err := newCodeWriter(IVFPath(s.path))
	if err != nil {
		return errs.E(op, err)
	}
	defer w.abandon()
	w.header(ivfMagic, s.dim, uint32(lists), s.n)
	w.uint32(uint32(s.bits.words))
	w.uint32(0)
	w.floats(cents)
	w.pad(8)
	for _, o := range offsets {
		w.uint32(o)
	}
	w.pad(8)
	for _, o := range ords {
		w.uint32(o)
	}
	w.pad(8)
	stride := 1 + s.bits.words
	for _, o := range ords {
		for _, x := range s.bits.recs[int(o)*stride : (int(o)+1)*stride] {
			w.uint64(x)
		}
	}
	if err := w.commit(); err != nil {
		return errs.E(op, err)
	}
	return nil
}

// trainCentroids runs spherical k-means (dot product, unit-length
// centroids) on a seeded sample of the vectors and returns lists × dim
// centroids, back to back.
func (s *Store) trainCentroids(lists int) ([]float32, error) {
	dim := s.dim
	rng := rand.New(rand.NewPCG(ivfSeed, uint64(s.n)))
	perm := rng.Perm(s.n)
	m := min(s.n, ivfSampleFactor*lists)
	picked := slices.Clone(perm[:m])
	// Read the sample in ordinal order, then put it back in the
	// permutation's order: the first lists points seed the centroids.
	sorted := make([]uint32, m)
	for j, o := range picked {
		sorted[j] = uint32(o)
	}
	slices.Sort(sorted)
	at := make(map[uint32]int, m)
	for j, o := range picked {
		at[uint32(o)] = j
	}
	sample := make([]float32, m*dim)
	if err := s.readVectors(sorted, func(i uint32, v []float32) {
		copy(sample[at[i]*dim:], v)
	}); err != nil {
		return nil, err
	}
	cents := make([]float32, lists*dim)
	copy(cents, sample[:lists*dim])
	for l := range lists {
		normalize(cents[l*dim : (l+1)*dim])
	}
	assign := make([]int32, m)
	best := make([]float32, m)
	sums := make([]float64, lists*dim)
	counts := make([]int, lists)
	for range ivfIterations {
		parallel(m, func(from, to int) {
			for j := from; j < to; j++ {
				assign[j], best[j] = nearest(cents, sample[j*dim:(j+1)*dim], dim)
			}
		})
		clear(sums)
		clear(counts)
		for j, l := range assign {
			counts[l]++
			row := sums[int(l)*dim : int(l+1)*dim]
			for d, x := range sample[j*dim : (j+1)*dim] {
				row[d] += float64(x)
			}
		}
		// An empty list takes the sample point its centroid fits worst,
		// each such point once.
		var worst []int
		for l := range lists {
			c := cents[l*dim : (l+1)*dim]
			if counts[l] == 0 {
				if worst == nil {
					worst = make([]int, m)
					for j := range worst {
						worst[j] = j
					}
					slices.SortStableFunc(worst, func(a, b int) int {
						if best[a] < best[b] {
							return -1
						}
						if best[a] > best[b] {
							return 1
						}
						return 0
					})
				}
				copy(c, sample[worst[0]*dim:(worst[0]+1)*dim])
				worst = worst[1:]
			} else {
				for d := range c {
					c[d] = float32(sums[l*dim+d])
				}
			}
			normalize(c)
		}
	}
	return cents, nil
}

// nearest is the centroid with the highest dot product with v (ties to
// the lower list) and that product.
func nearest(cents, v []float32, dim int) (int32, float32) {
	bl, bs := int32(0), float32(math.Inf(-1))
	for l := 0; l*dim < len(cents); l++ {
		if d := dot(v, cents[l*dim:(l+1)*dim]); d > bs {
			bl, bs = int32(l), d
		}
	}
	return bl, bs
}

func normalize(v []float32) {
	var sq float64
	for _, x := range v {
		sq += float64(x) * float64(x)
	}
	if sq == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sq))
	for j := range v {
		v[j] *= inv
	}
}

// parallel splits 0..n into one contiguous range per CPU and runs work on
// each, waiting for all. Each index is computed by exactly one call, so
// results written per index do not depend on the number of CPUs.
func parallel(n int, work func(from, to int)) {
	p := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for w := range p {
		from, to := n*w/p, n*(w+1)/p
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(from, to)
		}()
	}
	wg.Wait()
}

// assignBlock is how many vectors assignLists handles at a time: their
// codes stay in cache while every centroid scores them.
const assignBlock = 2048

// assignLists returns every vector's list: the centroid with the highest
// exact dot product among the ivfRefine the 1-bit estimate ranks highest
// (every centroid when there are few).
func (s *Store) assignLists(cents []float32, lists int) ([]int32, error) {
	dim := s.dim
	ests := make([]*bitEstimator, lists)
	for l := range ests {
		ests[l] = s.bits.estimator(cents[l*dim : (l+1)*dim])
	}
	refine := min(ivfRefine, lists)
	assign := make([]int32, s.n)
	blocks := (s.n + assignBlock - 1) / assignBlock
	var mu sync.Mutex
	var first error
	parallel(blocks, func(bf, bt int) {
		short := make([]scored, 0, refine)
		top := make([][]scored, assignBlock)
		ords := make([]uint32, 0, assignBlock)
		for b := bf; b < bt; b++ {
			from, to := b*assignBlock, min(s.n, (b+1)*assignBlock)
			for i := from; i < to; i++ {
				top[i-from] = top[i-from][:0]
			}
			for l, e := range ests {
				for i := from; i < to; i++ {
					t := top[i-from]
					x := scored{uint32(l), e.score(uint32(i))}
					if len(t) < refine {
						t = append(t, x)
					} else if better(x, t[refine-1]) {
						t[refine-1] = x
					} else {
						continue
					}
					for j := len(t) - 1; j > 0 && better(t[j], t[j-1]); j-- {
						t[j], t[j-1] = t[j-1], t[j]
					}
					top[i-from] = t
				}
			}
			ords = ords[:0]
			for i := from; i < to; i++ {
				ords = append(ords, uint32(i))
			}
			err := s.readVectors(ords, func(i uint32, v []float32) {
				short = append(short[:0], top[int(i)-from]...)
				bl, bs := short[0].i, dot(v, cents[int(short[0].i)*dim:int(short[0].i+1)*dim])
				for _, c := range short[1:] {
					if d := dot(v, cents[int(c.i)*dim:int(c.i+1)*dim]); d > bs || (d == bs && c.i < bl) {
						bl, bs = c.i, d
					}
				}
				assign[i] = int32(bl)
			})
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				return
			}
		}
	})
	return assign, first
}

// ivfLists is a mapped vectors.ivf.
type ivfLists struct {
	m       []byte
	lists   int
	cents   []float32
	offsets []uint32
	ords    []uint32
	recs    []uint64
	stride  int // uint64s per record
}

// openIVF maps the inverted file at path; a missing file is none.
func openIVF(path string, dim, n, words int) (*ivfLists, error) {
	m, err := mmap.Map(path)
	if errs.Is(errs.NotFound, err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	lists, err := readHeader(m, path, ivfMagic, dim, n)
	if err == nil && len(m) >= ivfHeader && int(binary.LittleEndian.Uint32(m[headerLen:])) != words {
		err = errs.Errorf("", errs.Invalid, "%s has %d words per record, the 1-bit codes %d: rebuild it", path, binary.LittleEndian.Uint32(m[headerLen:]), words)
	}
	pad := func(x int) int { return (x + 7) &^ 7 }
	centsAt := ivfHeader
	offAt := pad(centsAt + 4*dim*int(lists))
	ordAt := pad(offAt + 4*(int(lists)+1))
	recAt := pad(ordAt + 4*n)
	want := recAt + 8*n*(1+words)
	if err == nil && (lists < 1 || len(m) != want) {
		err = errs.Errorf("", errs.Invalid, "%s has %d bytes and %d lists, want %d bytes for %d vectors: rebuild it", path, len(m), lists, want, n)
	}
	if err != nil {
		mmap.Unmap(m)
		return nil, err
	}
	v := &ivfLists{m: m, lists: int(lists), stride: 1 + words}
	// The map is page-aligned and every part starts at a multiple of 8.
	v.cents = unsafe.Slice((*float32)(unsafe.Pointer(&m[centsAt])), dim*int(lists))
	v.offsets = unsafe.Slice((*uint32)(unsafe.Pointer(&m[offAt])), int(lists)+1)
	if n > 0 {
		v.ords = unsafe.Slice((*uint32)(unsafe.Pointer(&m[ordAt])), n)
		v.recs = unsafe.Slice((*uint64)(unsafe.Pointer(&m[recAt])), n*(1+words))
	}
	if v.offsets[0] != 0 || int(v.offsets[lists]) != n || !slices.IsSorted(v.offsets) {
		mmap.Unmap(m)
		return nil, errs.Errorf("", errs.Invalid, "%s: damaged list offsets: rebuild it", path)
	}
	return v, nil
}

func (v *ivfLists) mapped() []byte {
	if v == nil {
		return nil
	}
	return v.m
}

// HasIVF reports whether the store has an inverted file (BuildIVF).
func (s *Store) HasIVF() bool { return s.ivf != nil }

// IVFListCount is the inverted file's number of lists, 0 without one.
func (s *Store) IVFListCount() int {
	if s.ivf == nil {
		return 0
	}
	return s.ivf.lists
}

// SearchIVF is Search with Bit codes over the inverted file: it scans the
// codes of the probes lists whose centroids have the highest dot product
// with query, and of further lists, nearest first, until the allowed
// vectors scanned number k×overfetch (so a caller who sees few vectors
// still gets its candidates), keeps the best k×overfetch by estimate and
// re-ranks them exactly. allowed holds the ordinals the caller may see
// (nil: all); no other ordinal is scored or returned. It fails with
// errs.Unsupported without an inverted file.
func (s *Store) SearchIVF(ctx context.Context, query []float32, allowed *roaring.Bitmap, k, overfetch, probes int) ([]Hit, error) {
	const op = "vectors.SearchIVF"
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch {
	case s.closed:
		return nil, errs.Errorf(op, errs.Invalid, "the store for %s is closed", s.path)
	case s.ivf == nil:
		return nil, errs.Errorf(op, errs.Unsupported, "no inverted file beside %s: build it with BuildIVF", s.path)
	case len(query) != s.dim:
		return nil, errs.Errorf(op, errs.Invalid, "query vector has %d dimensions, the store %d", len(query), s.dim)
	case !finite(query):
		return nil, errs.FieldError(op, "query", "has a NaN or infinite component")
	case overfetch < 1:
		return nil, errs.FieldError(op, "overfetch", fmt.Sprintf("want ≥ 1, got %d", overfetch))
	case probes < 1:
		return nil, errs.FieldError(op, "probes", fmt.Sprintf("want ≥ 1, got %d", probes))
	case allowed != nil && !allowed.IsEmpty() && int(allowed.Maximum()) >= s.n:
		return nil, errs.FieldError(op, "allowed", fmt.Sprintf("holds ordinal %d, the store has %d vectors", allowed.Maximum(), s.n))
	case k < 1 || s.n == 0:
		return nil, nil
	}
	v := s.ivf
	order := v.nearestLists(query, s.dim)
	est := s.bits.estimator(query)
	want := k * overfetch
	cand := newTopK(want)
	scanned := 0
	for p, l := range order {
		if p >= probes && scanned >= want {
			break
		}
		if ctx.Err() != nil {
			return nil, errs.E(op, errs.Timeout, ctx.Err())
		}
		from, to := int(v.offsets[l]), int(v.offsets[l+1])
		ords := v.ords[from:to]
		recs := v.recs[from*v.stride : to*v.stride]
		for j, o := range ords {
			if allowed != nil && !allowed.Contains(o) {
				continue
			}
			cand.offer(o, est.scoreRecord(recs[j*v.stride:(j+1)*v.stride]))
			scanned++
		}
	}
	ords := make([]uint32, len(cand.items))
	for j, c := range cand.items {
		ords[j] = c.i
	}
	slices.Sort(ords)
	return s.rescore(query, ords, k)
}

// nearestLists is every list, by decreasing dot product of its centroid
// with q (ties to the lower list).
func (v *ivfLists) nearestLists(q []float32, dim int) []int {
	sc := make([]scored, v.lists)
	for l := range sc {
		sc[l] = scored{uint32(l), dot(q, v.cents[l*dim:(l+1)*dim])}
	}
	slices.SortFunc(sc, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	out := make([]int, len(sc))
	for j, x := range sc {
		out[j] = int(x.i)
	}
	return out
}
