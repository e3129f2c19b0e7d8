// Package redisearch is the retrieval backend that keeps the index in
// Redis (RediSearch: Redis 8's Query Engine, Redis Stack, or the module),
// so every worker reads one shared index and a rebuild reaches all of
// them. It serves the same contract as the embedded bleve index
// (backend.Index): fusion, rerank, dedup, the prior and the checks
// stay in package retrieval.
//
// Layout in Redis, for an index named N built as version V:
//
//	assay:N:current        the version workers serve ("V")
//	assay:N:seq            the last version number handed out
//	assay:N:vV:manifest    JSON: how version V was built (backend.Manifest + version, vector algorithm)
//	assay:N:vV:stats       JSON: whole-index counts (chunks, their tokens, empty chunks)
//	assay:N:vV:names       JSON: group → code → name words, the (code, name word) pairs the
//	                       chunks whose ACL names group write (names.Table; read at Open
//	                       for the assessor's class reading; absent before round 26)
//	assay:N:vV:df          HASH: term → chunks holding it, whole index (the IDF-weighted
//	                       embedder and operators; never a principal's numbers)
//	assay:N:vV:df:<group>  HASH: term → chunks whose ACL names group holding it (a
//	                       one-group caller's exact document frequencies; schema 4)
//	assay:N:vV:lens:<group> HASH: ACL part naming group (its groups joined by ",")
//	                       → "chunks tokens": its chunks and their length in tokens
//	assay:N:vV:c:<chunk>   one HASH per chunk: text, title, doc_id, acl, status, type,
//	                       products, updated, authority, ..., content (analyzed terms),
//	                       empty ("1" for a chunk with no text), vec (FLOAT32 bytes),
//	                       ek (embedding cache key), fp (fingerprint), meta (fp,
//	                       authority, status and acl in one value; since round 41)
//	FT index assay:N:vV    over that prefix; the alias N names the current one
//
// A build writes version V+1 completely, then moves the alias and the
// current pointer: searches never see a half-built index. Version V stays
// whole until the next build begins, which drops it before writing V+2
// (so a request in flight on V when the pointer moved finishes on V, and
// Redis holds two versions between builds, as many as during one). A
// worker or a gateway checks the current pointer for every request it
// serves from an open version: one GET, sent in the pipeline of the
// request's first command (Check) or, for a request that sends none,
// alone (Stale); when the pointer moved, the request's answer is thrown
// away and the request runs again on the new version.
//
// The content field holds terms.Analyzer's terms (the same English
// analyzer the bleve index uses), indexed NOSTEM with no stop words, so
// both backends match the same words. The BM25 leg asks RediSearch for
// candidates with SCORER BM25STD, each term weighted so that its IDF is
// the visible set's, and re-scores them with bleve's BM25 formula and the
// index's k1/b, from term counts over the chunks the principal may see
// (see stats.go: counted by the engine, never a table in the worker).
package redisearch

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/terms"
)

// SchemaVersion changes whenever the key layout or the FT schema changes
// in a way a reader depends on. Index options every reader reads the same
// way (NOOFFSETS and NOFIELDS since round 22, SORTABLE content since round
// 24) change no version; the manifest records the ones a report needs.
// Version 5 stores HNSW vectors as BFLOAT16 (the manifest's vector_type);
// this assay still reads version 4, whose vectors are FLOAT32, and
// refuses anything older. Version 6 gives small vector groups a FLAT
// index (the manifest's vector_groups_flat, build.go's flatGroupMax),
// which refuses EF_RUNTIME: a reader of version 5 would send it one and
// fail every vector search of a caller whose groups all have an index of
// their own. A build writes 6 only when it lists a FLAT group, and
// noFlatSchema otherwise, an index such a reader reads as its own.
const SchemaVersion = 6

// noFlatSchema is the schema version of a build without FLAT vector
// groups (see SchemaVersion).
const noFlatSchema = 5

// oldestSchema is the oldest schema version Open still reads.
const oldestSchema = 4

// Field names of a chunk's HASH that the FT schema indexes.
const (
	fieldContent   = "content"
	fieldACL       = "acl"
	fieldType      = "type"
	fieldProducts  = "products"
	fieldStatus    = "status"
	fieldAuthority = "authority"
	fieldUpdated   = "updated_n"
	fieldEmpty     = "empty"
	fieldVector    = "vec"
	fieldDistance  = "dist" // the KNN distance, not stored
	tagSeparator   = ","
)

// Vector index algorithms.
const (
	HNSW = "HNSW" // approximate, Build's default (the service builds HNSW+SmallGroupScans)
	FLAT = "FLAT" // exact scan, like the bleve backend's
)

// Manifest is backend.Manifest plus what only a Redis index has.
type Manifest struct {
	backend.Manifest
	// Version is the index version this manifest describes.
	Version int `json:"version"`
	// Vector is the vector algorithm (HNSW or FLAT); empty without vectors.
	Vector string `json:"vector,omitempty"`
	// VectorLayout is the layout the build was asked for, as config's
	// index.vector names it ("hnsw", "hnsw+small-flat" or "flat"): Vector
	// reads HNSW for both HNSW layouts. Empty without vectors and in
	// indexes built before round 44, whose layout nobody recorded.
	VectorLayout string `json:"vector_layout,omitempty"`
	// HNSWM and HNSWEFConstruction are the HNSW graph's M and
	// EF_CONSTRUCTION (zero in indexes built before they were recorded:
	// RediSearch's defaults, 16 and 200).
	HNSWM              int `json:"hnsw_m,omitempty"`
	HNSWEFConstruction int `json:"hnsw_ef_construction,omitempty"`
	// VectorType is the VECTOR field's element type, FLOAT32 or
	// BFLOAT16; empty in indexes built before it was recorded (schema
	// 4), whose vectors are FLOAT32.
	VectorType string `json:"vector_type,omitempty"`
	// ContentSortable: the content field is SORTABLE UNF, so the BM25
	// leg's candidates' read takes it from RediSearch's document table
	// (build.go). False in indexes built before round 24, which are read
	// the same way. Not a schema version: no reader depends on it.
	ContentSortable bool `json:"content_sortable,omitempty"`
	// MetaSortable: each chunk's HASH holds the meta field (fingerprint,
	// authority, status, ACL in one value; chunks.go's metaValue), which
	// the version's index and its groups' hold as TAG NOINDEX SORTABLE
	// UNF, and the searches return it with their hits so that ChunkMeta
	// reads nothing (build.go, metaSortable). False in indexes built
	// before round 41, whose ChunkMeta reads each candidate's HASH, as
	// it did: not a schema version, no reader depends on it.
	MetaSortable bool `json:"meta_sortable,omitempty"`
	// HitSortable: each chunk's HASH also holds the hit field (document
	// id, date, title, emptiness in one value; chunks.go's hitValue),
	// indexed and returned as the meta field is, so that HitMeta reads
	// nothing either (build.go, hitSortable). False in indexes built
	// before it (round 41's p41-hit), whose HitMeta reads each result's
	// HASH, as it did; only read with MetaSortable.
	HitSortable bool `json:"hit_sortable,omitempty"`
	// VectorGroups are the ACL groups whose chunks have an HNSW graph of
	// their own besides the whole index's (vectorGroupIndex: the i-th
	// group's index), for a restricted caller's vector leg (build.go,
	// vectorGroups). Empty in indexes built before round 33 and without
	// an HNSW graph; their restricted callers walk the whole graph.
	VectorGroups []string `json:"vector_groups,omitempty"`
	// VectorGroupsFlat are the vector groups whose index is FLAT (an
	// exact scan of the group's vectors, build.go's flatGroupMax) rather
	// than an HNSW graph; empty in indexes built before round 35.
	VectorGroupsFlat []string `json:"vector_groups_flat,omitempty"`
	// TextGroups are the vector groups whose index holds the content
	// field too (build.go, textGroups), so that a caller who sees one of
	// them alone runs the BM25 leg in it: its postings are that group's
	// chunks' only (SearchText, textIndex). Empty in indexes built before
	// round 39, whose callers search the whole index with an ACL clause.
	TextGroups []string `json:"text_groups,omitempty"`
}

// Vector element types.
const (
	Float32  = "FLOAT32"
	BFloat16 = "BFLOAT16"
)

// vectorType is m's VECTOR field element type.
func (m Manifest) vectorType() string {
	if m.VectorType == "" {
		return Float32
	}
	return m.VectorType
}

func prefix(name string) string             { return "assay:" + name + ":" }
func currentKey(name string) string         { return prefix(name) + "current" }
func seqKey(name string) string             { return prefix(name) + "seq" }
func versionName(name string, v int) string { return prefix(name) + "v" + strconv.Itoa(v) }
func manifestKey(vn string) string          { return vn + ":manifest" }
func statsKey(vn string) string             { return vn + ":stats" }
func namesKey(vn string) string             { return vn + ":names" }
func chunkPrefix(vn string) string          { return vn + ":c:" }

// vectorGroupIndex is the FT index of version vn's HNSW graph of its
// manifest's i-th vector group's chunks.
func vectorGroupIndex(vn string, i int) string { return vectorGroupsPrefix(vn) + strconv.Itoa(i) }

// vectorGroupsPrefix begins the name of each of version vn's vector
// groups' indexes.
func vectorGroupsPrefix(vn string) string { return vn + ":vg:" }

// Options configure Open.
type Options struct {
	// CacheChunks bounds how many chunks (text, metadata, analyzed terms)
	// the Index keeps in memory once read (default DefaultCacheChunks;
	// negative: none, every search reads its candidates from Redis).
	CacheChunks int
	// ExactCandidates makes the BM25 leg read every query term's postings
	// (index.exact_candidates); otherwise a long query's commonest terms
	// only score (rare.go).
	ExactCandidates bool
}

// Index is one version of a Redis index, open for searching. It is safe
// for concurrent use. It does not own the client.
type Index struct {
	rdb    *redis.Client
	name   string
	vn     string // versioned FT index name
	m      Manifest
	st     indexStats
	stats  statsCache
	an     *terms.Analyzer
	checks []string
	cache  *chunkCache
	rare   rareRule     // the BM25 leg's candidate form (rare.go)
	names  *names.Table // the chunks' name pairs by group; nil: none kept

	stale atomic.Bool // a newer version was found current (it stays so)
	// suspect: a request's riding check found Redis not answering, and no
	// GET of the pointer was answered since (Check).
	suspect atomic.Bool
}

// NewClient returns a RESP2 client for addr: go-redis parses FT.* replies
// fully only over RESP2. A command's context deadline bounds its socket
// reads and writes (ContextTimeoutEnabled): without it go-redis waits
// for its ReadTimeout (5 s) whatever the deadline, so Stale's staleWait
// (1 s) and statsTimeout bounded nothing against a Redis that hangs.
func NewClient(addr, password string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, Password: password, Protocol: 2, ContextTimeoutEnabled: true})
}

// Ping checks that Redis answers at addr; the error names the setting an
// operator must fix.
func Ping(ctx context.Context, rdb *redis.Client) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		return errs.Errorf("redisearch.Open", errs.Unavailable, "Redis at %s (redis.addr, ASSAY_REDIS_ADDR) is unreachable: %v", rdb.Options().Addr, err)
	}
	return nil
}

// Open opens the current version of the index called name. It fails with
// errs.NotFound when there is none, errs.Invalid when it was built with
// another schema version, errs.Unavailable when Redis does not answer,
// and errs.Unsupported when the server lacks RediSearch or its BM25STD
// scorer.
func Open(ctx context.Context, rdb *redis.Client, name string, o Options) (*Index, error) {
	const op = "redisearch.Open"
	if err := Ping(ctx, rdb); err != nil {
		return nil, err
	}
	v, err := currentVersion(ctx, rdb, name, op)
	if err != nil {
		return nil, err
	}
	vn := versionName(name, v)
	m, err := readManifest(ctx, rdb, vn)
	if err != nil {
		return nil, err
	}
	raw, err := rdb.Get(ctx, statsKey(vn)).Bytes()
	if err != nil {
		return nil, errs.Errorf(op, errs.Invalid, "index %s has no term statistics (%v): rebuild it", vn, err)
	}
	var st indexStats
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, errs.Errorf(op, errs.Invalid, "index %s: bad term statistics: %v", vn, err)
	}
	pairs, err := readNames(ctx, rdb, vn)
	if err != nil {
		return nil, err
	}
	if o.CacheChunks == 0 {
		o.CacheChunks = DefaultCacheChunks
	}
	ix := &Index{rdb: rdb, name: name, vn: vn, m: m, st: st, stats: newStatsCache(), an: terms.New(),
		cache: newChunkCache(o.CacheChunks), rare: defaultRare, names: pairs}
	if o.ExactCandidates {
		ix.rare = rareRule{}
	}
	if err := ix.probe(ctx); err != nil {
		return nil, err
	}
	return ix, nil
}

// readNames reads the version's name pairs (names.Table, written by
// Build): nil and no error for a version built before round 26, which
// keeps none (the assessor then searches every word, as it did).
func readNames(ctx context.Context, rdb *redis.Client, vn string) (*names.Table, error) {
	const op = "redisearch.Open"
	raw, err := rdb.Get(ctx, namesKey(vn)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.E(op, errs.Unavailable, err)
	}
	t := names.NewTable()
	if err := json.Unmarshal(raw, t); err != nil {
		return nil, errs.Errorf(op, errs.Invalid, "index %s: bad name pairs: %v", vn, err)
	}
	return t, nil
}

// Names returns the (code, name word) pairs the version's chunks write,
// per ACL group (backend.NameSource), read at Open; nil when it keeps
// none.
func (ix *Index) Names() *names.Table { return ix.names }

func readManifest(ctx context.Context, rdb *redis.Client, vn string) (Manifest, error) {
	const op = "redisearch.Open"
	var m Manifest
	raw, err := rdb.Get(ctx, manifestKey(vn)).Bytes()
	if errors.Is(err, redis.Nil) {
		return m, errs.Errorf(op, errs.NotFound, "index %s has no manifest: rebuild it", vn)
	}
	if err != nil {
		return m, errs.E(op, errs.Unavailable, err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, errs.Errorf(op, errs.Invalid, "index %s: bad manifest: %v", vn, err)
	}
	if m.SchemaVersion < oldestSchema || m.SchemaVersion > SchemaVersion {
		return m, errs.Errorf(op, errs.Invalid, "index %s: schema version %d, this assay reads %d to %d: rebuild it", vn, m.SchemaVersion, oldestSchema, SchemaVersion)
	}
	switch m.vectorType() {
	case Float32, BFloat16:
	default:
		return m, errs.Errorf(op, errs.Invalid, "index %s: vector type %q, this assay reads FLOAT32 and BFLOAT16: rebuild it", vn, m.VectorType)
	}
	return m, nil
}

// probe checks the server: the FT index exists and agrees with the
// manifest, and BM25STD is there (without it RediSearch would score
// TF-IDF, or the legacy BM25 that ignores document length).
func (ix *Index) probe(ctx context.Context) error {
	const op = "redisearch.Open"
	info, err := ix.rdb.FTInfo(ctx, ix.vn).Result()
	if err != nil {
		if isUnknownCommand(err) {
			return errs.Errorf(op, errs.Unsupported, "the Redis at %s has no RediSearch (FT.INFO: %v): use Redis 8, Redis Stack or the RediSearch module", ix.rdb.Options().Addr, err)
		}
		return errs.Errorf(op, errs.Invalid, "index %s: FT.INFO: %v: rebuild it", ix.vn, err)
	}
	_, err = ix.rdb.FTSearchWithArgs(ctx, ix.vn, "*", &redis.FTSearchOptions{Scorer: "BM25STD", CountOnly: true, DialectVersion: 2, Timeout: noTimeout}).Result()
	if err != nil {
		return errs.Errorf(op, errs.Unsupported, "the Redis at %s cannot score BM25STD (%v): refusing to serve an index that would be ranked by TF-IDF; use RediSearch 2.8 or later", ix.rdb.Options().Addr, err)
	}
	if info.NumDocs != ix.m.Chunks {
		ix.checks = append(ix.checks, "index count differs from the manifest's: rebuild the index")
	}
	return nil
}

func isUnknownCommand(err error) bool {
	return err != nil && strings.Contains(strings.ToLower(err.Error()), "unknown command")
}

// Stale reports whether a newer version than this one is current: one
// GET of the current pointer, on every call, so that a request that asks
// before it reads is never served from a version older than the newest
// whole one when it began (a rebuild that narrowed an ACL is seen at
// once; before round 48 the answer was kept for a second). Once a newer
// version was seen it answers true without asking. When Redis does not
// answer within staleWait, or the pointer is gone, the version cannot be
// confirmed: an errs.Unavailable error, and the caller fails closed.
func (ix *Index) Stale(ctx context.Context) (bool, error) {
	if ix.stale.Load() {
		return true, nil
	}
	ctx, cancel := context.WithTimeout(ctx, staleWait)
	defer cancel()
	get := ix.rdb.Get(ctx, currentKey(ix.name))
	switch err := get.Err(); {
	case err == nil || errors.Is(err, redis.Nil):
		ix.suspect.Store(false) // Redis answers
	case !errors.Is(err, context.Canceled):
		ix.suspect.Store(true) // see Check
	}
	return ix.verdict(versionOf(get, ix.rdb, ix.name, "redisearch.Stale"))
}

// staleWait bounds Stale's round trip: a Redis that hangs fails the
// request rather than holding it.
const staleWait = time.Second

// Version names the version served, for /readyz and traces.
func (ix *Index) Version() string { return describe(ix.name, ix.vn, ix.m) }

func describe(name, vn string, m Manifest) string {
	return fmt.Sprintf("redisearch %s (alias %s, built %s)", vn, name, m.BuiltAt.Format(time.RFC3339))
}

// Current names the version of the index called name that workers
// serve, reading only its pointer and manifest: a gateway's readiness
// check. It fails as Open does when there is none or Redis is down.
func Current(ctx context.Context, rdb *redis.Client, name string) (string, error) {
	const op = "redisearch.Current"
	v, err := currentVersion(ctx, rdb, name, op)
	if err != nil {
		return "", err
	}
	vn := versionName(name, v)
	m, err := readManifest(ctx, rdb, vn)
	if err != nil {
		return "", err
	}
	return describe(name, vn, m), nil
}

// CurrentVersion is the number of the version of the index called name
// that workers serve, read in one round trip and opening nothing: the
// pointer a build sets last, once the version is whole, and the one
// Stale watches. It fails with errs.NotFound when there is none and
// errs.Unavailable when Redis does not answer. A reader waiting for the
// index to exist asks it (live.Source.Built) instead of trying Open.
func CurrentVersion(ctx context.Context, rdb *redis.Client, name string) (int, error) {
	return currentVersion(ctx, rdb, name, "redisearch.CurrentVersion")
}

func currentVersion(ctx context.Context, rdb *redis.Client, name, op string) (int, error) {
	return versionOf(rdb.Get(ctx, currentKey(name)), rdb, name, op)
}

// versionOf is the version a GET of name's current pointer read.
func versionOf(get *redis.StringCmd, rdb *redis.Client, name, op string) (int, error) {
	v, err := get.Int()
	if errors.Is(err, redis.Nil) {
		return 0, errs.Errorf(op, errs.NotFound, "no RediSearch index %q in Redis at %s (build one with `assay index --backend redisearch --name %s`)", name, rdb.Options().Addr, name)
	}
	if err != nil {
		return 0, errs.Errorf(op, errs.Unavailable, "Redis at %s (redis.addr) did not answer: %v", rdb.Options().Addr, err)
	}
	return v, nil
}

// Name is the index name (the alias).
func (ix *Index) Name() string { return ix.name }

// Manifest returns how the index was built.
func (ix *Index) Manifest() backend.Manifest { return ix.m.Manifest }

// RedisManifest returns the manifest with its Redis fields.
func (ix *Index) RedisManifest() Manifest { return ix.m }

// Warnings returns the index's problems as groups may hear of them: the
// consistency warnings found at Open, which state no counts, and how many
// chunks visible to groups have no text.
//
// It has no request context: while Redis is suspect (see DocFreq) it
// gives the consistency warnings alone rather than wait statsTimeout for
// the visible set's count.
func (ix *Index) Warnings(groups []string) []string {
	if ix.suspect.Load() {
		if _, ok := ix.stats.sets.Get(setKeyOf(groups)); !ok {
			return slices.Clone(ix.checks)
		}
	}
	return append(slices.Clone(ix.checks), ix.visible(context.Background(), groups).emptyWarning()...)
}

// Len is the number of chunks in the index.
func (ix *Index) Len() int { return ix.st.Chunks }

// DocFreq is the number of chunks containing term, in the whole index,
// from the stored table (cached). When Redis does not answer it is an
// error typed by redisErr (unavailable or timeout), never a 0: the
// IDF-weighted builtin embedder weighs a query's terms with it, and a
// vector weighted with a df it could not read is wrong, not degraded.
//
// It has no request context: while a request's check has found Redis not
// answering and no GET of the pointer answered since (suspect), it fails
// at once instead of waiting statsTimeout (the query embedder's reads in
// a search whose check failed).
func (ix *Index) DocFreq(term string) (int, error) {
	if ix.suspect.Load() {
		if _, ok := ix.stats.index.Get(term); !ok {
			return 0, errs.Errorf("redisearch.DocFreq", errs.Unavailable, "Redis at %s did not answer a request's check of %s just now", ix.rdb.Options().Addr, ix.vn)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), statsTimeout)
	defer cancel()
	dfs, err := ix.indexDocFreqs(ctx, []string{term})
	if err != nil {
		return 0, err
	}
	return dfs[0], nil
}

// Close releases nothing: the client belongs to the caller. It is there
// so both backends close alike.
func (ix *Index) Close() error { return nil }

// EachTerm calls fn for every analyzed term of the index with the number
// of chunks containing it, whoever may see them, reading the stored table
// with HSCAN (nothing is kept). Anything that shows terms to a principal
// must use Visible instead. When Redis fails part way it stops, and the
// failure (typed by redisErr) is the error: the terms given are not all.
func (ix *Index) EachTerm(fn func(term string, df int)) error {
	ctx := context.Background()
	var cursor uint64
	for {
		kv, next, err := ix.rdb.HScan(ctx, dfKey(ix.vn), cursor, "*", 4096).Result()
		if err != nil {
			return ix.redisErr("redisearch.EachTerm", err)
		}
		for i := 0; i+1 < len(kv); i += 2 {
			df, _ := strconv.Atoi(kv[i+1])
			fn(kv[i], df)
		}
		if cursor = next; cursor == 0 {
			// A table that is gone scans as an empty one: the version's
			// manifest, dropped first (whole), says it was.
			n, err := ix.rdb.Exists(ctx, manifestKey(ix.vn)).Result()
			if err != nil {
				return ix.redisErr("redisearch.EachTerm", err)
			}
			if n == 0 {
				ix.stale.Store(true)
				return errs.Errorf("redisearch.EachTerm", errs.Unavailable, "index version %s is gone (a rebuild replaced it): its statistics were dropped", ix.vn)
			}
			return nil
		}
	}
}

// HasDocument reports whether document id is indexed: every document has
// a chunk with ordinal 0.
func (ix *Index) HasDocument(id string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := ix.rdb.Exists(ctx, chunkPrefix(ix.vn)+corpus.ChunkID(id, 0)).Result()
	return err == nil && n == 1
}

// noTimeout is the TIMEOUT (ms) every FT.SEARCH and FT.AGGREGATE sends:
// none, in effect (2^31-1 ms, 24.8 days; go-redis's FT.* helpers drop a
// TIMEOUT of 0, which would also mean none). RediSearch's own default is
// TIMEOUT 500 with ON_TIMEOUT RETURN: a query past 500 ms answers with
// what it found so far, and over RESP2 nothing marks the answer partial
// (at 500,000 chunks a count of every chunk came back 499,499 after
// 583 ms). Every answer assay reads must be complete (counts, visible
// dfs, candidate lists, existence checks, KNN), so no query may stop
// early on the server: the client's ReadTimeout bounds the wait instead,
// and its expiry is an error. A per-query TIMEOUT of the caller's
// remaining deadline would not do: under ON_TIMEOUT RETURN it too answers
// partially. Should a server still end a query and say so (ON_TIMEOUT
// FAIL), redisErr turns its "Timeout limit was reached" into errs.Timeout.
const noTimeout = math.MaxInt32

// redisErr types a Redis failure: a missing FT index means this version
// was dropped under us (a newer one is current); anything else is Redis
// being unavailable, which retries.
func (ix *Index) redisErr(op string, err error) error {
	if err == nil {
		return nil
	}
	msg := strings.ToLower(err.Error())
	if strings.Contains(msg, "no such index") || strings.Contains(msg, "unknown index") {
		ix.stale.Store(true)
		return errs.Errorf(op, errs.Unavailable, "index version %s is gone (a rebuild replaced it): %v", ix.vn, err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return errs.E(op, errs.Timeout, err)
	}
	if strings.Contains(msg, "timeout limit was reached") {
		return errs.Errorf(op, errs.Timeout, "index %s: RediSearch ended the query at its TIMEOUT, so its answer would be partial: %v", ix.vn, err)
	}
	return errs.E(op, errs.Unavailable, err)
}

// SearchText runs the BM25 leg among the chunks that pass f: RediSearch
// finds candidates by BM25STD, each query term weighted so that it counts
// with the visible set's IDF (see queryTerms), then the candidates are
// re-scored with the index's BM25 (bleve's formula) over the principal's
// visible statistics, and the best k are returned.
func (ix *Index) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	const op = "redisearch.SearchText"
	if len(f.Groups) == 0 {
		return nil, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	}
	qterms := ix.an.Terms(text)
	if len(qterms) == 0 || k < 1 {
		return nil, nil
	}
	qt, v, err := ix.weigh(ctx, qterms, f.Groups)
	if err != nil {
		return nil, err
	}
	s := v.s
	if len(qt.terms) == 0 {
		return nil, nil // no visible chunk holds a query term
	}
	if _, err := ix.avgLen(ctx, s); err != nil {
		return nil, ix.redisErr(op, err)
	}
	// A principal who sees every chunk needs no ACL clause: it would
	// only cost (a union of every group, intersected with each term).
	filter := filterQuery(f, !s.all)
	index, weights := ix.vn, qt.weights
	if gi := ix.textIndex(s, f); gi != "" {
		// The caller's one group has an index of its own: every chunk in
		// it is visible, so no ACL clause, and its BM25STD idf is the
		// visible one, which the weights no longer divide out.
		index, filter, weights = gi, "", groupWeights(qt, s.n)
	}
	depth := candidateDepth(k)
	// contents[i], metas[i]: ids[i]'s content and meta fields, read with it
	var ids, contents []string
	var metas []replyMeta
	if common := ix.rare.split(qt.vdf, qt.mass, s.n); common != nil {
		var total int64
		rd := ix.rare.splitDepth(depth)
		ids, contents, metas, total, err = ix.candidates(ctx, index, ix.rare.query(qt.terms, weights, qt.mass, qt.vdf, s.n, common, filter), rd, readContent)
		if err == nil && total < int64(depth) {
			// The rare terms hold fewer chunks than the depth: the
			// common ones would add candidates, so read every term.
			ids, contents, metas = nil, nil, nil
		}
	}
	if ids == nil && err == nil {
		ids, contents, metas, _, err = ix.candidates(ctx, index, textQuery(qt.terms, filter, weights), depth, readContent)
	}
	if err != nil {
		return nil, ix.redisErr(op, err)
	}
	cands, err := ix.candidateTerms(ctx, ids, contents)
	if err != nil {
		return nil, err
	}
	// rescore reads the terms' dfs through v: cached by weigh, unless
	// other questions pushed them out of the cache, and then asked again.
	hits := rescore(v, ix.m.BM25, qterms, cands, k)
	if err := v.Err(); err != nil {
		return nil, err
	}
	ix.keepMeta(hits, ids, metas)
	return hits, nil
}

// readContent: SearchText's candidates' read returns their content field
// (see candidates). A variable for the tests and diagnostics that
// compare it with NOCONTENT and one HMGET a candidate.
var readContent = true

// candidates returns the ids of the best depth chunks for query by
// BM25STD, and past them every chunk that ties the last one's score: the
// engine orders ties arbitrarily, and the exact re-scoring must see all
// of a tie to break it by chunk id as bleve does.
//
// One read asks for tieMargin chunks past depth, so the ties come with
// the candidates: RediSearch evaluates the whole query again for every
// page (it has no cursor over a scored union), and a second page only
// to look past the depth-th score cost as much as the first (30 ms of
// Redis's one thread at 500,000 chunks, docs/log/performance-scale.md). A
// tie longer than the margin still reads on.
//
// With withContent, the read also returns each chunk's content field
// (RETURN instead of NOCONTENT), in contents beside ids (contents[i] is
// ids[i]'s, "" when the reply had none): the re-scoring needs it, and
// the engine loads it inside the one search, where one HMGET a
// candidate (candidateTerms) was hundreds of commands a question. In an
// index with the meta field (Manifest.MetaSortable) it returns that
// too, in metas beside ids, for ChunkMeta (keepMeta): like content it
// comes from RediSearch's document table, not the chunk's HASH; and the
// hit field too for HitMeta in an index that has it (HitSortable). total
// is the number of chunks query matched.
//
// index is the FT index asked: the version's, or one of its text groups'
// (textIndex), whose documents are the same chunks' HASHes.
func (ix *Index) candidates(ctx context.Context, index, query string, depth int, withContent bool) (ids, contents []string, metas []replyMeta, total int64, err error) {
	p := chunkPrefix(ix.vn)
	page := depth + tieMargin
	cut := math.Inf(-1) // the depth-th score, once read
	withMeta := withContent && ix.m.MetaSortable && metaReturn
	withHit := withMeta && ix.m.HitSortable && hitReturn
	for offset := 0; ; offset += page {
		args := []any{"FT.SEARCH", index, query, "NOCONTENT"}
		if withHit {
			args = append(args[:3], "RETURN", 3, fieldContent, fieldMeta, fieldHit)
		} else if withMeta {
			args = append(args[:3], "RETURN", 2, fieldContent, fieldMeta)
		} else if withContent {
			args = append(args[:3], "RETURN", 1, fieldContent)
		}
		raw, err := ix.do(ctx, append(args, "VERBATIM", "WITHSCORES", "SCORER", "BM25STD",
			"LIMIT", offset, page, "TIMEOUT", noTimeout, "DIALECT", 2)...).Slice()
		if err != nil {
			return nil, nil, nil, 0, err
		}
		var got, texts []string
		var ms []replyMeta
		var scores []float64
		if withContent {
			total, got, scores, texts, ms, err = parseWithScores(raw, p, true)
		} else {
			total, got, scores, err = parseScored(raw, p)
		}
		if err != nil {
			return nil, nil, nil, 0, err
		}
		n := len(got)
		for i, id := range got {
			score := scores[i]
			if len(ids) >= depth && score < cut {
				return ids, contents, metas, total, nil
			}
			ids = append(ids, id)
			if withContent {
				contents = append(contents, texts[i])
			}
			if withMeta {
				metas = append(metas, ms[i])
			}
			if len(ids) == depth {
				cut = score
			}
		}
		if n < page || int64(offset+page) >= total {
			return ids, contents, metas, total, nil
		}
	}
}

// metaReturn: in an index with the meta field the searches return it
// (candidates, SearchVector). A variable for the tests and measurements
// that compare it with ChunkMeta's HMGETs on the same index.
var metaReturn = true

// hitReturn: in an index with the hit field the searches return it
// beside the meta field (candidates, SearchVector). A variable for the
// tests and measurements that compare it with HitMeta's HMGETs.
var hitReturn = true

// parseScored reads an FT.SEARCH NOCONTENT WITHSCORES reply: the total
// matches, the ids without prefix p and their scores (-Inf when
// unreadable). go-redis misreads WITHSCORES with NOCONTENT: the reply is
// [total, id, score, id, score, ...].
func parseScored(raw []any, p string) (total int64, ids []string, scores []float64, err error) {
	total, ids, scores, _, _, err = parseWithScores(raw, p, false)
	return total, ids, scores, err
}

// parseWithScores reads an FT.SEARCH WITHSCORES reply, each id followed
// by its score and, when content, the list of its returned fields, of
// which it reads fieldContent's, fieldMeta's and fieldHit's values
// (texts and metas: nil without content; "" where a chunk's list lacks
// the field, as when the chunk has none: candidateTerms then reads it
// as it reads a chunk the search did not return).
func parseWithScores(raw []any, p string, content bool) (total int64, ids []string, scores []float64, texts []string, metas []replyMeta, err error) {
	stride, reply := 2, "FT.SEARCH WITHSCORES"
	if content {
		stride, reply = 3, "FT.SEARCH WITHSCORES RETURN"
	}
	if len(raw) == 0 || len(raw)%stride != 1 {
		return 0, nil, nil, nil, nil, fmt.Errorf("%s: a reply of %d elements", reply, len(raw))
	}
	total, _ = raw[0].(int64)
	n := (len(raw) - 1) / stride
	ids, scores = make([]string, n), make([]float64, n)
	if content {
		texts, metas = make([]string, n), make([]replyMeta, n)
	}
	for i := range n {
		at := 1 + stride*i
		id, _ := raw[at].(string)
		ids[i] = strings.TrimPrefix(id, p)
		scores[i] = math.Inf(-1)
		if sv, ok := raw[at+1].(string); ok {
			scores[i], _ = strconv.ParseFloat(sv, 64)
		}
		if !content {
			continue
		}
		fields, _ := raw[at+2].([]any)
		for j := 0; j+1 < len(fields); j += 2 {
			switch name, _ := fields[j].(string); name {
			case fieldContent:
				texts[i], _ = fields[j+1].(string)
			case fieldMeta:
				metas[i].meta, _ = fields[j+1].(string)
			case fieldHit:
				metas[i].hit, _ = fields[j+1].(string)
			}
		}
	}
	return total, ids, scores, texts, metas, nil
}

// tieMargin is how many chunks past the depth the candidates' read also
// asks for, to see the depth-th score's ties in the same read. A tie
// longer than the margin still reads on (a second page: the whole query
// evaluated again), so the margin changes no answer, only what a read
// returns. 8 since round 37 (32 before; docs/log/round-37-p37-split.md):
// for the end-to-end benchmark's 300 questions at 500,000 chunks
// (`public`, TestSplitTies) the depth-th score tied past the depth in 49
// of 287 reads, by 1 to 5 chunks, never more; the 24 chunks more that 32
// asked for were returned, content and all, and thrown away.
var tieMargin = 8

// queryTerms are a query's terms that some visible chunk holds, with
// their $weights in the BM25STD query, visible document frequencies and
// masses m·idf² (bleve's weight of the term, visible idf).
//
// bleve's BM25 weighs a term by idf², over the visible chunks, once per
// occurrence in the query; BM25STD weighs it by its idf over the whole
// index. So a term weighs m·idf_visible²/idf_index: its candidates are
// ordered by the visible IDF, and no hidden chunk's count decides which
// term dominates. (BM25STD's own k1, b and length normalisation remain;
// the exact re-scoring corrects them among the candidates.)
type queryTerms struct {
	terms   []string
	weights []float64
	vdf     []int
	mass    []float64
}

// weigh weighs the query terms qterms (repeats counted) with the
// statistics of the chunks groups may see (queryTerms), as SearchText
// sends them; v is those statistics.
func (ix *Index) weigh(ctx context.Context, qterms, groups []string) (qt queryTerms, v Vocabulary, err error) {
	uniq := make([]string, 0, len(qterms))
	mult := map[string]int{}
	for _, t := range qterms {
		if mult[t] == 0 {
			uniq = append(uniq, t)
		}
		mult[t]++
	}
	// Statistics reads: statsTimeout at most, as a vocabulary's (a search's
	// first command is often one, and carries its check: see Check.dead).
	sctx, cancel := withStats(ctx)
	defer cancel()
	s, err := ix.set(sctx, groups)
	if err != nil {
		return queryTerms{}, Vocabulary{}, err
	}
	v = Vocabulary{ix: ix, ctx: ctx, groups: groups, s: s, fail: &firstErr{}}
	qt, err = ix.queryTerms(sctx, v, uniq, mult)
	return qt, v, err
}

// queryTerms reads the visible and whole-index document frequencies of
// uniq and weighs each term that some visible chunk holds.
func (ix *Index) queryTerms(ctx context.Context, v Vocabulary, uniq []string, mult map[string]int) (queryTerms, error) {
	vis, whole, err := ix.bothDocFreqs(ctx, v.s, uniq)
	if err != nil {
		return queryTerms{}, err
	}
	// BM25STD's idf is backend.IDF's formula over the whole index
	// (RediSearch computes log(1 + (N − df + 0.5)/(df + 0.5)) with the
	// ratio in single precision: dividing by this one cancels it but for
	// float32 rounding).
	idf := backend.IDF
	var q queryTerms
	for i, t := range uniq {
		if vis[i] == 0 {
			continue
		}
		vi := idf(v.s.n, vis[i])
		q.terms = append(q.terms, t)
		q.weights = append(q.weights, float64(mult[t])*vi*vi/idf(ix.st.Chunks, whole[i]))
		q.vdf = append(q.vdf, vis[i])
		q.mass = append(q.mass, float64(mult[t])*vi*vi)
	}
	return q, nil
}

// groupSearch: a caller who sees one text group alone runs the BM25 leg
// in that group's index (Manifest.TextGroups). A variable for the
// measurements.
var groupSearch = true

// textIndex returns the FT index of the text group a caller whose
// visible set is s and whose filter is f searches in, or "" for the
// version's own: a caller with one group, no other condition, who does
// not see every chunk, whose group's index holds the content field. Every
// chunk in it is one the caller may see, and only those: its postings,
// document count and frequencies are the caller's visible ones.
func (ix *Index) textIndex(s *visibleStats, f backend.Filter) string {
	if !groupSearch || s.all || len(ix.m.TextGroups) == 0 || len(f.Conditions()) != 1 {
		return ""
	}
	groups := slices.Compact(slices.Sorted(slices.Values(f.Groups)))
	if len(groups) != 1 || !slices.Contains(ix.m.TextGroups, groups[0]) {
		return ""
	}
	i := slices.Index(ix.m.VectorGroups, groups[0])
	if i < 0 {
		return ""
	}
	return vectorGroupIndex(ix.vn, i)
}

// groupWeights are qt's $weights for a text group's index, whose chunks
// are the n visible ones: there BM25STD's idf is the visible idf, so a
// term weighs m·idf_visible²/idf_visible = m·idf_visible (see
// queryTerms).
func groupWeights(qt queryTerms, n int) []float64 {
	w := make([]float64, len(qt.terms))
	for i := range w {
		w[i] = qt.mass[i] / backend.IDF(n, qt.vdf[i])
	}
	return w
}

// candidateDepth is how many BM25STD candidates the BM25 leg re-scores
// for k results (ties past them included; see candidates): k and
// overFetch × 10 more, + 16. BM25STD's k1, b and length normalisation
// differ from bleve's, and its average length is the whole index's, so
// it reads well past k: TestRestrictedAgreement measured the top-10
// agreement with exhaustive exact scoring on SciFact with team ACLs at
// k = 10 and 1, 2, 4 and 8 × k (+16), and the top 10 is what the
// over-fetch protects (see docs/retrieval.md); a larger k reads k more.
func candidateDepth(k int) int { return k + overFetch*10 + 16 }

// overFetch is the BM25 leg's over-fetch factor (a variable for the
// measurement).
var overFetch = 8

// vectorMargin is how many neighbours past k the vector leg reads.
const vectorMargin = 16

// The HNSW graph's parameters and the vector leg's EF_RUNTIME, chosen
// together by measurement (TestHNSWChoice, TestKNNLegForms;
// docs/retrieval.md, docs/log/performance-scale.md): Redis inserts a vector
// into the graph on its one thread, and with RediSearch's default
// EF_CONSTRUCTION (200) that was most of a build; a lighter graph walked
// with a wider EF_RUNTIME keeps recall for a fraction of the insertion
// time. Variables for the measurements.
var (
	hnswM              = 16
	hnswEFConstruction = 32
	// hnswType is the HNSW vectors' element type for new builds:
	// BFLOAT16 took Redis 0.55× FLOAT32's time per insertion with the
	// same recall against exact FLOAT32 inner products, and half the
	// memory (docs/log/performance-scale.md, "the vector leg and the build
	// rate"). FLAT indexes stay FLOAT32: they are the exact option.
	hnswType = BFloat16
	// vectorEF is how many neighbours the graph walk keeps (EF_RUNTIME;
	// the leg's depth when that is larger). 400 since round 34
	// (docs/log/round-34-p34-knn.md): at 500,000 chunks it recalls 0.39
	// of the exact top 100 (800: 0.48; 1,600: 0.57; no EF near exact),
	// for 3.8 ms of Redis's time a search against 800's 6.0, and
	// hybrid+rerank's nDCG@10 held (all 0.4846 → 0.4851, public 0.2309
	// → 0.2310, SciFact 0.6908 → 0.6907), its p50 ×0.88-0.93. Its final
	// top 10 agree with those of an exact leg 0.92 (800: 0.93): the
	// fusion and the reranker take few of the leg's neighbours.
	vectorEF = 400
	// batchesShare: a caller who sees at least 1/batchesShare of the
	// chunks (and not all of them) gets the graph walked in batches
	// (HYBRID_POLICY BATCHES), one who sees fewer the engine's own
	// choice, which for a small share computes every visible chunk's
	// distance. Left to itself the engine computed every visible
	// distance for `public` (half the chunks): 35-40 ms of Redis's
	// thread at 50,000 chunks against 2-9 ms in batches.
	batchesShare = 4
	// batchFactor: a batch is batchFactor × the leg's depth neighbours.
	batchFactor = 2
)

// vectorForm returns the vector leg's query, depth neighbours deep, for a
// caller whose visible set is s and whose filter is f, in an index of
// indexChunks chunks: no ACL clause for a caller who sees every chunk
// (the plain graph walk), the graph walked in batches for one who sees a
// large share and has no other condition, and the engine's choice for
// the rest (with other conditions the share that passes is unknown).
func vectorForm(s *visibleStats, indexChunks int, f backend.Filter, depth, ef int) string {
	filter := filterQuery(f, !s.all)
	aclOnly := len(f.Conditions()) == 1
	if aclOnly && !s.all && ef > 0 && s.n*batchesShare >= indexChunks {
		return vectorQuery(filter, depth, ef, batchFactor*depth)
	}
	return vectorQuery(filter, depth, ef, 0)
}

// knnPart is one KNN query of the vector leg and the FT index it asks.
type knnPart struct{ index, query string }

// vectorParts returns the vector leg's queries, depth neighbours deep, in
// version vn whose vector groups are vgroups (Manifest.VectorGroups; flat
// those of them whose index is FLAT), for a caller whose visible set is s
// and whose filter is f. A restricted caller with no other condition each
// of whose groups has a graph (or a FLAT index) of its own asks those,
// without an ACL clause (every chunk in them is one the caller may see;
// a FLAT index without EF_RUNTIME), and the results are merged by
// distance.
// Anyone else asks one query, vectorForm's: a caller with a group
// without a graph too would add that group's scan to the walk (at
// 500,000 chunks `public` with team-07 cost Redis 9-13 ms more a search
// than the batched walk, p50 ×1.5-1.6; docs/log/round-33-p33-knn.md).
func vectorParts(vn string, vgroups, flat []string, s *visibleStats, indexChunks int, f backend.Filter, depth, ef int) []knnPart {
	one := []knnPart{{vn, vectorForm(s, indexChunks, f, depth, ef)}}
	if s.all || ef == 0 || len(vgroups) == 0 || len(f.Conditions()) != 1 {
		return one
	}
	var parts []knnPart
	for _, g := range slices.Compact(slices.Sorted(slices.Values(f.Groups))) {
		i := slices.Index(vgroups, g)
		if i < 0 {
			return one
		}
		gef := ef
		if slices.Contains(flat, g) {
			gef = 0
		}
		parts = append(parts, knnPart{vectorGroupIndex(vn, i), vectorQuery("", depth, gef, 0)})
	}
	return parts
}

// SearchVector returns the k chunks nearest to vec (inner product; cosine
// for the unit vectors assay's embedders make) among those that pass f,
// by KNN queries with the filter inside them or answered by graphs of
// the caller's groups' chunks (vectorParts).
func (ix *Index) SearchVector(ctx context.Context, vec []float32, f backend.Filter, k int) ([]backend.Hit, backend.VectorStats, error) {
	const op = "redisearch.SearchVector"
	start := time.Now()
	switch {
	case len(f.Groups) == 0:
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	case ix.m.Embedder == "":
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "index %s has no vectors (built without an embedder)", ix.vn)
	case len(vec) != ix.m.Dim:
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "query vector has %d dimensions, the index %d", len(vec), ix.m.Dim)
	case k < 1:
		return nil, backend.VectorStats{}, nil
	}
	s, err := ix.set(ctx, f.Groups)
	if err != nil {
		return nil, backend.VectorStats{}, err
	}
	// A few past k, so that chunks at the same distance (copies) are
	// ordered by id, not by the graph's walk.
	depth := k + vectorMargin
	ef := 0
	if ix.m.Vector == HNSW {
		ef = max(vectorEF, depth)
	}
	parts := vectorParts(ix.vn, ix.m.VectorGroups, ix.m.VectorGroupsFlat, s, ix.st.Chunks, f, depth, ef)
	ret := []redis.FTSearchReturn{{FieldName: fieldDistance}}
	withMeta := ix.m.MetaSortable && metaReturn
	if withMeta {
		// The hits' metadata for ChunkMeta (keepMeta), from the
		// document table (Manifest.MetaSortable).
		ret = append(ret, redis.FTSearchReturn{FieldName: fieldMeta})
	}
	withHit := withMeta && ix.m.HitSortable && hitReturn
	if withHit {
		// And their result fields for HitMeta (Manifest.HitSortable).
		ret = append(ret, redis.FTSearchReturn{FieldName: fieldHit})
	}
	opts := &redis.FTSearchOptions{
		Return:         ret,
		SortBy:         []redis.FTSearchSortBy{{FieldName: fieldDistance, Asc: true}},
		Limit:          depth,
		Params:         map[string]any{"B": vectorBytes(vec, ix.m.vectorType())},
		DialectVersion: 2,
		Timeout:        noTimeout,
	}
	pipe := ix.rdb.Pipeline()
	cmds := make([]*redis.FTSearchCmd, len(parts))
	for i, p := range parts {
		cmds[i] = pipe.FTSearchWithArgs(ctx, p.index, p.query, opts)
	}
	if err := ix.exec(ctx, pipe); err != nil {
		return nil, backend.VectorStats{}, ix.redisErr(op, err)
	}
	p := chunkPrefix(ix.vn)
	hits := make([]backend.Hit, 0, len(parts)*depth)
	seen := make(map[string]bool, len(parts)*depth)
	var ids []string // the fields beside each hit's id, withMeta
	var metas []replyMeta
	for _, c := range cmds {
		for _, d := range c.Val().Docs {
			dist, err := strconv.ParseFloat(d.Fields[fieldDistance], 64)
			if err != nil {
				return nil, backend.VectorStats{}, errs.Errorf(op, errs.Internal, "KNN result %s has no distance", d.ID)
			}
			// A chunk of two of the caller's groups comes from both
			// graphs, at the same distance.
			id := strings.TrimPrefix(d.ID, p)
			if !seen[id] {
				seen[id] = true
				hits = append(hits, backend.Hit{ChunkID: id, Score: 1 - dist})
				if withMeta {
					ids, metas = append(ids, id), append(metas, replyMeta{meta: d.Fields[fieldMeta], hit: d.Fields[fieldHit]})
				}
			}
		}
	}
	hits = backend.SortHits(hits, k)
	ix.keepMeta(hits, ids, metas)
	return hits, backend.VectorStats{Allowed: len(hits), Took: time.Since(start), Method: "RediSearch " + ix.m.Vector + " KNN"}, nil
}

// vectorBytes is vec in the VECTOR field's format: little-endian FLOAT32,
// or BFLOAT16 (a float32's top 16 bits, rounded to nearest even).
func vectorBytes(vec []float32, typ string) []byte {
	if typ == BFloat16 {
		b := make([]byte, 2*len(vec))
		for i, x := range vec {
			u := math.Float32bits(x)
			u += 0x7fff + (u>>16)&1
			binary.LittleEndian.PutUint16(b[2*i:], uint16(u>>16))
		}
		return b
	}
	b := make([]byte, 4*len(vec))
	for i, x := range vec {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func float32frombits(b []byte) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(b))
}
