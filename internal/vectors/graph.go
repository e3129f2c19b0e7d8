package vectors

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/mmap"
)

// The graph index: a navigable neighbour graph over the vectors (one
// layer, in the manner of HNSW's bottom layer and of Vamana), so a search
// reads the codes of a few thousand vectors near the query instead of
// every visible code.
//
// Why not github.com/coder/hnsw (v0.6.1): its graph operations are all
// in memory, each node holding its vector — at 500k vectors of 768
// dimensions another 1.5 GB per worker, against a 1.5 GB budget for the
// whole worker — so nothing can be memory-mapped; its Search takes no
// filter for a caller's visible set; and its layers are drawn at random,
// where an index build must give the same bytes from the same corpus.
// This graph stores only adjacency (count × GraphDegree uint32s, 64 MB
// at 500k), is mapped read-only like the codes, scores its walk with the
// 1-bit codes already mapped for the scan, filters by the caller's
// visible set, and is built deterministically.
//
// On the scale benchmark's corpus its recall is too low to use (see
// docs/performance-scale.md, "bleve's vector leg: a graph index"), and
// the bleve index does not build or walk it.
//
// vectors.g1, all numbers little-endian:
//
//	header    "AQG1", uint32 version (1), uint32 degree, uint32 entry,
//	          uint64 count, uint64 codes fingerprint (of vectors.b1),
//	          uint32 CRC-32C of the adjacency, uint32 zero
//	adjacency count × degree uint32 ordinals; a list shorter than
//	          degree is padded with 0xFFFFFFFF
const (
	graphMagic     = "AQG1"
	graphVersion   = 1
	graphHeaderLen = 40
	noNeighbour    = ^uint32(0)
)

// GraphDegree is the most neighbours a vector keeps, GraphBuildBeam the
// beam width of the search that finds them while building, and
// graphAlpha the pruning slack: a candidate c is dropped when a kept
// neighbour r is nearer to it than graphAlpha⁻¹ times v's distance, in
// Hamming distance between the 1-bit codes (Vamana's rule; values
// measured on the scale benchmark's corpus, docs/performance-scale.md).
const (
	GraphDegree    = 32
	GraphBuildBeam = 64
	graphAlpha     = 1.2
)

// DefaultGraphBeam is the search-time beam width of a graph search when
// the bleve index walks the graph (switched off). No width measured
// reaches the recall@100 of 0.95 aimed at on the scale benchmark's corpus
// (0.38 at 256, 0.57 at 2,048, 500k vectors; docs/performance-scale.md,
// "a graph index"); at 256 the walk took about half the scan's time.
const DefaultGraphBeam = 256

// graphSeedStride: a graph search first scores every graphSeedStride-th
// vector's code and starts from the best of them, and graphBuildSeeds is
// how many a build's searches sample. The scale corpus's chunks are
// several unrelated sentences each, so a query's nearest chunks (those
// sharing one of its sentences) are not near one another and a walk from
// one entry point finds few of them; a sample reaches each group.
const (
	graphSeedStride = 16
	graphBuildSeeds = 1024
)

// GraphPath names the graph file BuildGraph writes beside the float32
// file at path.
func GraphPath(path string) string { return codePath(path, ".g1") }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// codesFingerprint identifies a 1-bit code file: its header, rotation and
// mean, and a sample of 1,024 records spread over it. A graph built over
// other codes (a rebuilt index) is refused at open.
func codesFingerprint(b *bitCodes, n int) uint64 {
	h := fnv.New64a()
	body := len(b.m) - n*8*(1+b.words)
	h.Write(b.m[:body])
	var buf [8]byte
	step := max(1, n/1024)
	for i := 0; i < n; i += step {
		for _, w := range b.recs[i*(1+b.words) : (i+1)*(1+b.words)] {
			binary.LittleEndian.PutUint64(buf[:], w)
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}

// graph is a mapped vectors.g1.
type graph struct {
	m      []byte
	degree int
	entry  uint32
	adj    []uint32
}

// openGraph maps the graph at path; a missing file is no graph. The
// graph needs the 1-bit codes it was built over.
func openGraph(path string, n int, b *bitCodes) (*graph, error) {
	m, err := mmap.Map(path)
	if errs.Is(errs.NotFound, err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	g, err := checkGraph(m, path, n, b)
	if err != nil {
		mmap.Unmap(m)
		return nil, err
	}
	return g, nil
}

func checkGraph(m []byte, path string, n int, b *bitCodes) (*graph, error) {
	le := binary.LittleEndian
	if len(m) < graphHeaderLen || string(m[:4]) != graphMagic {
		return nil, errs.Errorf("", errs.Invalid, "%s is not a vector graph file", path)
	}
	if v := le.Uint32(m[4:]); v != graphVersion {
		return nil, errs.Errorf("", errs.Invalid, "%s has graph version %d, want %d: rebuild it", path, v, graphVersion)
	}
	if b == nil {
		return nil, errs.Errorf("", errs.Conflict, "%s has no 1-bit codes beside it to search with: rebuild the codes and the graph", path)
	}
	degree, entry, count := int(le.Uint32(m[8:])), le.Uint32(m[12:]), le.Uint64(m[16:])
	if count != uint64(n) {
		return nil, errs.Errorf("", errs.Conflict, "%s is a graph of %d vectors, the vector file holds %d: rebuild the graph", path, count, n)
	}
	if fp := le.Uint64(m[24:]); fp != codesFingerprint(b, n) {
		return nil, errs.Errorf("", errs.Conflict, "%s was built over other 1-bit codes than the ones beside it: rebuild the graph", path)
	}
	if degree < 1 || degree > 1024 {
		return nil, errs.Errorf("", errs.Invalid, "%s has degree %d, want 1..1024", path, degree)
	}
	if want := graphHeaderLen + n*degree*4; len(m) != want {
		return nil, errs.Errorf("", errs.Invalid, "%s has %d bytes, want %d for %d vectors of degree %d: rebuild it", path, len(m), want, n, degree)
	}
	if n > 0 && int(entry) >= n {
		return nil, errs.Errorf("", errs.Invalid, "%s has entry point %d, beyond its %d vectors", path, entry, n)
	}
	if crc := crc32.Checksum(m[graphHeaderLen:], castagnoli); crc != le.Uint32(m[32:]) {
		return nil, errs.Errorf("", errs.Invalid, "%s is damaged (its adjacency checksum does not match): rebuild it", path)
	}
	g := &graph{m: m, degree: degree, entry: entry}
	if n > 0 {
		// The map is page-aligned and the header a multiple of 4 bytes.
		g.adj = unsafe.Slice((*uint32)(unsafe.Pointer(&m[graphHeaderLen])), n*degree)
	}
	return g, nil
}

func (g *graph) mapped() []byte {
	if g == nil {
		return nil
	}
	return g.m
}

// neighbours is v's list, padded with noNeighbour.
func (g *graph) neighbours(v uint32) []uint32 {
	return g.adj[int(v)*g.degree : (int(v)+1)*g.degree]
}

// visitedSet is a bitset over the ordinals that remembers which words it
// set, so clearing it costs what the search touched.
type visitedSet struct {
	words   []uint64
	touched []int32
}

func (s *visitedSet) reset(n int) {
	if len(s.words) < (n+63)/64 {
		s.words = make([]uint64, (n+63)/64)
		s.touched = s.touched[:0]
		return
	}
	for _, w := range s.touched {
		s.words[w] = 0
	}
	s.touched = s.touched[:0]
}

// visit marks i and reports whether it was unmarked.
func (s *visitedSet) visit(i uint32) bool {
	w, bit := i/64, uint64(1)<<(i%64)
	x := s.words[w]
	if x&bit != 0 {
		return false
	}
	if x == 0 {
		s.touched = append(s.touched, int32(w))
	}
	s.words[w] = x | bit
	return true
}

var visitedPool sync.Pool

// frontier is a max-heap of scored ordinals: the next to expand on top.
type frontier []scored

func (f *frontier) push(x scored) {
	h := append(*f, x)
	j := len(h) - 1
	for j > 0 {
		p := (j - 1) / 2
		if !better(h[j], h[p]) {
			break
		}
		h[p], h[j] = h[j], h[p]
		j = p
	}
	*f = h
}

func (f *frontier) pop() scored {
	h := *f
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	j := 0
	for {
		l := 2*j + 1
		if l >= len(h) {
			break
		}
		w := l
		if r := l + 1; r < len(h) && better(h[r], h[l]) {
			w = r
		}
		if !better(h[w], h[j]) {
			break
		}
		h[j], h[w] = h[w], h[j]
		j = w
	}
	*f = h
	return top
}

// beamSearch walks the graph from the seeds (scored already, and
// already offered to pool by the caller) towards the query that score
// estimates, keeping the beam best vectors seen (visible or not: hidden
// vectors only route), and offers every vector it scores that keep
// accepts to pool. Vectors for which sampled is true were scored by the
// caller and are not scored again. neighbours returns a vector's list
// (noNeighbour entries are skipped). It returns the beam, best first,
// and how many vectors it scored.
func beamSearch(ctx context.Context, seeds []scored, beam int, score func(uint32) float32,
	neighbours func(uint32) []uint32, n int, sampled, keep func(uint32) bool, pool *topK) ([]scored, int, error) {
	vp, _ := visitedPool.Get().(*visitedSet)
	if vp == nil {
		vp = &visitedSet{}
	}
	defer visitedPool.Put(vp)
	vp.reset(n)
	best := newTopK(beam)
	for _, x := range seeds {
		if x.i < uint32(n) && vp.visit(x.i) {
			best.offer(x.i, x.score)
		}
	}
	next := frontier(slices.Clone(best.items))
	slices.SortFunc(next, func(a, b scored) int { // a sorted array is a heap
		if better(a, b) {
			return -1
		}
		return 1
	})
	scoredN := 0
	for expanded := 0; len(next) > 0; expanded++ {
		if expanded%256 == 255 && ctx.Err() != nil {
			return nil, scoredN, errs.E(errs.Timeout, ctx.Err())
		}
		c := next.pop()
		if len(best.items) == best.k && better(best.items[0], c) {
			break // the best unexpanded is worse than the whole beam
		}
		for _, u := range neighbours(c.i) {
			if u >= uint32(n) || !vp.visit(u) || (sampled != nil && sampled(u)) {
				continue
			}
			s := score(u)
			scoredN++
			x := scored{u, s}
			if pool != nil && keep(u) {
				pool.offer(u, s)
			}
			if len(best.items) < best.k || better(x, best.items[0]) {
				best.offer(u, s)
				next.push(x)
			}
		}
	}
	out := slices.Clone(best.items)
	slices.SortFunc(out, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	return out, scoredN, nil
}

// graphWalkInt8 scores a graph search's walk with the int8 codes instead
// of the 1-bit ones (an experiment; see docs/performance-scale.md).
var graphWalkInt8 = false

// HasGraph reports whether the store has a graph index (GraphPath).
func (s *Store) HasGraph() bool { return s.g != nil }

// SearchGraph is Search with Type Bit over the graph index instead of a
// scan of every allowed code: a beam search of width beam over the graph,
// scoring with the 1-bit codes, offers the allowed vectors it visits to
// the k×overfetch candidates, which are narrowed and re-ranked as Search
// does (int8, then float32). Vectors the caller may not see route the
// walk but are never candidates, so every result and score comes from
// allowed vectors; which allowed vectors are found is approximate (the
// graph was built over every vector). A store without a graph fails
// with errs.Unsupported.
func (s *Store) SearchGraph(ctx context.Context, query []float32, allowed *roaring.Bitmap, k, overfetch, beam int) ([]Hit, error) {
	const op = "vectors.SearchGraph"
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch {
	case s.closed:
		return nil, errs.Errorf(op, errs.Invalid, "the store for %s is closed", s.path)
	case s.g == nil:
		return nil, errs.Errorf(op, errs.Unsupported, "no graph beside %s: build it with BuildGraph", s.path)
	case len(query) != s.dim:
		return nil, errs.Errorf(op, errs.Invalid, "query vector has %d dimensions, the store %d", len(query), s.dim)
	case !finite(query):
		return nil, errs.FieldError(op, "query", "has a NaN or infinite component")
	case overfetch < 1:
		return nil, errs.FieldError(op, "overfetch", fmt.Sprintf("want ≥ 1, got %d", overfetch))
	case beam < 1:
		return nil, errs.FieldError(op, "beam", fmt.Sprintf("want ≥ 1, got %d", beam))
	case allowed != nil && !allowed.IsEmpty() && int(allowed.Maximum()) >= s.n:
		return nil, errs.FieldError(op, "allowed", fmt.Sprintf("holds ordinal %d, the store has %d vectors", allowed.Maximum(), s.n))
	case k < 1 || s.n == 0:
		return nil, nil
	}
	score := s.bits.estimator(query).score
	if graphWalkInt8 && s.i8 != nil {
		score = s.i8.estimator(query).score
	}
	keep := func(uint32) bool { return true }
	if allowed != nil {
		keep = allowed.Contains
	}
	cand := newTopK(k * overfetch)
	// Seeds: the best beam of a sample of every graphSeedStride-th vector
	// (hidden ones route too; only visible ones are candidates).
	seeds := newTopK(beam)
	stride := uint32(graphSeedStride)
	for i := uint32(0); i < uint32(s.n); i += stride {
		if i%(checkEvery*stride) == 0 && ctx.Err() != nil {
			return nil, errs.E(op, errs.Timeout, ctx.Err())
		}
		x := score(i)
		seeds.offer(i, x)
		if keep(i) {
			cand.offer(i, x)
		}
	}
	sampled := func(u uint32) bool { return u%stride == 0 }
	_, _, err := beamSearch(ctx, seeds.items, beam, score, s.g.neighbours, s.n, sampled, keep, cand)
	if err != nil {
		return nil, errs.E(op, err)
	}
	return s.finish(query, cand, k)
}

// finish narrows a 1-bit search's candidates by their int8 codes (when
// the store has them) and re-ranks the rest in float32.
func (s *Store) finish(query []float32, cand *topK, k int) ([]Hit, error) {
	ords := make([]uint32, len(cand.items))
	for j, c := range cand.items {
		ords[j] = c.i
	}
	if s.i8 != nil && len(ords) > k*Int8Narrow {
		ords = s.narrowInt8(query, ords, k*Int8Narrow)
	}
	slices.Sort(ords)
	return s.rescore(query, ords, k)
}

// hamming is the number of differing sign bits between records a and b.
func (c *bitCodes) hamming(a, b uint32) int {
	w := c.words
	ra := c.recs[int(a)*(1+w)+1 : (int(a)+1)*(1+w)]
	rb := c.recs[int(b)*(1+w)+1 : (int(b)+1)*(1+w)]
	d := 0
	for j, x := range ra {
		d += bits.OnesCount64(x ^ rb[j])
	}
	return d
}

// graphBatch bounds how many vectors are inserted together: the vectors
// of a batch search the graph as it was before the batch, in parallel,
// then their edges are added in ordinal order, so the graph is the same
// whatever the number of CPUs.
const graphBatch = 512

// BuildGraph builds the graph index over the vectors at path (dim
// float32s each) and their codes (BuildCodes must have run) and writes it
// beside them (GraphPath), replacing an older one. The same vectors give
// the same bytes on any machine with the same float arithmetic.
//
// Each vector, in ordinal order (the entry point first), searches the
// graph built so far with a beam of GraphBuildBeam, scoring the 1-bit
// codes; the vectors found are re-scored with their int8 codes and
// pruned so that the neighbours point different ways (a candidate
// nearer, by Hamming distance of codes, to a kept neighbour than to v
// is dropped, with slack graphAlpha; the best dropped ones refill the
// list up to GraphDegree); each kept neighbour links back, replacing its
// worst link when full.
func BuildGraph(path string, dim int) error {
	return buildGraph(path, dim, GraphDegree, GraphBuildBeam)
}

func buildGraph(path string, dim, R, buildBeam int) error {
	const op = "vectors.BuildGraph"
	if R < 1 || R > 255 {
		return errs.FieldError(op, "degree", fmt.Sprintf("want 1..255, got %d", R))
	}
	s, err := Open(path, dim)
	if err != nil {
		return errs.E(op, err)
	}
	defer s.Close()
	if s.bits == nil || s.i8 == nil {
		return errs.Errorf(op, errs.Invalid, "no codes beside %s: run BuildCodes first", path)
	}
	n := s.n
	adj := make([]uint32, n*R)
	sims := make([]float32, n*R)
	deg := make([]uint8, n)
	for i := range adj {
		adj[i] = noNeighbour
	}
	// The entry point: the vector whose int8 estimate against the corpus
	// mean is highest (the codes' mean, as stored).
	var entry uint32
	if n > 0 {
		est := s.i8.estimator(s.bits.mean)
		bestS := est.score(0)
		for i := 1; i < n; i++ {
			if x := est.score(uint32(i)); x > bestS {
				entry, bestS = uint32(i), x
			}
		}
	}
	order := make([]uint32, 0, n)
	if n > 0 {
		order = append(order, entry)
	}
	for i := range n {
		if uint32(i) != entry {
			order = append(order, uint32(i))
		}
	}
	neighbours := func(v uint32) []uint32 { return adj[int(v)*R : int(v)*R+int(deg[v])] }
	type choice struct {
		ords []uint32
		sims []float32
	}
	workers := runtime.GOMAXPROCS(0)
	vecBuf := make([]float32, graphBatch*dim)
	choices := make([]choice, graphBatch)
	inserted := 0
	if n > 0 {
		inserted = 1 // the entry point, alone
	}
	for inserted < n {
		size := min(graphBatch, max(1, inserted/8), n-inserted)
		batch := order[inserted : inserted+size]
		sorted := slices.Clone(batch)
		slices.Sort(sorted)
		at := make(map[uint32]int, size)
		j := 0
		if err := s.readVectors(sorted, func(i uint32, v []float32) {
			copy(vecBuf[j*dim:], v)
			at[i] = j
			j++
		}); err != nil {
			return errs.E(op, err)
		}
		var wg sync.WaitGroup
		var firstErr error
		var errMu sync.Mutex
		next := 0
		var nextMu sync.Mutex
		for range min(workers, size) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					nextMu.Lock()
					b := next
					next++
					nextMu.Unlock()
					if b >= size {
						return
					}
					v := batch[b]
					q := vecBuf[at[v]*dim : (at[v]+1)*dim]
					est := s.bits.estimator(q)
					// Seeds: the entry point and a sample of up to
					// graphBuildSeeds vectors inserted so far.
					seeds := newTopK(buildBeam)
					seeds.offer(entry, est.score(entry))
					step := max(1, inserted/graphBuildSeeds)
					for t := 1; t < inserted; t += step {
						u := order[t]
						seeds.offer(u, est.score(u))
					}
					found, _, err := beamSearch(context.Background(), seeds.items, buildBeam, est.score, neighbours, n, nil, nil, nil)
					if err != nil {
						errMu.Lock()
						firstErr = err
						errMu.Unlock()
						return
					}
					choices[b] = s.selectNeighbours(v, q, found, R)
				}
			}()
		}
		wg.Wait()
		if firstErr != nil {
			return errs.E(op, firstErr)
		}
		for b, v := range batch {
			c := choices[b]
			base := int(v) * R
			copy(adj[base:], c.ords)
			copy(sims[base:], c.sims)
			deg[v] = uint8(len(c.ords))
			for t, u := range c.ords {
				linkBack(adj, sims, deg, R, u, v, c.sims[t])
			}
		}
		inserted += size
	}
	return writeGraph(GraphPath(path), s, adj, R, entry)
}

// selectNeighbours picks v's neighbours among the beam's vectors: re-scored
// with int8 codes, then pruned for direction (see BuildGraph).
func (s *Store) selectNeighbours(v uint32, q []float32, found []scored, R int) (c struct {
	ords []uint32
	sims []float32
}) {
	est := s.i8.estimator(q)
	cands := make([]scored, 0, len(found))
	for _, f := range found {
		if f.i != v {
			cands = append(cands, scored{f.i, est.score(f.i)})
		}
	}
	slices.SortFunc(cands, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	var kept, dropped []scored
	for _, x := range cands {
		if len(kept) == R {
			break
		}
		dv := float64(s.bits.hamming(x.i, v))
		ok := true
		for _, r := range kept {
			if graphAlpha*float64(s.bits.hamming(x.i, r.i)) <= dv {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, x)
		} else {
			dropped = append(dropped, x)
		}
	}
	for _, x := range dropped {
		if len(kept) == R {
			break
		}
		kept = append(kept, x)
	}
	for _, x := range kept {
		c.ords = append(c.ords, x.i)
		c.sims = append(c.sims, x.score)
	}
	return c
}

// linkBack adds the edge u→v (similarity sim) to u's list, replacing its
// least similar link when the list is full and sim beats it.
func linkBack(adj []uint32, sims []float32, deg []uint8, R int, u, v uint32, sim float32) {
	base := int(u) * R
	d := int(deg[u])
	if slices.Contains(adj[base:base+d], v) {
		return
	}
	if d < R {
		adj[base+d], sims[base+d] = v, sim
		deg[u]++
		return
	}
	worst := 0
	for t := 1; t < R; t++ {
		if better(scored{adj[base+worst], sims[base+worst]}, scored{adj[base+t], sims[base+t]}) {
			worst = t
		}
	}
	if better(scored{v, sim}, scored{adj[base+worst], sims[base+worst]}) {
		adj[base+worst], sims[base+worst] = v, sim
	}
}

func writeGraph(path string, s *Store, adj []uint32, R int, entry uint32) error {
	const op = "vectors.BuildGraph"
	w, err := newCodeWriter(path)
	if err != nil {
		return errs.E(op, err)
	}
	defer w.abandon()
	body := make([]byte, 4*len(adj))
	for i, x := range adj {
		binary.LittleEndian.PutUint32(body[4*i:], x)
	}
	w.bytes([]byte(graphMagic))
	w.uint32(graphVersion)
	w.uint32(uint32(R))
	w.uint32(entry)
	w.uint64(uint64(s.n))
	w.uint64(codesFingerprint(s.bits, s.n))
	w.uint32(crc32.Checksum(body, castagnoli))
	w.uint32(0)
	w.bytes(body)
	if err := w.commit(); err != nil {
		return errs.E(op, err)
	}
	return nil
}

// removeGraph deletes a graph file left from an earlier build; for
// builders that skip the graph.
func removeGraph(path string) error {
	if err := os.Remove(GraphPath(path)); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
