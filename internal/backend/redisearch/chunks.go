package redisearch

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// DefaultCacheChunks is how many chunks an Index keeps in memory by
// default, the most recently read: about 6.5 KB of heap a SciFact chunk
// with its analyzed terms (6,250 chunks cached: 43.6 MB; 20,000: 168 MB
// with the statistics caches, measured at 50,000 chunks), so about 65 MB
// at the bound, whatever the corpus. (Measured when every cached chunk
// kept its terms split; since round 19 only the chunks the reranker
// reads are split, the others keep their content field, so this is an
// upper bound.)
const DefaultCacheChunks = 10_000

// cachedChunk is what the query path needs of one chunk.
type cachedChunk struct {
	chunk corpus.Chunk
	// content is the content field as Redis holds it (escapeTerms' form
	// of the analyzed title and text terms): what the BM25 leg's
	// re-scoring counts in.
	content string
	fp      uint64
	// terms are unescapeTerms(content), made on the first Terms call:
	// only the reranker's few candidates need them split, and splitting
	// every chunk a search returned was a fifth of the BM25 leg's
	// allocations (round 19).
	termsOnce sync.Once
	terms     []string
}

// analyzed returns the chunk's analyzed terms, split once.
func (c *cachedChunk) analyzed() []string {
	c.termsOnce.Do(func() { c.terms = unescapeTerms(c.content) })
	return c.terms
}

// chunkCache keeps the chunks read most recently. A version's chunks
// never change (a rebuild writes a new version, and a new Index), so
// entries never go stale.
// Fingerprints are kept apart with the rest of ChunkMeta's fields
// (metaEntry), for more chunks (maxPrints, about 13 MB), and even
// without a chunk cache: deduplication asks for the fingerprints of the
// candidates a search has just read, and ChunkMeta for their metadata,
// which the searches' replies carry in an index with the meta field
// (Manifest.MetaSortable).
type chunkCache struct {
	lru    *lru.Cache[string, *cachedChunk] // nil: no cache
	prints *lru.Cache[string, metaEntry]
}

// metaEntry is what ChunkMeta and Fingerprints read of a chunk, and
// with hit, what HitMeta reads.
type metaEntry struct {
	fp        uint64
	status    corpus.Status
	authority float64
	acl       []string
	hit       *hitEntry // nil: not known (ChunkMeta's read, a reply without the hit field)
}

// hitEntry is what HitMeta reads of a chunk besides ChunkMeta's fields.
type hitEntry struct {
	docID, title, updated string
	empty                 bool
}

// entryOf is c's metaEntry, with HitMeta's fields (hit): c's document,
// title and date, and empty.
func entryOf(c *corpus.Chunk, fp uint64, hit bool, empty bool) metaEntry {
	e := metaEntry{fp: fp, status: c.Status, authority: c.Authority, acl: c.ACL}
	if hit {
		e.hit = &hitEntry{docID: c.DocID, title: c.Title, updated: c.Updated, empty: empty}
	}
	return e
}

const maxPrints = 65536

func newChunkCache(size int) *chunkCache {
	prints, _ := lru.New[string, metaEntry](maxPrints)
	if size <= 0 {
		return &chunkCache{prints: prints}
	}
	c, _ := lru.New[string, *cachedChunk](size)
	return &chunkCache{lru: c, prints: prints}
}

func (c *chunkCache) get(id string) *cachedChunk {
	if c.lru == nil {
		return nil
	}
	cc, _ := c.lru.Get(id)
	return cc
}

func (c *chunkCache) put(cc *cachedChunk) {
	c.prints.Add(cc.chunk.ID, entryOf(&cc.chunk, cc.fp, true, strings.TrimSpace(cc.chunk.Text) == ""))
	if c.lru != nil {
		c.lru.Add(cc.chunk.ID, cc)
	}
}

// chunkFields are the HASH fields load reads, in this order.
var chunkFields = []string{"id", "doc_id", "ordinal", "title", "text", "type", "source", "updated", "status", "authority", "acl", "products", "tags", "url", "fp", fieldContent}

// load returns the chunks with the given ids, in order, from the cache or
// (in one pipeline) from Redis. An unknown id is an errs.NotFound error.
func (ix *Index) load(ctx context.Context, ids []string) ([]*cachedChunk, error) {
	const op = "redisearch.Chunks"
	out := make([]*cachedChunk, len(ids))
	var miss []int
	for i, id := range ids {
		if out[i] = ix.cache.get(id); out[i] == nil {
			miss = append(miss, i)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	// A caller without a deadline (a gateway's passage read) waits
	// statsTimeout at most: the pipeline carries the request's check
	// (Check), and go-redis retries a pipeline that timed out, so a Redis
	// that hangs held such a read for ~45 s.
	ctx, cancel := context.WithTimeout(ctx, statsTimeout)
	defer cancel()
	vals, err := ix.fields(ctx, op, ids, miss, chunkFields...)
	if err != nil {
		return nil, err
	}
	for j, i := range miss {
		out[i] = decodeChunk(vals[j])
		ix.cache.put(out[i])
	}
	return out, nil
}

// fields reads the named fields of the chunks ids[i] for each i of miss,
// in one pipeline: the values of miss[j]'s chunk are vals[j]. A chunk
// whose first field is absent is an errs.NotFound error naming it.
func (ix *Index) fields(ctx context.Context, op string, ids []string, miss []int, fields ...string) ([][]any, error) {
	pipe := ix.rdb.Pipeline()
	cmds := make([]*redis.SliceCmd, len(miss))
	for j, i := range miss {
		cmds[j] = pipe.HMGet(ctx, chunkPrefix(ix.vn)+ids[i], fields...)
	}
	if err := ix.exec(ctx, pipe); err != nil {
		return nil, ix.redisErr(op, err)
	}
	vals := make([][]any, len(miss))
	for j, i := range miss {
		vals[j] = cmds[j].Val()
		if len(vals[j]) != len(fields) || vals[j][0] == nil {
			return nil, errs.Errorf(op, errs.NotFound, "no chunk %q", ids[i])
		}
	}
	return vals, nil
}

// candidateTerms returns the chunks with the given ids, in order, with
// their content fields, all the BM25 leg's re-scoring needs: from
// contents (the content fields the candidates' read returned beside
// them; nil when it returned none), else from the cache, else (in one
// pipeline) the content field alone from Redis. The reply comes first:
// it holds every candidate's field, and a cache lookup a candidate (a
// lock and an LRU move, ~400 a search) cost more than it saved (round
// 19). The other fields (text, title, metadata; 60% of a chunk's bytes)
// are read only for the few candidates a search returns (retrieval
// loads them), and these chunks are not cached. An unknown id is an
// errs.NotFound error.
func (ix *Index) candidateTerms(ctx context.Context, ids, contents []string) ([]candidate, error) {
	const op = "redisearch.SearchText"
	out := make([]candidate, len(ids))
	var miss []int
	for i, id := range ids {
		out[i].id = id
		if i < len(contents) && contents[i] != "" {
			out[i].content = contents[i]
		} else if c := ix.cache.get(id); c != nil {
			out[i].content = c.content
		} else {
			miss = append(miss, i)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	vals, err := ix.fields(ctx, op, ids, miss, fieldContent)
	if err != nil {
		return nil, err
	}
	for j, i := range miss {
		out[i].content, _ = vals[j][0].(string)
	}
	return out, nil
}

// decodeChunk reads HMGET's values of chunkFields.
func decodeChunk(vals []any) *cachedChunk {
	s := func(j int) string { return str(vals[j]) }
	c := corpus.Chunk{
		ID: s(0), DocID: s(1), Title: s(3), Text: s(4), Type: s(5), Source: s(6), Updated: s(7),
		Status: corpus.Status(s(8)), ACL: list(vals[10], tagSeparator), Products: list(vals[11], tagSeparator),
		Tags: list(vals[12], "\x1f"), URL: s(13),
	}
	c.Ordinal, _ = strconv.Atoi(s(2))
	c.Authority, _ = strconv.ParseFloat(s(9), 64)
	fp, _ := strconv.ParseUint(s(14), 10, 64)
	return &cachedChunk{chunk: c, content: s(15), fp: fp}
}

// str is an HMGET value as a string, "" when absent.
func str(v any) string {
	s, _ := v.(string)
	return s
}

// list is an HMGET value split at sep, nil when absent or empty.
func list(v any, sep string) []string {
	if s := str(v); s != "" {
		return strings.Split(s, sep)
	}
	return nil
}

// Chunks returns the chunks with the given ids, in order. An unknown id
// is an errs.NotFound error. The chunks are copies the caller may keep.
func (ix *Index) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	got, err := ix.load(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]corpus.Chunk, len(got))
	for i, c := range got {
		out[i] = c.chunk
		out[i].ACL = append([]string(nil), c.chunk.ACL...)
		out[i].Products = append([]string(nil), c.chunk.Products...)
		out[i].Tags = append([]string(nil), c.chunk.Tags...)
	}
	return out, nil
}

// Fingerprints returns the text fingerprints of the chunks with the given
// ids, in order, for chunks this Index has read recently or whose meta
// field a search returned (retrieval always reads its candidates' metadata
// or the chunks before it deduplicates them), from the kept metadata or
// the chunk cache; 0 otherwise.
func (ix *Index) Fingerprints(ids []string) []uint64 {
	out := make([]uint64, len(ids))
	for i, id := range ids {
		if e, ok := ix.cache.prints.Get(id); ok {
			out[i] = e.fp
		} else if c := ix.cache.get(id); c != nil {
			// A read that finds a chunk in the chunk cache does not
			// refresh its entry here: a chunk read often can outlive
			// it there (TestFingerprintsOfCachedChunks).
			out[i] = c.fp
		}
	}
	return out
}

// Terms returns the analyzed terms of a chunk's title and text for a
// chunk this Index has read, nil otherwise (retrieval.TermSource: the
// reranker need not analyze them again). Shared: do not modify.
func (ix *Index) Terms(id string) []string {
	if c := ix.cache.get(id); c != nil {
		return c.analyzed()
	}
	return nil
}

// metaFields are the HASH fields ChunkMeta reads, in this order.
var metaFields = []string{"id", "status", "authority", "acl", "fp"}

// ChunkMeta implements backend.MetaSource: each chunk's visibility to
// groups, status and authority, from the cache, else from the metadata
// the searches' replies carried (an index with the meta field: the
// fused candidates are the legs' hits, so none is read), else (in one
// pipeline) from five of its fields, whose fingerprint it keeps for the
// search's deduplication (Fingerprints). Retrieval then reads whole only the
// chunks the reranker and the results need: a hybrid search's fused
// candidates were about twice the results, each read whole (text,
// title, content: 2–3 KB), a third of the worker's CPU a search in
// hybrid+rerank at 50,000 chunks (round 19). An unknown id is an
// errs.NotFound error.
func (ix *Index) ChunkMeta(ctx context.Context, ids []string, groups []string) ([]backend.ChunkMeta, error) {
	meta := func(c *corpus.Chunk) backend.ChunkMeta { return chunkMeta(c, groups) }
	kept := func(e metaEntry) (backend.ChunkMeta, bool) {
		c := corpus.Chunk{Status: e.status, Authority: e.authority, ACL: e.acl}
		return meta(&c), true
	}
	return metas(ctx, ix, "redisearch.ChunkMeta", ids, metaFields, meta, kept, func(c *corpus.Chunk, _ []any) (backend.ChunkMeta, *hitEntry) { return meta(c), nil })
}

// chunkMeta is c's metadata for groups.
func chunkMeta(c *corpus.Chunk, groups []string) backend.ChunkMeta {
	return backend.ChunkMeta{Visible: c.VisibleTo(groups), Status: c.Status, Authority: c.Authority}
}

// metas reads a value of each id: from the cached chunk (cached), else
// from its kept metadata (kept; false: not from there), else, in one
// pipeline, from the HASH fields named, metaFields first, which
// decode reads (the chunk with metaFields' values, and the values past
// them; and HitMeta's fields, when they are among them), keeping each
// fingerprint for the search's deduplication (Fingerprints), and the
// rest for ChunkMeta and HitMeta. An unknown id is an errs.NotFound
// error.
func metas[T any](ctx context.Context, ix *Index, op string, ids, fields []string, cached func(*corpus.Chunk) T, kept func(metaEntry) (T, bool), decode func(c *corpus.Chunk, rest []any) (T, *hitEntry)) ([]T, error) {
	out := make([]T, len(ids))
	var miss []int
	for i, id := range ids {
		if c := ix.cache.get(id); c != nil {
			out[i] = cached(&c.chunk)
		} else if e, ok := ix.cache.prints.Get(id); ok {
			if out[i], ok = kept(e); !ok {
				miss = append(miss, i)
			}
		} else {
			miss = append(miss, i)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, statsTimeout)
	defer cancel()
	vals, err := ix.fields(ctx, op, ids, miss, fields...)
	if err != nil {
		return nil, err
	}
	for j, i := range miss {
		c, fp := decodeMeta(vals[j])
		e := entryOf(&c, fp, false, false)
		out[i], e.hit = decode(&c, vals[j][len(metaFields):])
		ix.cache.prints.Add(ids[i], e)
	}
	return out, nil
}

// decodeMeta reads HMGET's values of metaFields as decodeChunk reads
// the same fields: the chunk's status, authority and ACL, and its
// fingerprint.
func decodeMeta(vals []any) (c corpus.Chunk, fp uint64) {
	c = corpus.Chunk{ID: str(vals[0]), Status: corpus.Status(str(vals[1])), ACL: list(vals[3], tagSeparator)}
	c.Authority, _ = strconv.ParseFloat(str(vals[2]), 64)
	fp, _ = strconv.ParseUint(str(vals[4]), 10, 64)
	return c, fp
}

// hitFields are the HASH fields HitMeta reads, in this order: metaFields,
// then what a result shows besides them.
var hitFields = append(slices.Clone(metaFields), "doc_id", "title", "updated", fieldEmpty)

// HitMeta implements backend.HitSource: ChunkMeta with each chunk's
// document, title, date and emptiness, from the cache, else from what
// the searches' replies carried (an index with the meta and hit fields,
// Manifest.HitSortable: a search's results are its legs' hits, so none
// is read), else (in one pipeline) from nine of its fields, whose
// fingerprint it keeps for the search's deduplication (Fingerprints). A search's results are its
// candidates' first k, and reading them whole was their text and
// analyzed terms, about 1.5 KB a chunk of the 1.7 KB at 500,000 chunks:
// retrieval now reads whole only the chunks whose text it reads. A chunk
// is empty when its text is "" (the build's empty field; a text is
// trimmed when its document is loaded, corpus.Document.Normalize). An
// unknown id is an errs.NotFound error.
func (ix *Index) HitMeta(ctx context.Context, ids []string, groups []string) ([]backend.HitMeta, error) {
	cached := func(c *corpus.Chunk) backend.HitMeta { return hitMeta(c, groups, strings.TrimSpace(c.Text) == "") }
	kept := func(e metaEntry) (backend.HitMeta, bool) {
		if e.hit == nil {
			return backend.HitMeta{}, false
		}
		c := corpus.Chunk{Status: e.status, Authority: e.authority, ACL: e.acl, DocID: e.hit.docID, Title: e.hit.title, Updated: e.hit.updated}
		return hitMeta(&c, groups, e.hit.empty), true
	}
	return metas(ctx, ix, "redisearch.HitMeta", ids, hitFields, cached, kept, func(c *corpus.Chunk, rest []any) (backend.HitMeta, *hitEntry) {
		c.DocID, c.Title, c.Updated = str(rest[0]), str(rest[1]), str(rest[2])
		empty := str(rest[3]) == "1"
		return hitMeta(c, groups, empty), &hitEntry{docID: c.DocID, title: c.Title, updated: c.Updated, empty: empty}
	})
}

// hitMeta is c's result fields for groups.
func hitMeta(c *corpus.Chunk, groups []string, empty bool) backend.HitMeta {
	return backend.HitMeta{
		ChunkMeta: chunkMeta(c, groups),
		DocID:     c.DocID, Title: c.Title, Updated: c.Updated, Empty: empty,
	}
}

// fieldMeta is the chunk's HASH field that holds ChunkMeta's fields in
// one value (metaValue), indexed TAG NOINDEX SORTABLE UNF in an index
// whose manifest says MetaSortable: RediSearch keeps it in its document
// table, and the searches return it beside their hits (RETURN) without
// opening the chunks' HASHes, so that ChunkMeta reads nothing.
const fieldMeta = "meta"

// metaSep separates metaValue's parts: a control character, which no
// status or ACL group holds (checkChunks), and the ACL comes last.
const metaSep = "\x1f"

// metaValue is c's meta field: fingerprint, authority, status and ACL
// (as the acl field holds it).
func metaValue(c *corpus.Chunk, fp uint64) string {
	return strconv.FormatUint(fp, 10) + metaSep + strconv.FormatFloat(c.Authority, 'g', -1, 64) + metaSep +
		string(c.Status) + metaSep + strings.Join(c.ACL, tagSeparator)
}

// parseMeta reads a meta field; false when v is not one (a reply
// without it), and ChunkMeta then reads the chunk's HASH.
func parseMeta(v string) (metaEntry, bool) {
	parts := strings.SplitN(v, metaSep, 4)
	if len(parts) != 4 {
		return metaEntry{}, false
	}
	fp, err1 := strconv.ParseUint(parts[0], 10, 64)
	a, err2 := strconv.ParseFloat(parts[1], 64)
	if err1 != nil || err2 != nil {
		return metaEntry{}, false
	}
	return metaEntry{fp: fp, authority: a, status: corpus.Status(parts[2]), acl: list(parts[3], tagSeparator)}, true
}

// fieldHit is the chunk's HASH field that holds HitMeta's fields besides
// ChunkMeta's in one value (hitValue), indexed and returned as fieldMeta
// is, in an index whose manifest says HitSortable, so that HitMeta
// reads nothing either. A field of its own, not more parts of meta: a
// reader of round 41's meta takes all past its third separator for the
// ACL, and would take a title's words for groups.
const fieldHit = "hit"

// hitValue is c's hit field: "1" when it is empty (its text is "", as
// the empty field says) else "0", the lengths of its document id and of
// its date, then the document id, the date and the title, which may
// hold any character.
func hitValue(c *corpus.Chunk) string {
	e := "0"
	if c.Text == "" {
		e = "1"
	}
	return e + metaSep + strconv.Itoa(len(c.DocID)) + metaSep + strconv.Itoa(len(c.Updated)) + metaSep + c.DocID + c.Updated + c.Title
}

// parseHit reads a hit field; false when v is not one.
func parseHit(v string) (*hitEntry, bool) {
	parts := strings.SplitN(v, metaSep, 4)
	if len(parts) != 4 || (parts[0] != "0" && parts[0] != "1") {
		return nil, false
	}
	nd, err1 := strconv.Atoi(parts[1])
	nu, err2 := strconv.Atoi(parts[2])
	rest := parts[3]
	if err1 != nil || err2 != nil || nd < 0 || nu < 0 || nd+nu > len(rest) {
		return nil, false
	}
	return &hitEntry{empty: parts[0] == "1", docID: rest[:nd], updated: rest[nd : nd+nu], title: rest[nd+nu:]}, true
}

// replyMeta is what a search's reply carried beside a chunk's id: its
// meta and hit fields, "" where the reply had none.
type replyMeta struct{ meta, hit string }

// keepMeta keeps the metadata a search's reply carried for its hits
// (metas[i] is the fields beside ids[i]): ChunkMeta answers from the
// meta field, and HitMeta when the hit field came too. Only the hits
// are kept, the candidates the search returns, which retrieval fuses
// and asks ChunkMeta about, and whose first k are its results.
func (ix *Index) keepMeta(hits []backend.Hit, ids []string, metas []replyMeta) {
	if len(metas) == 0 || len(hits) == 0 {
		return
	}
	want := make(map[string]bool, len(hits))
	for _, h := range hits {
		want[h.ChunkID] = true
	}
	for i, id := range ids {
		if i < len(metas) && want[id] {
			if e, ok := parseMeta(metas[i].meta); ok {
				if h, ok := parseHit(metas[i].hit); ok {
					e.hit = h
				}
				ix.cache.prints.Add(id, e)
			}
			delete(want, id)
		}
	}
}
