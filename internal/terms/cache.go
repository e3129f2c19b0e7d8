package terms

import (
	"hash/maphash"
	"strings"
	"sync"
)

// The analysis cache: a question's texts are analysed several times over
// (the reranker reads the head's chunks, the assessor the results' and
// their sentences, the extractive generator and the grounding check the
// same sources and sentences again, and single words are looked up at
// every stage), and analysis is deterministic, so the analysers New
// returns share one bounded cache of text → terms for the whole process.
// It is sized to hold the texts of a few dozen recent questions (cacheBytes
// in all, about 40 questions of SciFact-length chunks), not a corpus: what
// it saves is the repeats within a question and across questions asked at
// the same time. Two generations per shard: a full current generation
// becomes the old one and the old one is dropped; a hit in the old one is
// moved to the current one, so recently used texts stay.
const (
	cacheShards = 16
	// cacheBytes bounds the cache: keys, terms and map overhead counted,
	// both generations of every shard.
	cacheBytes = 2 << 20
	// cacheTextMax: a longer text is analysed every time (a document, not a
	// chunk, sentence or word).
	cacheTextMax = 16 << 10
	// entryOverhead approximates a map entry's own bytes (key and slice
	// headers, bucket share).
	entryOverhead = 64
)

type cache struct {
	seed   maphash.Seed
	shards [cacheShards]cacheShard
}

type cacheShard struct {
	mu       sync.Mutex
	cur, old map[string][]string
	bytes    int // cur's size, counted as in size
	_        [40]byte
}

var shared = newCache()

func newCache() *cache {
	c := &cache{seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].cur = map[string][]string{}
	}
	return c
}

func (c *cache) shard(text string) *cacheShard {
	return &c.shards[maphash.String(c.seed, text)%cacheShards]
}

// get returns text's cached terms; the slice is shared: read only.
func (c *cache) get(text string) ([]string, bool) {
	s := c.shard(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ts, ok := s.cur[text]; ok {
		return ts, true
	}
	ts, ok := s.old[text]
	if ok {
		delete(s.old, text)
		s.insert(text, ts)
	}
	return ts, ok
}

// put records text's terms; ts must not be changed afterwards.
func (c *cache) put(text string, ts []string) {
	// An entry larger than a shard's generation would hold the shard
	// past its share of cacheBytes (a dense text: thousands of one-byte
	// terms, each with a string header), so it is not kept either.
	if len(text) > cacheTextMax || size(text, ts) > cacheBytes/cacheShards/2 {
		return
	}
	s := c.shard(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cur[text]; ok {
		return
	}
	// The key is copied: text may be a slice of a larger string that the
	// cache must not keep alive.
	s.insert(strings.Clone(text), ts)
}

func (s *cacheShard) insert(text string, ts []string) {
	n := size(text, ts)
	if s.bytes+n > cacheBytes/cacheShards/2 && len(s.cur) > 0 {
		s.old, s.cur, s.bytes = s.cur, make(map[string][]string, len(s.cur)), 0
	}
	s.cur[text] = ts
	s.bytes += n
}

func size(text string, ts []string) int {
	n := len(text) + entryOverhead + 16*len(ts)
	for _, t := range ts {
		n += len(t)
	}
	return n
}
