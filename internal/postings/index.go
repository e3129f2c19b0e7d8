// Package postings is an on-disk, memory-mapped inverted index for BM25
// top-k retrieval with per-caller statistics.
//
// Chunks are numbered by ordinal. A caller sees the chunks whose ACL shares
// a group with its groups; every statistic it is scored with (chunk count,
// document frequencies, average length) comes from that visible set only
// (see internal/backend/parts.go for the rule). Metadata filters arrive as
// a bitmap of allowed ordinals and restrict candidates without changing
// the statistics. The average length is the mean length in tokens of the
// visible chunks (Lucene's definition), and a chunk's length in its BM25
// norm is its length in tokens too.
//
// Scores are bleve's BM25 formula exactly as backend.BM25Query computes
// it; top-k uses MaxScore with per-block bounds (blocks of
// BlockSize postings), so a query neither scores every match nor decodes
// every block, and its results equal exhaustive scoring (ties broken by
// ordinal).
package postings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/vellum"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/mmap"
)

// Index is an open index. Its files are memory-mapped read-only; it is
// safe for concurrent use.
type Index struct {
	dir   string
	meta  meta
	maps  [][]byte // every mapping, for Close
	fst   *vellum.FST
	terms []byte // terms.bin
	post  []byte // postings.bin
	bms   []byte // bitmaps.bin
	norms []byte // norms.bin
	lens  lengths
	// groups are the groups' chunk bitmaps, by name.
	groups map[string]*roaring.Bitmap
	all    *Visible
	cache  *lru.Cache[string, *Visible]
	held   *sync.Pool // Holdings' scratch
	closed sync.Once
}

// DefaultCacheSize is how many visible sets (one per distinct group set)
// Open keeps.
const DefaultCacheSize = 256

// Open memory-maps the index in dir. cacheSize bounds the visible sets kept
// (least recently used first out); 0 means DefaultCacheSize.
func Open(dir string, cacheSize int) (*Index, error) {
	const op = "postings.Open"
	if cacheSize <= 0 {
		cacheSize = DefaultCacheSize
	}
	ix := &Index{dir: dir, groups: map[string]*roaring.Bitmap{}}
	js, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return nil, errs.E(op, err)
	}
	if err := json.Unmarshal(js, &ix.meta); err != nil {
		return nil, errs.Errorf(op, errs.Invalid, "%s: %s: %v", dir, metaFile, err)
	}
	if ix.meta.Version < oldestVersion || ix.meta.Version > formatVersion || ix.meta.BlockSize != BlockSize {
		return nil, errs.Errorf(op, errs.Invalid, "%s: format version %d, block size %d; this build reads versions %d to %d, block size %d: rebuild it", dir, ix.meta.Version, ix.meta.BlockSize, oldestVersion, formatVersion, BlockSize)
	}
	for _, f := range []struct {
		p    *[]byte
		name string
	}{{&ix.terms, termsFile}, {&ix.post, postingsFile}, {&ix.bms, bitmapsFile}, {&ix.norms, normsFile}} {
		if *f.p, err = ix.mmap(f.name); err != nil {
			ix.Close()
			return nil, errs.E(op, err)
		}
	}
	fstBytes, err := ix.mmap(fstFile)
	if err == nil {
		ix.fst, err = vellum.Load(fstBytes)
	}
	if err != nil {
		ix.Close()
		return nil, errs.Errorf(op, errs.Invalid, "%s: %s: %v", dir, fstFile, err)
	}
	switch {
	case len(ix.terms) != int(ix.meta.Terms)*termRecordSize:
		err = errs.Errorf(op, errs.Invalid, "%s: %s holds %d bytes, %d terms need %d: rebuild it", dir, termsFile, len(ix.terms), ix.meta.Terms, int(ix.meta.Terms)*termRecordSize)
	case len(ix.norms) != int(ix.meta.Chunks)*4:
		err = errs.Errorf(op, errs.Invalid, "%s: %s holds %d bytes, %d chunks need %d: rebuild it", dir, normsFile, len(ix.norms), ix.meta.Chunks, int(ix.meta.Chunks)*4)
	}
	for _, g := range ix.meta.Groups {
		if err != nil {
			break
		}
		ix.groups[g.Name], err = ix.bitmapAt(g.Docs[0], g.Docs[1])
	}
	if err != nil {
		ix.Close()
		return nil, errs.E(op, err)
	}
	all := roaring.New()
	all.AddRange(0, uint64(ix.meta.Chunks))
	ix.lens = readLengths(ix.norms, ix.Len())
	ix.all = &Visible{ix: ix, docs: all, full: true, n: ix.Len(), avgdl: avgLen(ix.lens.total, ix.Len())}
	ix.cache, _ = lru.New[string, *Visible](cacheSize) // errs only for a size ≤ 0
	ix.held = heldPool()
	return ix, nil
}

func (ix *Index) mmap(name string) ([]byte, error) {
	b, err := mmap.Map(filepath.Join(ix.dir, name))
	if err != nil {
		return nil, err
	}
	ix.maps = append(ix.maps, b)
	return b, nil
}

// bitmapAt reads the roaring bitmap at [off, off+n) of bitmaps.bin in place.
func (ix *Index) bitmapAt(off, n uint64) (*roaring.Bitmap, error) {
	if off+n > uint64(len(ix.bms)) || off+n < off {
		return nil, errs.Errorf("postings", errs.Invalid, "%s: a bitmap at %d+%d lies past the end of %s (%d bytes): rebuild it", ix.dir, off, n, bitmapsFile, len(ix.bms))
	}
	bm := roaring.New()
	if _, err := bm.FromBuffer(ix.bms[off : off+n]); err != nil {
		return nil, errs.Errorf("postings", errs.Invalid, "%s: %s at %d: %v", ix.dir, bitmapsFile, off, err)
	}
	return bm, nil
}

// Close unmaps the files. Nothing read from the index may be used after.
func (ix *Index) Close() error {
	var err error
	ix.closed.Do(func() {
		for _, b := range ix.maps {
			if e := mmap.Unmap(b); e != nil && err == nil {
				err = errs.E("postings.Close", e)
			}
		}
		ix.maps = nil
	})
	return err
}

// Len is the number of chunks.
func (ix *Index) Len() int { return int(ix.meta.Chunks) }

// term looks term up; ok is false when no chunk holds it.
func (ix *Index) term(t string) (termRecord, bool) {
	id, ok, err := ix.fst.Get([]byte(t))
	if err != nil || !ok || id >= uint64(ix.meta.Terms) {
		return termRecord{}, false
	}
	return getTerm(ix.terms[id*termRecordSize:]), true
}

// termDocs is the bitmap of the chunks holding a term.
func (ix *Index) termDocs(r termRecord) *roaring.Bitmap {
	bm, err := ix.bitmapAt(r.bitmapOff, r.bitmapLen)
	if err != nil {
		return roaring.New() // a corrupt file; Open checked the table sizes
	}
	return bm
}

// length is chunk ord's length in tokens, from its stored norm (decoded
// at Open).
func (ix *Index) length(ord uint32) float64 { return float64(ix.lens.of[ord]) }

// Visible is the set of chunks one group set may see and its statistics.
// It is immutable and shared between callers with the same groups.
type Visible struct {
	ix    *Index
	docs  *roaring.Bitmap
	full  bool // every chunk: use the statistics stored at build
	n     int
	avgdl float64

	denseOnce sync.Once
	dense     []uint64 // docs as a bitset of the index's length, made at the first search that reads it

	// dfs memoizes docFreq for a restricted set: term (by its bitmap's
	// offset, unique to it) → visible chunks holding it. A question asks
	// the same terms' visible counts five or six times (the retriever's
	// weights, BM25's, the assessor's weights, rewrites and spelling)
	// and the questions of a corpus share their common terms, whose
	// bitmaps are the costly ones to intersect. At most maxKeptDFs.
	dfMu sync.RWMutex
	dfs  map[uint64]int32
}

// maxKeptDFs bounds a Visible's docFreq memo (a full one is a Go map of
// 8,192 uint64 → int32 entries: about 36 bytes an entry, 296 KB, with
// Go 1.26's maps; the cache keeps up to 256 Visibles, so at most ~76 MB
// in all). Once full it keeps what it holds and computes the rest.
const maxKeptDFs = 8192

// Visible returns the chunks visible to groups (those whose ACL shares a
// group with them) and their statistics. Results are cached per distinct
// group set. The average length is the visible chunks' total length in
// tokens (from the bit-sliced lengths, see lengths) over their count, so
// no posting list is read and no pass is made over the chunks.
func (ix *Index) Visible(groups []string) *Visible {
	gs := slices.Sorted(slices.Values(groups))
	gs = slices.Compact(gs)
	key := strings.Join(gs, "\x00")
	if v, ok := ix.cache.Get(key); ok {
		return v
	}
	v := ix.visible(gs)
	ix.cache.Add(key, v)
	return v
}

// visible computes the visible set of sorted, distinct groups.
func (ix *Index) visible(gs []string) *Visible {
	var docs []*roaring.Bitmap
	for _, g := range gs {
		if d, ok := ix.groups[g]; ok {
			docs = append(docs, d)
		}
	}
	v := &Visible{ix: ix, docs: roaring.FastOr(docs...)}
	v.n = int(v.docs.GetCardinality())
	if v.n == ix.Len() {
		return ix.all
	}
	v.avgdl = avgLen(ix.lens.sum(v.docs), v.n)
	return v
}

// denseDocs is docs as a bitset over the whole index (bit i of word i/64:
// chunk i is visible), made once: a search that scores most visible
// chunks tests each posting against it (maxScoreWindows) instead of
// probing the bitmap for each chunk it scores.
func (v *Visible) denseDocs() []uint64 {
	v.denseOnce.Do(func() { v.dense = denseOf(v.docs, v.ix.Len()) })
	return v.dense
}

// denseOf is b as a bitset covering ordinals below n.
func denseOf(b *roaring.Bitmap, n int) []uint64 {
	d := make([]uint64, (n+63)/64)
	if !b.IsEmpty() {
		b.WriteDenseTo(d)
	}
	return d
}

// All is the full-access set: every chunk, whatever its ACL.
func (ix *Index) All() *Visible { return ix.all }

// avgLen is the mean length of n chunks whose lengths sum to total.
func avgLen(total uint64, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(total) / float64(n)
}

// Len is the number of visible chunks.
func (v *Visible) Len() int { return v.n }

// Docs is the visible chunks' ordinals. The caller must not modify it;
// to filter, And a copy (or pass a filter bitmap to Search, which
// intersects it with this set).
func (v *Visible) Docs() *roaring.Bitmap { return v.docs }

// AvgLen is the average length BM25 uses for this set: the mean length
// in tokens of its chunks.
func (v *Visible) AvgLen() float64 { return v.avgdl }

// DocFreq is the number of visible chunks holding term: the stored count
// for full access, else the cardinality of the term's chunk bitmap And the
// visible set (proportional to the bitmaps' containers, not to the term's
// postings).
func (v *Visible) DocFreq(term string) int {
	r, ok := v.ix.term(term)
	if !ok {
		return 0
	}
	return v.docFreq(r)
}

func (v *Visible) docFreq(r termRecord) int {
	if v.full {
		return int(r.df)
	}
	v.dfMu.RLock()
	df, ok := v.dfs[r.bitmapOff]
	v.dfMu.RUnlock()
	if ok {
		return int(df)
	}
	n := int(v.ix.termDocs(r).AndCardinality(v.docs))
	v.dfMu.Lock()
	if v.dfs == nil {
		v.dfs = map[uint64]int32{}
	}
	if len(v.dfs) < maxKeptDFs {
		v.dfs[r.bitmapOff] = int32(n)
	}
	v.dfMu.Unlock()
	return n
}

// EachTerm calls fn for every term of the index, in byte order, with the
// number of chunks holding it, whoever may see them: for builds and
// operators, never for what a caller sees (Visible).
func (ix *Index) EachTerm(fn func(term string, df int)) {
	it, err := ix.fst.Iterator(nil, nil)
	for err == nil {
		key, id := it.Current()
		if id < uint64(ix.meta.Terms) {
			fn(string(key), int(getTerm(ix.terms[id*termRecordSize:]).df))
		}
		err = it.Next()
	}
}
