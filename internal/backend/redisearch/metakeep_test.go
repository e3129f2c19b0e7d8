package redisearch

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
)

// TestParseMeta: metaValue and parseMeta agree on every part (the
// largest fingerprint, an authority that needs every digit, several
// groups); a value that is not a whole meta field (none, a part
// missing, a number unreadable) is not kept, so that ChunkMeta reads
// the chunk's HASH; and a value that is whole but malformed fails
// closed: an empty ACL is visible to no caller, and a separator inside
// the status or a group makes the ACL name groups no caller holds.
func TestParseMeta(t *testing.T) {
	c := corpus.Chunk{Status: corpus.Archived, Authority: 0.1 + 0.2, ACL: []string{"public", "staff", "partner:brook-street"}}
	e, ok := parseMeta(metaValue(&c, math.MaxUint64))
	if !ok || e.fp != math.MaxUint64 || e.status != c.Status || e.authority != c.Authority || !slices.Equal(e.acl, c.ACL) {
		t.Errorf("round trip: %+v %v, want %d %s %g %v", e, ok, uint64(math.MaxUint64), c.Status, c.Authority, c.ACL)
	}
	fp := "12345"
	for _, v := range []string{
		"",
		fp,
		strings.Join([]string{fp, "1", "current"}, metaSep),
		strings.Join([]string{"x", "1", "current", "public"}, metaSep),
		strings.Join([]string{"-1", "1", "current", "public"}, metaSep),
		strings.Join([]string{fp, "high", "current", "public"}, metaSep),
		strings.Join([]string{fp, "", "current", "public"}, metaSep),
	} {
		if e, ok := parseMeta(v); ok {
			t.Errorf("parseMeta(%q) = %+v, kept", v, e)
		}
	}
	everyone := []string{"public", "staff", "", "current", "public" + metaSep + "staff"}
	for _, v := range []string{
		strings.Join([]string{fp, "1", "current", ""}, metaSep),
		strings.Join([]string{fp, "1", "cur", "rent", "public"}, metaSep),
	} {
		e, ok := parseMeta(v)
		if !ok {
			continue // not kept: ChunkMeta reads the HASH
		}
		if m := chunkMeta(&corpus.Chunk{Status: e.status, Authority: e.authority, ACL: e.acl}, everyone); m.Visible {
			t.Errorf("parseMeta(%q): ACL %q visible to %q", v, e.acl, everyone)
		}
	}
}

// TestFingerprintsOfCachedChunks: a chunk the chunk cache holds has its
// fingerprint even when the fingerprints' LRU no longer does. The chunk
// cache is refreshed by every read that finds the chunk there, the LRU
// of fingerprints and metadata only when a chunk is read from Redis or
// a search returns its meta field (an index built before round 41 never
// does): after enough other chunks were read, a frequently read chunk
// stayed in the one and left the other, and the deduplication of a
// search that returned it then depended on what other searches had read
// before (a fingerprint of 0 matches nothing).
func TestFingerprintsOfCachedChunks(t *testing.T) {
	ix := &Index{cache: newChunkCache(4)}
	c := &cachedChunk{chunk: corpus.Chunk{ID: "hot", Status: corpus.Current, ACL: []string{"public"}}, fp: 0xfeed}
	ix.cache.put(c)
	if got := ix.Fingerprints([]string{"hot", "unknown"}); !slices.Equal(got, []uint64{0xfeed, 0}) {
		t.Fatalf("Fingerprints = %x", got)
	}
	for i := range maxPrints {
		ix.cache.prints.Add(string(rune('a'+i%26))+strings.Repeat("x", i/26), metaEntry{fp: uint64(i) + 1})
		if i%1000 == 0 {
			ix.cache.get("hot") // a read that finds it: the chunk cache keeps it
		}
	}
	if ix.cache.prints.Contains("hot") || ix.cache.get("hot") == nil {
		t.Fatalf("setup: the LRU of fingerprints still holds the chunk (%v) or the chunk cache lost it", ix.cache.prints.Contains("hot"))
	}
	if got := ix.Fingerprints([]string{"hot"}); got[0] != 0xfeed {
		t.Errorf("the fingerprint of a chunk the chunk cache holds: %x, want feed", got[0])
	}
	// Its metadata is the chunk's, from the chunk cache, as before.
	ms, err := ix.ChunkMeta(t.Context(), []string{"hot"}, []string{"public"})
	if err != nil || !ms[0].Visible || ms[0].Status != corpus.Current {
		t.Errorf("ChunkMeta = %+v, %v", ms, err)
	}
}
