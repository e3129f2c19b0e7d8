package redisearch

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/errgroup"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/terms"
)

// BuildOptions say how to build a Redis backend.
type BuildOptions struct {
	// Checksum is the corpus checksum recorded in the manifest.
	Checksum string
	// Embedder, when set, gives every chunk a vector; unchanged chunks
	// reuse the current version's vectors (same embedder id).
	Embedder backend.Embedder
	// Chunking describes the chunker settings, for the manifest.
	Chunking string
	// BM25 parameters the BM25 leg re-scores with; zero means
	// backend.DefaultBM25.
	BM25 backend.BM25
	// Vector is HNSW (empty: this package's default), HNSW+SmallGroupScans
	// (the service's builds' default since round 43: index.vector) or
	// FLAT, in any case.
	Vector string
	// Progress, when set, is called as chunks are written and embedded.
	Progress func(stage string, done, total int)
}

// vectorLayout reads a BuildOptions.Vector (any case; empty: HNSW): the
// vector algorithm, and whether small groups get FLAT indexes too
// (SmallGroupScans). config's index.vector names the same layouts
// (config.VectorHNSW, VectorSmallFlat, VectorFlat) and checks them when
// it loads, before any build.
func vectorLayout(v string) (algorithm string, small bool, err error) {
	switch strings.ToUpper(v) {
	case "", HNSW:
		return HNSW, false, nil
	case HNSW + SmallGroupScans:
		return HNSW, true, nil
	case FLAT:
		return FLAT, false, nil
	}
	return "", false, fmt.Errorf("want hnsw, hnsw%s or flat, got %q", strings.ToLower(SmallGroupScans), v)
}

// batchSize is how many chunks go to Redis per pipeline, and to the
// embedder per call (a variable for the measurements).
var batchSize = 256

// Build writes chunks as a new version of the index called name and
// moves the alias and the current pointer to it when it is complete. The
// version it replaces stays until the next build begins, which drops it
// with its documents before writing (dropReplaced), so requests in flight
// on it finish there. Chunk ids must be unique.
// Concurrent builds of one name are not supported.
func Build(ctx context.Context, rdb *redis.Client, name string, chunks []corpus.Chunk, o BuildOptions) (_ Manifest, _ backend.BuildStats, err error) {
	const op = "redisearch.Build"
	start := time.Now()
	if o.BM25 == (backend.BM25{}) {
		o.BM25 = backend.DefaultBM25
	}
	vector, small, err := vectorLayout(o.Vector)
	if err != nil {
		return Manifest{}, backend.BuildStats{}, errs.FieldError(op, "vector", err.Error())
	}
	o.Vector = vector
	if o.Progress == nil {
		o.Progress = func(string, int, int) {}
	}
	if err := checkChunks(chunks); err != nil {
		return Manifest{}, backend.BuildStats{}, err
	}
	if err := Ping(ctx, rdb); err != nil {
		return Manifest{}, backend.BuildStats{}, err
	}
	docs := map[string]bool{}
	for i := range chunks {
		docs[chunks[i].DocID] = true
	}
	stats := backend.BuildStats{Documents: len(docs), Chunks: len(chunks)}
	m := Manifest{Manifest: backend.Manifest{
		SchemaVersion: SchemaVersion, Analyzer: "en (assay terms, NOSTEM in RediSearch)", Fields: "content=title+text",
		BM25: o.BM25, Chunking: o.Chunking, CorpusChecksum: o.Checksum, Documents: len(docs), Chunks: len(chunks),
	}, ContentSortable: contentSortable, MetaSortable: metaSortable, HitSortable: metaSortable && hitSortable}
	if o.Embedder != nil {
		m.Embedder, m.Dim, m.Vector = o.Embedder.ID(), o.Embedder.Dim(), o.Vector
		m.VectorLayout = strings.ToLower(o.Vector)
		if small {
			m.VectorLayout += strings.ToLower(SmallGroupScans)
		}
		m.VectorType = Float32
		if o.Vector == HNSW {
			m.HNSWM, m.HNSWEFConstruction, m.VectorType = hnswM, hnswEFConstruction, hnswType
		}
	}
	groupChunks := vectorGroups(&m, chunks, small)
	if len(m.VectorGroupsFlat) == 0 {
		m.SchemaVersion = noFlatSchema // a reader of version 5 reads it (see SchemaVersion)
	}

	old := 0
	if v, err := rdb.Get(ctx, currentKey(name)).Int(); err == nil {
		old = v
	} else if !errors.Is(err, redis.Nil) {
		return Manifest{}, backend.BuildStats{}, errs.E(op, errs.Unavailable, err)
	}
	// The version the last build replaced, kept for the requests still
	// reading it, goes now, before this build writes (Redis holds at most
	// two versions: the served one and the one being built), and with it
	// anything a builder that crashed left (a half-built version).
	dropReplaced(ctx, rdb, name, old)
	v, err := rdb.Incr(ctx, seqKey(name)).Result()
	if err != nil {
		return Manifest{}, backend.BuildStats{}, errs.E(op, errs.Unavailable, err)
	}
	m.Version = int(v)
	vn := versionName(name, m.Version)
	if err := createIndex(ctx, rdb, vn, m); err != nil {
		return Manifest{}, backend.BuildStats{}, err
	}
	defer func() {
		if err != nil { // leave nothing half-built behind
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			dropVersion(cctx, rdb, vn)
		}
	}()

	an := terms.NewUncached()
	df := map[string]int{}
	gdf := map[string]map[string]int{} // group → term → chunks naming the group that hold it
	parts := map[string]partLen{}      // ACL part → its chunks and tokens
	st := indexStats{Chunks: len(chunks)}
	pairs := names.NewTable() // the chunks' name pairs by group
	var mu sync.Mutex         // guards df, gdf, parts, st, pairs, stats and done
	done := 0
	// The batches' pipelines go through a client of their own whose reads
	// may take a minute: a server busy indexing (HNSW insertion) answers
	// a pipeline of batchSize chunks slower than an interactive read
	// timeout allows (3 s by default: builds failed with i/o timeouts at
	// 50,000 chunks on a loaded machine).
	wo := *rdb.Options()
	wo.ReadTimeout, wo.PoolSize = time.Minute, writers
	wdb := redis.NewClient(&wo)
	defer wdb.Close()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(writers)
	for s := 0; s < len(chunks); s += batchSize {
		batch := chunks[s:min(s+batchSize, len(chunks))]
		g.Go(func() error {
			w, err := writeBatch(gctx, wdb, an, name, old, vn, m, batch, o.Embedder)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for t, n := range w.df {
				df[t] += n
			}
			for g, w := range w.gdf {
				sum := gdf[g]
				if sum == nil {
					sum = make(map[string]int, len(w))
					gdf[g] = sum
				}
				for t, n := range w {
					sum[t] += n
				}
			}
			for k, p := range w.parts {
				sum := parts[k]
				sum.chunks += p.chunks
				sum.tokens += p.tokens
				parts[k] = sum
				st.Tokens += p.tokens
			}
			st.Empty += w.empty
			pairs.Merge(w.names)
			stats.Embedded += w.st.Embedded
			stats.Reused += w.st.Reused
			done += len(batch)
			o.Progress("index", done, len(chunks))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Manifest{}, backend.BuildStats{}, err
	}
	if err := waitIndexed(ctx, rdb, vn, len(chunks)); err != nil {
		return Manifest{}, backend.BuildStats{}, err
	}
	for i, n := range groupChunks {
		if err := waitIndexed(ctx, rdb, vectorGroupIndex(vn, i), n); err != nil {
			return Manifest{}, backend.BuildStats{}, err
		}
	}
	if old > 0 {
		if stats.Removed, err = removed(ctx, rdb, versionName(name, old), chunks); err != nil {
			return Manifest{}, backend.BuildStats{}, err
		}
	}
	if err := writeDocFreqs(ctx, rdb, dfKey(vn), df); err != nil {
		return Manifest{}, backend.BuildStats{}, err
	}
	for g, df := range gdf {
		if err := writeDocFreqs(ctx, rdb, groupDFKey(vn, g), df); err != nil {
			return Manifest{}, backend.BuildStats{}, err
		}
	}
	if err := writeLengths(ctx, rdb, vn, parts); err != nil {
		return Manifest{}, backend.BuildStats{}, err
	}
	m.BuiltAt = time.Now().UTC()
	mj, _ := json.Marshal(m)
	sj, _ := json.Marshal(st)
	nj, err := json.Marshal(pairs)
	if err != nil {
		return Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	if err := rdb.MSet(ctx, manifestKey(vn), mj, statsKey(vn), sj, namesKey(vn), nj).Err(); err != nil {
		return Manifest{}, backend.BuildStats{}, errs.E(op, errs.Unavailable, err)
	}
	if err := ctx.Err(); err != nil {
		return Manifest{}, backend.BuildStats{}, errs.E(op, errs.Timeout, err)
	}
	// The switch: the alias for outside readers, then the pointer workers
	// watch. The old version stays, whole, until the next build begins
	// (dropReplaced): a request that began on it before the switch
	// finishes on it (one that begins after reads the new pointer first).
	if err := rdb.FTAliasUpdate(ctx, vn, name).Err(); err != nil {
		return Manifest{}, backend.BuildStats{}, errs.Errorf(op, errs.Unavailable, "FT.ALIASUPDATE %s %s: %v", name, vn, err)
	}
	if err := rdb.Set(ctx, currentKey(name), m.Version, 0).Err(); err != nil {
		return Manifest{}, backend.BuildStats{}, errs.E(op, errs.Unavailable, err)
	}
	dropOrphanGraphs(ctx, rdb, name)
	stats.Took = time.Since(start)
	return m, stats, nil
}

// writers is how many batches are prepared (analysed, embedded) and
// written at once, so that the worker's embedding and Redis's indexing
// overlap; Redis indexes one pipeline at a time, so more than two only
// queue. (A variable for the measurements.)
var writers = 2

// written is what writeBatch counted of one batch.
type written struct {
	df    map[string]int
	gdf   map[string]map[string]int // group → term → chunks naming the group that hold it
	parts map[string]partLen        // ACL part → its chunks and tokens
	empty int
	names *names.Table       // the chunks' name pairs by group
	st    backend.BuildStats // Embedded and Reused
}

// writeBatch embeds one batch (or reuses the old version's vectors) and
// writes its chunks in one pipeline.
func writeBatch(ctx context.Context, rdb *redis.Client, an *terms.Analyzer, name string, old int, vn string, m Manifest, batch []corpus.Chunk, e backend.Embedder) (written, error) {
	w := written{df: map[string]int{}, gdf: map[string]map[string]int{}, parts: map[string]partLen{}, names: names.NewTable()}
	vecs, err := vectors(ctx, rdb, name, old, m, batch, e, &w.st)
	if err != nil {
		return w, err
	}
	pipe := rdb.Pipeline()
	for i := range batch {
		c := &batch[i]
		title, text := an.Terms(c.Title), an.Terms(c.Text)
		all := append(slices.Clip(title), text...)
		fields := chunkHash(c, all, backend.Fingerprint(text), m.MetaSortable, m.HitSortable)
		if vecs != nil {
			fields[fieldVector] = vectorBytes(vecs[i], m.vectorType())
			fields["ek"] = backend.CacheKey(m.Embedder, backend.EmbedText(c))
		}
		pipe.HSet(ctx, chunkPrefix(vn)+c.ID, fields)
		distinct := slices.Compact(slices.Sorted(slices.Values(all)))
		for _, t := range distinct {
			w.df[t]++
		}
		if c.Text == "" {
			w.empty++
		}
		w.names.Add(an, c.ACL, c.Title, c.Text)
		part := partKey(c.ACL)
		for _, g := range strings.Split(part, ",") { // each group once, however often the ACL names it
			gdf := w.gdf[g]
			if gdf == nil {
				gdf = map[string]int{}
				w.gdf[g] = gdf
			}
			for _, t := range distinct {
				gdf[t]++
			}
		}
		p := w.parts[part]
		p.chunks++
		p.tokens += int64(len(all))
		w.parts[part] = p
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return w, errs.E("redisearch.Build", errs.Unavailable, err)
	}
	return w, nil
}

// writeDocFreqs writes document frequencies to the HASH key: the whole
// index's (dfKey) or one group's (groupDFKey), HSET in pipelines of
// dfBatch fields.
func writeDocFreqs(ctx context.Context, rdb *redis.Client, key string, df map[string]int) error {
	const dfBatch = 4096
	pipe := rdb.Pipeline()
	fields := make([]any, 0, 2*dfBatch)
	flush := func() error {
		if len(fields) > 0 {
			pipe.HSet(ctx, key, fields...)
			fields = fields[:0]
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return errs.E("redisearch.Build", errs.Unavailable, err)
		}
		return nil
	}
	for t, n := range df {
		fields = append(fields, t, n)
		if len(fields) == 2*dfBatch {
			pipe.HSet(ctx, key, fields...)
			fields = make([]any, 0, 2*dfBatch)
			if pipe.Len() >= 16 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// writeLengths writes, per group, the length table of the ACL parts
// naming it (see stats.go): one HSET of up to lensBatch fields a group
// at a time, in pipelines of about lensBatch fields. (One HSET a field,
// as before round 22, was 89,400 commands at 50,000 chunks.)
func writeLengths(ctx context.Context, rdb *redis.Client, vn string, parts map[string]partLen) error {
	const lensBatch = 4096
	byGroup := map[string][]any{}
	for part, p := range parts {
		for _, g := range strings.Split(part, ",") {
			byGroup[g] = append(byGroup[g], part, p.String())
		}
	}
	pipe := rdb.Pipeline()
	n := 0
	for _, g := range slices.Sorted(maps.Keys(byGroup)) {
		fields := byGroup[g]
		for s := 0; s < len(fields); s += 2 * lensBatch {
			batch := fields[s:min(s+2*lensBatch, len(fields))]
			pipe.HSet(ctx, lensKey(vn, g), batch...)
			n += len(batch) / 2
			if n >= lensBatch {
				if _, err := pipe.Exec(ctx); err != nil {
					return errs.E("redisearch.Build", errs.Unavailable, err)
				}
				n = 0
			}
		}
	}
	if n > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return errs.E("redisearch.Build", errs.Unavailable, err)
		}
	}
	return nil
}

// dropVersion drops version vn: its vector groups' indexes, then its FT
// index with its chunks, then its manifest and statistics. The groups'
// indexes go first, so that deleting the chunks does not update them.
func dropVersion(ctx context.Context, rdb *redis.Client, vn string) {
	if names, err := rdb.Do(ctx, "FT._LIST").StringSlice(); err == nil {
		for _, n := range names {
			if strings.HasPrefix(n, vectorGroupsPrefix(vn)) {
				rdb.FTDropIndex(ctx, n)
			}
		}
	}
	rdb.FTDropIndexWithArgs(ctx, vn, &redis.FTDropIndexOptions{DeleteDocs: true})
	dropStats(ctx, rdb, vn)
}

// dropReplaced drops every version of the index called name but keep
// (the current one; 0: none): the version the last build replaced, which
// it left for the requests in flight on it, and a version a builder that
// crashed left half-built. A version is found by its FT index (created
// before anything else of it is written, dropped after its chunks by
// dropVersion).
func dropReplaced(ctx context.Context, rdb *redis.Client, name string, keep int) {
	for _, v := range versionsOf(ctx, rdb, name) {
		if v != keep {
			dropVersion(ctx, rdb, versionName(name, v))
		}
	}
}

// versionsOf lists the versions of the index called name that have an
// FT index.
func versionsOf(ctx context.Context, rdb *redis.Client, name string) []int {
	names, err := rdb.Do(ctx, "FT._LIST").StringSlice()
	if err != nil {
		return nil
	}
	var vs []int
	for _, n := range names {
		if s, ok := strings.CutPrefix(n, prefix(name)+"v"); ok {
			if v, err := strconv.Atoi(s); err == nil {
				vs = append(vs, v)
			}
		}
	}
	slices.Sort(vs)
	return vs
}

// dropOrphanGraphs drops the vector groups' indexes (vectorGroupsPrefix)
// of any version of name whose main index is gone. A binary older than
// the graphs replaces a version by dropping its main index only, and
// leaves its graphs' definitions behind, empty; the next build by this
// one sweeps them. A version's main index is created before its graphs
// and dropped after them (dropVersion), so graphs without their main
// index in one FT._LIST are a replaced version's.
func dropOrphanGraphs(ctx context.Context, rdb *redis.Client, name string) {
	names, err := rdb.Do(ctx, "FT._LIST").StringSlice()
	if err != nil {
		return
	}
	for _, n := range names {
		vn, _, ok := strings.Cut(n, ":vg:")
		v, ours := strings.CutPrefix(vn, prefix(name)+"v")
		if _, err := strconv.Atoi(v); ok && ours && err == nil && !slices.Contains(names, vn) {
			rdb.FTDropIndex(ctx, n)
		}
	}
}

// dropStats deletes version vn's manifest and statistics (its chunks go
// with its FT index).
func dropStats(ctx context.Context, rdb *redis.Client, vn string) {
	keys := []string{manifestKey(vn), statsKey(vn), dfKey(vn), namesKey(vn)}
	for _, p := range []string{lensKey(vn, ""), groupDFKey(vn, "")} {
		iter := rdb.Scan(ctx, 0, escapeGlob(p)+"*", 1000).Iterator()
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
	}
	for s := 0; s < len(keys); s += 1000 {
		rdb.Unlink(ctx, keys[s:min(s+1000, len(keys))]...)
	}
}

// checkChunks refuses chunks whose ids repeat or whose TAG values would
// change meaning in a TAG field: an ACL group "a,b" must not become the
// two groups a and b.
func checkChunks(chunks []corpus.Chunk) error {
	const op = "redisearch.Build"
	seen := make(map[string]bool, len(chunks))
	for i := range chunks {
		c := &chunks[i]
		if seen[c.ID] {
			return errs.Errorf(op, errs.Invalid, "chunk id %q appears twice", c.ID)
		}
		seen[c.ID] = true
		if len(c.ACL) == 0 {
			return errs.Errorf(op, errs.Invalid, "chunk %s: field acl: empty (every chunk needs an ACL)", c.ID)
		}
		for _, f := range []struct {
			name string
			vals []string
		}{{"acl", c.ACL}, {"products", c.Products}, {"status", []string{string(c.Status)}}} {
			for _, v := range f.vals {
				if !tagValueOK(v) {
					return errs.Errorf(op, errs.Invalid, "chunk %s: field %s: value %q is empty, has surrounding spaces or contains %q or a control character, which a RediSearch TAG cannot hold", c.ID, f.name, v, tagSeparator)
				}
			}
		}
		if c.Type != "" && !tagValueOK(c.Type) {
			return errs.Errorf(op, errs.Invalid, "chunk %s: field type: value %q has surrounding spaces or contains %q or a control character, which a RediSearch TAG cannot hold", c.ID, c.Type, tagSeparator)
		}
	}
	return nil
}

// chunkHash is a chunk's HASH fields (without the vector); with meta,
// the meta field too (Manifest.MetaSortable), and with hit the hit
// field (Manifest.HitSortable).
func chunkHash(c *corpus.Chunk, all []string, fp uint64, meta, hit bool) map[string]any {
	h := map[string]any{
		"id": c.ID, "doc_id": c.DocID, "ordinal": c.Ordinal, "title": c.Title, "text": c.Text,
		"status": string(c.Status), "authority": c.Authority,
		"acl": strings.Join(c.ACL, tagSeparator), fieldContent: escapeTerms(all),
		"fp": strconv.FormatUint(fp, 10),
	}
	for k, v := range map[string]string{"type": c.Type, "source": c.Source, "updated": c.Updated, "url": c.URL,
		"products": strings.Join(c.Products, tagSeparator), "tags": strings.Join(c.Tags, "\x1f")} {
		if v != "" {
			h[k] = v
		}
	}
	if n, ok := dateNumber(c.Updated); ok {
		h[fieldUpdated] = n
	}
	if c.Text == "" {
		h[fieldEmpty] = "1"
	}
	if meta {
		h[fieldMeta] = metaValue(c, fp)
	}
	if hit {
		h[fieldHit] = hitValue(c)
	}
	return h
}

// FT.CREATE options that cut RediSearch's indexing work where assay's
// queries do not need it (docs/log/round-22-r22-build.md):
//
//   - NOOFFSETS: no term positions. assay sends no phrase, SLOP, INORDER
//     or HIGHLIGHT query (NOHL is set besides); BM25STD, the TAG and
//     NUMERIC clauses, KNN and matched_terms() do not read positions. At
//     50,000 chunks the inverted index shrinks from 32.9 to 23.2 MB
//     (offset vectors 5.0 MB, the rest the encoding) and the top 100 of
//     every query is the same, ids and scores.
//
//   - NOFIELDS: no field mask per posting, set only while the schema has
//     one TEXT field (content), so "@content:t" can mean nothing else.
//
//   - content SORTABLE UNF: RediSearch keeps each chunk's content field,
//     as stored, in its document table, and the BM25 leg's candidates'
//     read (RETURN 1 content, about 420 candidates a split query at
//     k = 100) takes it from there instead of opening every candidate's
//     HASH: at 50,000 chunks that read cost Redis about 5 µs a
//     candidate whatever the field's size (RETURN 1 status cost as much
//     as RETURN 1 content), and SORTABLE halved it, the ids, scores and
//     content returned identical (TestLegReplyCost,
//     docs/log/round-24-r24-redis.md). At 500,000 chunks the search
//     itself is most of the leg, and bm25's p50 moved ×0.95–0.96. UNF keeps the value as stored
//     (no lower-casing). Redis holds a second copy of the field (about
//     700 bytes a SciFact chunk). Indexes built before it read alike:
//     the queries and replies are the same, only slower.
//
//   - meta TAG NOINDEX SORTABLE UNF (round 41; Manifest.MetaSortable):
//     each chunk's fingerprint, authority, status and ACL in one value
//     (metaValue), kept in the document table of the version's index and
//     of each group's, not indexed, so that the searches return it with
//     their hits, as content, and ChunkMeta reads nothing: before, one
//     HMGET for each of about 200 fused candidates a question
//     (docs/log/round-40-p40-cpu.md, docs/log/round-41-p41-meta.md).
//     One value, not four SORTABLE fields: a reply's field is two more
//     strings a candidate to write and parse, not eight. Indexes built
//     before it read alike, ChunkMeta reading each candidate's HASH.
//
//   - hit TAG NOINDEX SORTABLE UNF (round 41, p41-hit; Manifest.HitSortable):
//     each chunk's document id, date, title and emptiness in one value
//     (hitValue), beside meta in the same indexes and returned with it,
//     so that HitMeta (a search's results at large k) reads nothing: before,
//     one HMGET for each result (docs/log/round-41-p41-hit.md). A
//     field of its own: round 41's p41-meta readers take all past meta's
//     third separator for the ACL. Indexes built before it read alike,
//     HitMeta reading each result's HASH.
//
// Variables for the measurements.
var (
	noOffsets       = true
	noFields        = true
	contentSortable = true
	metaSortable    = true
	hitSortable     = true
	// measureDrop names schema fields a measurement leaves out of
	// FT.CREATE (the chunks' HASHes still hold them); empty in use.
	measureDrop = map[string]bool{}
)

// createIndex runs FT.CREATE for version vn. It is created before any
// document is written, so each write is indexed as it lands, and with
// SKIPINITIALSCAN: vn's prefix is new (versions are never reused), so
// there is nothing to scan for, and a scan would walk the whole keyspace
// (an earlier version's chunks, other indexes') while the build writes,
// and index again every chunk it meets that a write had already indexed
// (a 3,000-chunk rebuild ended with max_doc_id 5,156 for 3,000
// documents; TestEachChunkIndexedOnce).
func createIndex(ctx context.Context, rdb *redis.Client, vn string, m Manifest) error {
	const op = "redisearch.Build"
	// The content field's WEIGHT is RediSearch's default, 1, and not
	// sent: go-redis writes WEIGHT after SORTABLE, where FT.CREATE
	// refuses it ("Invalid field type for field `WEIGHT`").
	schema := []*redis.FieldSchema{
		{FieldName: fieldContent, FieldType: redis.SearchFieldTypeText, NoStem: true, Sortable: m.ContentSortable, UNF: m.ContentSortable},
		{FieldName: fieldACL, FieldType: redis.SearchFieldTypeTag, Separator: tagSeparator, CaseSensitive: true},
		{FieldName: fieldStatus, FieldType: redis.SearchFieldTypeTag, Separator: tagSeparator, CaseSensitive: true},
		{FieldName: fieldType, FieldType: redis.SearchFieldTypeTag, Separator: tagSeparator, CaseSensitive: true},
		{FieldName: fieldProducts, FieldType: redis.SearchFieldTypeTag, Separator: tagSeparator, CaseSensitive: true},
		{FieldName: fieldAuthority, FieldType: redis.SearchFieldTypeNumeric},
		{FieldName: fieldUpdated, FieldType: redis.SearchFieldTypeNumeric},
		{FieldName: fieldEmpty, FieldType: redis.SearchFieldTypeTag},
	}
	metaField := &redis.FieldSchema{FieldName: fieldMeta, FieldType: redis.SearchFieldTypeTag, NoIndex: true, Sortable: true, UNF: true}
	hitField := &redis.FieldSchema{FieldName: fieldHit, FieldType: redis.SearchFieldTypeTag, NoIndex: true, Sortable: true, UNF: true}
	if m.MetaSortable {
		schema = append(schema, metaField)
	}
	if m.HitSortable {
		schema = append(schema, hitField)
	}
	if m.Embedder != "" {
		// go-redis spells EF_CONSTRUCTION MaxAllowedEdgesPerNode.
		va := &redis.FTVectorArgs{HNSWOptions: &redis.FTHNSWOptions{Type: m.vectorType(), Dim: m.Dim, DistanceMetric: "IP",
			MaxEdgesPerNode: m.HNSWM, MaxAllowedEdgesPerNode: m.HNSWEFConstruction}}
		if m.Vector == FLAT {
			va = &redis.FTVectorArgs{FlatOptions: &redis.FTFlatOptions{Type: "FLOAT32", Dim: m.Dim, DistanceMetric: "IP"}}
		}
		schema = append(schema, &redis.FieldSchema{FieldName: fieldVector, FieldType: redis.SearchFieldTypeVector, VectorArgs: va})
	}
	schema = slices.DeleteFunc(schema, func(f *redis.FieldSchema) bool { return measureDrop[f.FieldName] })
	err := rdb.FTCreate(ctx, vn, createOptions(vn, schema), schema...).Err()
	if isUnknownCommand(err) {
		return errs.Errorf(op, errs.Unsupported, "the Redis at %s has no RediSearch (FT.CREATE: %v): use Redis 8, Redis Stack or the RediSearch module", rdb.Options().Addr, err)
	}
	if err != nil {
		return errs.Errorf(op, errs.Unavailable, "FT.CREATE %s: %v", vn, err)
	}
	// Each vector group's graph: an index of the same chunks whose
	// FILTER keeps the group's, with the vector field alone.
	vec := slices.IndexFunc(schema, func(f *redis.FieldSchema) bool { return f.FieldName == fieldVector })
	// A text group's index holds the content field as the version's
	// does (Manifest.TextGroups), with the same options.
	for i, g := range m.VectorGroups {
		gn := vectorGroupIndex(vn, i)
		o := &redis.FTCreateOptions{OnHash: true, Prefix: []any{chunkPrefix(vn)}, Filter: groupFilter(g), SkipInitialScan: true}
		f := schema[vec]
		if slices.Contains(m.VectorGroupsFlat, g) {
			f = &redis.FieldSchema{FieldName: fieldVector, FieldType: redis.SearchFieldTypeVector,
				VectorArgs: &redis.FTVectorArgs{FlatOptions: &redis.FTFlatOptions{Type: m.vectorType(), Dim: m.Dim, DistanceMetric: "IP"}}}
		}
		fields := []*redis.FieldSchema{f}
		if text := slices.IndexFunc(schema, func(f *redis.FieldSchema) bool { return f.FieldName == fieldContent }); text >= 0 && slices.Contains(m.TextGroups, g) {
			fields = []*redis.FieldSchema{schema[text], f}
			o = createOptions(vn, fields)
			o.Filter = groupFilter(g)
		}
		if m.MetaSortable {
			fields = append(fields, metaField)
		}
		if m.HitSortable {
			fields = append(fields, hitField)
		}
		if err := rdb.FTCreate(ctx, gn, o, fields...).Err(); err != nil {
			dropVersion(ctx, rdb, vn)
			return errs.Errorf(op, errs.Unavailable, "FT.CREATE %s (group %q): %v", gn, g, err)
		}
	}
	return nil
}

// vectorGroupShare: an ACL group that at least 1/vectorGroupShare of the
// chunks name gets an HNSW graph of its own chunks (Manifest.VectorGroups),
// which its callers walk instead of the whole graph. Walking the whole
// graph and keeping the caller's chunks (HYBRID_POLICY BATCHES, or any
// over-fetch) recalls no more of the caller's exact neighbours than the
// whole graph recalls of everyone's, and a walk in a smaller graph
// recalls more for less: at 50,000 chunks `public`'s recall@100 went
// 0.75 → 0.84 and staff's 0.76 → 0.92 (docs/log/round-33-p33-knn.md).
// The price is a second copy of those chunks' vectors in Redis and
// their insertion into a second graph at build time. A caller with a
// group that has none (a team) asks the whole index as before
// (vectorParts). (A variable for the measurements.)
var vectorGroupShare = 8

// flatGroupMax: a vector group of at most flatGroupMax chunks gets a FLAT
// index of its chunks' vectors instead of an HNSW graph. Inserting a
// vector into a graph is most of a build's Redis time (768 BFLOAT16
// dimensions: every distance reads 1.5 KB), and the groups' graphs made a
// 50,000-chunk build's Redis time ×1.5, while a FLAT index's insertion is
// an append. Up to about this size a FLAT index's exact scan costs Redis
// about what a graph walk at vectorEF does, and recalls every neighbour:
// at 50,000 chunks staff's 12,491 chunks 1.5-1.9 ms a search against the
// walk's 1.4-1.6 (recall@100 1 against 0.82), public's 24,985 ×1.4-2.5
// the walk (docs/log/round-35-p35-build.md). At 500,000 chunks every
// vector group is larger and keeps its graph. (A variable for the
// measurements.)
var flatGroupMax = 16384

// SmallGroupScans, after HNSW in BuildOptions.Vector ("hnsw+small-flat"),
// gives every ACL group below the vector groups' share a FLAT index of
// its chunks' vectors as well (Manifest.VectorGroupsFlat), so that a
// caller all of whose groups have an index of their own scans its small
// groups' vectors alone. Without it a team's caller asks the whole index
// with its ACL clause, and the engine computes each visible chunk's
// distance through the graph's label lookup (HYBRID_ADHOC_BF): at
// 100,000 chunks team-07's 2,003 cost Redis about 4× the FLAT scan of
// the same vectors (docs/log/round-38-p38-team.md). The price is a
// second copy of every team chunk's vectors (one per team that names
// it) and one more FILTER evaluated per chunk and team at build time.
const SmallGroupScans = "+SMALL-FLAT"

// vectorGroups sets m.VectorGroups (and VectorGroupsFlat) for chunks, in name order, and returns
// how many chunks each names. Only an HNSW index has them, and only
// groups groupFilter can name; with small, every other group too, each
// with a FLAT index (SmallGroupScans).
func vectorGroups(m *Manifest, chunks []corpus.Chunk, small bool) []int {
	if m.Vector != HNSW || vectorGroupShare == 0 {
		return nil
	}
	n := map[string]int{}
	for i := range chunks {
		for _, g := range strings.Split(partKey(chunks[i].ACL), tagSeparator) {
			n[g]++
		}
	}
	for g, c := range n {
		if g != "" && (small || c*vectorGroupShare >= len(chunks)) && !strings.ContainsAny(g, `"\`) {
			m.VectorGroups = append(m.VectorGroups, g)
			if textGroups && c*vectorGroupShare >= len(chunks) && c < len(chunks) {
				m.TextGroups = append(m.TextGroups, g)
			}
			if c <= flatGroupMax || c*vectorGroupShare < len(chunks) {
				m.VectorGroupsFlat = append(m.VectorGroupsFlat, g)
			}
		}
	}
	slices.Sort(m.VectorGroups)
	slices.Sort(m.VectorGroupsFlat)
	slices.Sort(m.TextGroups)
	counts := make([]int, len(m.VectorGroups))
	for i, g := range m.VectorGroups {
		counts[i] = n[g]
	}
	return counts
}

// textGroups: each vector group that has its graph for its share of the
// chunks (not one SmallGroupScans adds), and that not every chunk names,
// is a text group too (Manifest.TextGroups): its index holds the content
// field as well, so that its callers' BM25 leg reads only its chunks'
// postings (SearchText). The price is a second inverted index of those
// chunks' content (and, with contentSortable, a second copy of the field)
// and their text indexing at build time. A variable for the
// measurements.
var textGroups = true

// groupFilter is the FT.CREATE FILTER expression that keeps the chunks
// whose acl field names group g (a value between separators; g holds no
// quote or backslash).
func groupFilter(g string) string {
	return `contains(format("` + tagSeparator + `%s` + tagSeparator + `", @` + fieldACL + `), "` + tagSeparator + g + tagSeparator + `")`
}

// createOptions are FT.CREATE's options for version vn with schema.
func createOptions(vn string, schema []*redis.FieldSchema) *redis.FTCreateOptions {
	text := 0
	for _, f := range schema {
		if f.FieldType == redis.SearchFieldTypeText {
			text++
		}
	}
	return &redis.FTCreateOptions{
		OnHash: true, Prefix: []any{chunkPrefix(vn)}, StopWords: []any{}, NoHL: true, SkipInitialScan: true,
		NoOffsets: noOffsets, NoFields: noFields && text == 1,
	}
}

// vectors returns one vector per chunk of batch (nil without an
// embedder), reusing the old version's vector of a chunk whose embedding
// cache key is unchanged.
func vectors(ctx context.Context, rdb *redis.Client, name string, old int, m Manifest, batch []corpus.Chunk, e backend.Embedder, st *backend.BuildStats) ([][]float32, error) {
	const op = "redisearch.Build"
	if e == nil {
		return nil, nil
	}
	out := make([][]float32, len(batch))
	keys := make([]string, len(batch))
	for i := range batch {
		keys[i] = backend.CacheKey(m.Embedder, backend.EmbedText(&batch[i]))
	}
	if old > 0 {
		ovn := versionName(name, old)
		pipe := rdb.Pipeline()
		cmds := make([]*redis.SliceCmd, len(batch))
		for i := range batch {
			cmds[i] = pipe.HMGet(ctx, chunkPrefix(ovn)+batch[i].ID, "ek", fieldVector)
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return nil, errs.E(op, errs.Unavailable, err)
		}
		for i, cmd := range cmds {
			vals := cmd.Val()
			if len(vals) != 2 || vals[0] != keys[i] {
				continue
			}
			if raw, ok := vals[1].(string); ok && (len(raw) == 4*m.Dim || len(raw) == 2*m.Dim) {
				out[i] = floats([]byte(raw), m.Dim)
				st.Reused++
			}
		}
	}
	var todo []int
	for i := range out {
		if out[i] == nil {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	texts := make([]string, len(todo))
	for j, i := range todo {
		texts[j] = backend.EmbedText(&batch[i])
	}
	got, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, errs.E(op, err)
	}
	if len(got) != len(todo) {
		return nil, errs.Errorf(op, errs.Schema, "%s returned %d vectors for %d texts", e.ID(), len(got), len(todo))
	}
	for j, i := range todo {
		if len(got[j]) != m.Dim {
			return nil, errs.Errorf(op, errs.Schema, "%s returned a %d-dimensional vector, want %d", e.ID(), len(got[j]), m.Dim)
		}
		out[i] = got[j]
	}
	st.Embedded += len(todo)
	return out, nil
}

// waitIndexed waits until RediSearch has indexed every document of vn.
func waitIndexed(ctx context.Context, rdb *redis.Client, vn string, want int) error {
	const op = "redisearch.Build"
	for {
		info, err := rdb.FTInfo(ctx, vn).Result()
		if err != nil {
			return errs.Errorf(op, errs.Unavailable, "FT.INFO %s: %v", vn, err)
		}
		if info.HashIndexingFailures > 0 {
			return errs.Errorf(op, errs.Invalid, "RediSearch failed to index %d chunks of %s", info.HashIndexingFailures, vn)
		}
		if info.Indexing == 0 && info.NumDocs == want {
			return nil
		}
		select {
		case <-ctx.Done():
			return errs.E(op, errs.Timeout, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// removed counts the chunks of version ovn that the new chunks lack.
func removed(ctx context.Context, rdb *redis.Client, ovn string, chunks []corpus.Chunk) (int, error) {
	keep := make(map[string]bool, len(chunks))
	for i := range chunks {
		keep[chunks[i].ID] = true
	}
	p := chunkPrefix(ovn)
	n := 0
	iter := rdb.Scan(ctx, 0, escapeGlob(p)+"*", 1000).Iterator()
	for iter.Next(ctx) {
		if !keep[strings.TrimPrefix(iter.Val(), p)] {
			n++
		}
	}
	if err := iter.Err(); err != nil {
		return 0, errs.E("redisearch.Build", errs.Unavailable, err)
	}
	return n, nil
}

// escapeGlob escapes SCAN MATCH's pattern characters.
func escapeGlob(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// floats decodes a stored vector of dim elements: little-endian FLOAT32
// (4·dim bytes) or BFLOAT16 (2·dim bytes; an older version's vectors
// are reused whatever their type).
func floats(b []byte, dim int) []float32 {
	out := make([]float32, dim)
	if len(b) == 2*dim {
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
		}
		return out
	}
	for i := range out {
		out[i] = float32frombits(b[4*i:])
	}
	return out
}
