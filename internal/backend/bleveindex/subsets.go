package bleveindex

import (
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/vectors"
)

// The vector leg's codes, copied per visible set.
//
// A caller who sees part of the corpus scans the 1-bit codes of its
// visible chunks, scattered through the mapped file: for the anonymous
// caller of the scale benchmark (half of the chunks) that cost about
// what a scan of every code costs, bound by reaching the records and not
// by scoring them. A visible set searched again gets a contiguous copy of
// its codes (vectors.Subset), scanned in order: the same scores, offered
// in the same order, so the same hits. The copies live in the heap
// (140 bytes a chunk at 768 dimensions: 35 MB for half of 500k chunks),
// bounded by subsetBudget per index. When the copies fill the budget, a
// set searched more often than a copied one takes its place (the least
// recently used of those), so sets searched in turn do not copy on every
// search; search counts halve every ageEvery searches, so a set that was
// busy once does not hold its copy for ever.

const (
	// subsetBudget bounds the heap an index's copies hold together; a set
	// whose copy alone would pass it is never copied.
	subsetBudget = 256 << 20
	// subsetMinShare: a set smaller than this share of the index is
	// scanned in place (few records to reach; not worth a copy).
	subsetMinShare = 16
	// subsetAfter is the search of a set that copies its codes: a set
	// searched once is not copied, so many one-off group sets do not
	// evict each other's copies.
	subsetAfter = 2
	// ageEvery is how many searches pass between halvings of the counts.
	ageEvery = 1024
)

// subsets is the cache of copies, keyed by the visible set's bitmap (the
// postings index caches one immutable bitmap per group set).
type subsets struct {
	mu      sync.Mutex
	entries map[*roaring.Bitmap]*subsetEntry
	tick    uint64 // orders uses, for eviction
	bytes   int
	budget  int // 0: subsetBudget (tests set less)
	closed  bool
	made    int // copies made, kept or not (tests read it)
}

type subsetEntry struct {
	searches int
	used     uint64
	sub      *vectors.Subset // nil until copied
	building bool
	never    bool // too big for the budget, or the store has no codes
}

// get returns the copy of docs' codes, or nil when docs has none (yet):
// the caller then scans docs in place. The search that copies does so
// outside the lock; searches meanwhile scan in place.
func (c *subsets) get(vecs *vectors.Store, docs *roaring.Bitmap, total int) *vectors.Subset {
	n := int(docs.GetCardinality())
	if n*subsetMinShare < total || n >= total {
		return nil
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	if c.entries == nil {
		c.entries = map[*roaring.Bitmap]*subsetEntry{}
	}
	e := c.entries[docs]
	if e == nil {
		e = &subsetEntry{}
		c.entries[docs] = e
		c.trimEntries()
	}
	c.tick++
	if c.tick%ageEvery == 0 {
		for _, x := range c.entries {
			x.searches /= 2
		}
	}
	e.used = c.tick
	e.searches++
	if e.sub != nil || e.building || e.never || e.searches < subsetAfter {
		sub := e.sub
		c.mu.Unlock()
		return sub
	}
	budget := c.budget
	if budget == 0 {
		budget = subsetBudget
	}
	size := vecs.SubsetBytes(n)
	if size == 0 || size > budget {
		e.never = true
		c.mu.Unlock()
		return nil
	}
	if c.bytes+size-c.evictable(e) > budget {
		c.mu.Unlock()
		return nil // the copies held are searched at least as often
	}
	e.building = true
	c.mu.Unlock()

	sub, err := vecs.NewSubset(docs)
	c.mu.Lock()
	defer c.mu.Unlock()
	e.building = false
	c.made++
	if err != nil {
		e.never = true
		return nil // no codes, or a closed store: the search reports that
	}
	for c.bytes+sub.Bytes() > budget && c.evict(e) {
	}
	if c.bytes+sub.Bytes() > budget || c.closed {
		return sub // used once, not kept (others were copied meanwhile, or the index closed)
	}
	e.sub = sub
	c.bytes += sub.Bytes()
	return sub
}

// evictable is the heap held by copies e may take the place of: those of
// sets searched less often than e's.
func (c *subsets) evictable(e *subsetEntry) int {
	b := 0
	for _, x := range c.entries {
		if x != e && x.sub != nil && x.searches < e.searches {
			b += x.sub.Bytes()
		}
	}
	return b
}

// evict drops the least recently used copy of a set searched less often
// than keep's; false when there is none.
func (c *subsets) evict(keep *subsetEntry) bool {
	var victim *roaring.Bitmap
	var oldest uint64
	for docs, e := range c.entries {
		if e != keep && e.sub != nil && e.searches < keep.searches && (victim == nil || e.used < oldest) {
			victim, oldest = docs, e.used
		}
	}
	if victim == nil {
		return false
	}
	c.bytes -= c.entries[victim].sub.Bytes()
	c.entries[victim].sub = nil
	return true
}

// close drops every copy (Index.Close): a closed index's copies are
// garbage, and a search racing the close copies nothing more.
func (c *subsets) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries, c.bytes, c.closed = nil, 0, true
}

// maxSubsetEntries bounds the sets whose searches are counted.
const maxSubsetEntries = 256

// trimEntries forgets the least recently used sets without a copy once
// more than maxSubsetEntries are counted.
func (c *subsets) trimEntries() {
	for len(c.entries) > maxSubsetEntries {
		var victim *roaring.Bitmap
		var oldest uint64
		for docs, e := range c.entries {
			if e.sub == nil && !e.building && e.searches > 0 && (victim == nil || e.used < oldest) {
				victim, oldest = docs, e.used
			}
		}
		if victim == nil {
			return
		}
		delete(c.entries, victim)
	}
}
