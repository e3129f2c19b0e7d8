package redisearch

// Visible statistics, from the engine.
//
// A worker keeps no term table: everything BM25 and the checks need of a
// principal's visible set is asked of Redis and kept in bounded caches
// (statsCache), so a worker's memory does not grow with the corpus or
// with the number of distinct ACLs.
//
//	N          FT.SEARCH "<acl filter>" LIMIT 0 0 → total
//	df(t)      for a principal who sees every chunk, HMGET of the
//	           whole-index table assay:N:vV:df (term → chunks); for one
//	           whose groups are a single group g (the anonymous caller:
//	           public), HMGET of g's table assay:N:vV:df:<g> (term →
//	           chunks whose ACL names g), exact since each chunk counts
//	           once in it; for anyone else FT.SEARCH
//	           "@content:t <acl filter>" LIMIT 0 0, pipelined (the group
//	           tables would count a chunk once per group of theirs its
//	           ACL names, and taking those overlaps out needs term counts
//	           per ACL part: as many as the postings, see
//	           docs/log/performance-scale.md)
//	avgLen     the visible chunks' mean length in tokens, which BM25
//	           divides by (backend.BM25Stats.AvgLen): for a principal
//	           who sees every chunk, the index's tokens over its chunks
//	           (stored at build); else from the per-group tables
//	           assay:N:vV:lens:<group> (ACL part → "chunks tokens", the
//	           parts whose ACL names the group), HGETALL for each of the
//	           principal's groups, one pipeline: the union of those parts
//	           is exactly the visible set, each counted once, so the mean
//	           is exact. Their size grows with the distinct ACLs naming a
//	           group, not with its chunks.
//	empty      FT.SEARCH "@empty:{1} <acl filter>" LIMIT 0 0
//
// Every number comes from the visible chunks only: counts are taken
// inside the ACL filter, and a group's length and df tables hold only
// the parts and chunks that group may see.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/errs"
)

// Keys of the statistics a build writes beside the chunks.
func dfKey(vn string) string             { return vn + ":df" }
func groupDFKey(vn, group string) string { return vn + ":df:" + group }
func lensKey(vn, group string) string    { return vn + ":lens:" + group }

// partKey names an ACL part in the length tables: its groups, sorted
// and without repeats, joined by commas (Build refuses groups with one).
func partKey(acl []string) string {
	return strings.Join(slices.Compact(slices.Sorted(slices.Values(acl))), ",")
}

// partLen is one ACL part's chunks and their total length in tokens, as
// a length table stores it: "chunks tokens".
type partLen struct{ chunks, tokens int64 }

func (p partLen) String() string { return fmt.Sprintf("%d %d", p.chunks, p.tokens) }

func parsePartLen(s string) (partLen, error) {
	var p partLen
	_, err := fmt.Sscanf(s, "%d %d", &p.chunks, &p.tokens)
	return p, err
}

// emptyClause matches the chunks with no text.
const emptyClause = "@" + fieldEmpty + ":{1}"

// indexStats is what a build stores in assay:N:vV:stats: whole-index
// numbers only (a few bytes, whatever the corpus).
type indexStats struct {
	Chunks int   `json:"chunks"`
	Tokens int64 `json:"tokens"` // the chunks' total length in tokens
	Empty  int   `json:"empty"`  // chunks with no text
}

// Cache bounds: how many visible sets (distinct sorted group lists) and,
// per set, how many terms' document frequencies a worker keeps. At their
// bounds they take about 256 × 4,096 × ~60 bytes ≈ 63 MB.
const (
	maxVisibleSets = 256
	maxIndexTerms  = 65536 // whole-index df (the IDF-weighted embedder)
)

var maxSetTerms = 4096 // a variable for tests only

// statsTimeout bounds one statistics round trip: TermCounts.DocFreq and
// AvgLen take no context, so they ask within the context their
// Vocabulary was made with (VisibleIn: the request's, which ends them at
// its deadline and carries its check; Visible: none), and never longer
// than this.
const statsTimeout = 5 * time.Second

// withStats bounds a statistics read in ctx by statsTimeout.
func withStats(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, statsTimeout)
}

// whole adds to pipe, after the statistics tables it reads, a check that
// the version still has its manifest. HMGET and HGETALL of a table that
// is gone answer as an empty one (every count 0), and a version dropped
// under a request (two builds during it: the first moves the pointer,
// the second drops the version before writing) loses its tables with
// it. dropStats unlinks the manifest in the first batch, never after a
// table, so a table read missing before this EXISTS in the same pipeline
// finds the manifest gone too: gone then says so.
func (ix *Index) whole(ctx context.Context, pipe redis.Pipeliner) *redis.IntCmd {
	return pipe.Exists(ctx, manifestKey(ix.vn))
}

// gone is the error of a statistics read whose version's manifest (whole)
// was found dropped: errs.Unavailable, and the version is known stale,
// so the request runs again on the newest version (live.Index.run,
// search's and Chunks' retry) instead of scoring with zeros.
func (ix *Index) gone(op string, exists *redis.IntCmd) error {
	if exists.Val() != 0 {
		return nil
	}
	ix.stale.Store(true)
	return errs.Errorf(op, errs.Unavailable, "index version %s is gone (a rebuild replaced it): its statistics were dropped", ix.vn)
}

// visibleStats is the statistics of one visible set, filled lazily.
type visibleStats struct {
	groups []string
	filter string // the ACL clause
	all    bool   // every chunk is visible
	n      int
	empty  int
	// avgLen is the visible chunks' mean length in tokens; set with
	// the set when all, else fetched with the first AvgLen (avgKnown,
	// under avgMu: a failed fetch is tried again).
	avgMu    sync.Mutex
	avgKnown bool
	avgLen   float64
	df       *lru.Cache[string, int]
}

// statsCache holds the visible sets' statistics and the whole-index
// document frequencies a worker has asked for.
type statsCache struct {
	sets  *lru.Cache[string, *visibleStats]
	index *lru.Cache[string, int]
	mu    sync.Mutex // serializes the first fetch of a set
}

func newStatsCache() statsCache {
	sets, _ := lru.New[string, *visibleStats](maxVisibleSets)
	index, _ := lru.New[string, int](maxIndexTerms)
	return statsCache{sets: sets, index: index}
}

// setKey is a visible set's cache key: its groups, sorted.
func setKey(groups []string) (string, []string) {
	g := slices.Sorted(slices.Values(groups))
	g = slices.Compact(g)
	return strings.Join(g, "\x00"), g
}

// setKeyOf is groups' visible set's cache key.
func setKeyOf(groups []string) string {
	k, _ := setKey(groups)
	return k
}

// count is FT.SEARCH query LIMIT 0 0 in pipe: how many chunks match.
func (ix *Index) count(ctx context.Context, pipe redis.Pipeliner, query string) *redis.FTSearchCmd {
	return pipe.FTSearchWithArgs(ctx, ix.vn, query, &redis.FTSearchOptions{Verbatim: true, NoContent: true, LimitOffset: 0, Limit: 0, CountOnly: true, DialectVersion: 2, Timeout: noTimeout})
}

// set returns the statistics of the chunks visible to groups, asking
// Redis for N and the empty chunks on first use.
func (ix *Index) set(ctx context.Context, groups []string) (*visibleStats, error) {
	key, sorted := setKey(groups)
	if s, ok := ix.stats.sets.Get(key); ok {
		return s, nil
	}
	ix.stats.mu.Lock()
	defer ix.stats.mu.Unlock()
	if s, ok := ix.stats.sets.Get(key); ok {
		return s, nil
	}
	s := &visibleStats{groups: sorted, filter: tagClause(fieldACL, sorted)}
	s.df, _ = lru.New[string, int](maxSetTerms)
	pipe := ix.rdb.Pipeline()
	n := ix.count(ctx, pipe, s.filter)
	empty := ix.count(ctx, pipe, emptyClause+" "+s.filter)
	if err := ix.exec(ctx, pipe); err != nil {
		return nil, ix.redisErr("redisearch.Visible", err)
	}
	s.n, s.empty = n.Val().Total, empty.Val().Total
	s.all = s.n == ix.st.Chunks
	if s.all {
		s.avgLen, s.avgKnown = meanLen(ix.st.Tokens, int64(ix.st.Chunks)), true
	}
	ix.stats.sets.Add(key, s)
	return s, nil
}

// docFreqs returns the visible document frequencies of terms, asking
// Redis (one pipeline) for those not cached.
func (ix *Index) docFreqs(ctx context.Context, s *visibleStats, terms []string) ([]int, error) {
	if s.all {
		out := make([]int, len(terms))
		var miss []int
		for i, t := range terms {
			if df, ok := s.df.Get(t); ok {
				out[i] = df
			} else {
				miss = append(miss, i)
			}
		}
		if len(miss) == 0 {
			return out, nil
		}
		dfs, err := ix.indexDocFreqs(ctx, terms)
		if err != nil {
			return nil, err
		}
		for _, i := range miss {
			out[i] = dfs[i]
			s.df.Add(terms[i], dfs[i])
		}
		return out, nil
	}
	vis, _, err := ix.visibleDocFreqs(ctx, s, terms, false)
	return vis, err
}

// bothDocFreqs returns the visible and the whole-index document
// frequencies of terms, asking Redis for those not cached in one
// pipeline, so that a restricted caller's query costs the round trips of
// a full-access one.
func (ix *Index) bothDocFreqs(ctx context.Context, s *visibleStats, terms []string) (vis, whole []int, err error) {
	if s.all {
		vis, err = ix.docFreqs(ctx, s, terms)
		return vis, vis, err
	}
	return ix.visibleDocFreqs(ctx, s, terms, true)
}

// visibleDocFreqs returns the document frequencies of terms in s, a
// visible set that is not every chunk, and when whole is set the
// whole-index ones, asking Redis in one pipeline for those not cached:
// one HMGET of the group's df table for a set of one group, else one
// count per term (see the top of this file), and one HMGET of the
// whole-index table.
func (ix *Index) visibleDocFreqs(ctx context.Context, s *visibleStats, terms []string, whole bool) (vis, all []int, err error) {
	vis = make([]int, len(terms))
	var visMiss, wholeMiss []int
	for i, t := range terms {
		var ok bool
		if vis[i], ok = s.df.Get(t); !ok {
			visMiss = append(visMiss, i)
		}
	}
	if whole {
		all = make([]int, len(terms))
		for i, t := range terms {
			var ok bool
			if all[i], ok = ix.stats.index.Get(t); !ok {
				wholeMiss = append(wholeMiss, i)
			}
		}
	}
	if len(visMiss) == 0 && len(wholeMiss) == 0 {
		return vis, all, nil
	}
	pipe := ix.rdb.Pipeline()
	var counts []*redis.FTSearchCmd
	var table, hm *redis.SliceCmd
	switch {
	case len(visMiss) == 0:
	case len(s.groups) == 1:
		table = pipe.HMGet(ctx, groupDFKey(ix.vn, s.groups[0]), pick(terms, visMiss)...)
	default:
		counts = make([]*redis.FTSearchCmd, len(visMiss))
		for j, i := range visMiss {
			counts[j] = ix.count(ctx, pipe, "@"+fieldContent+":"+Escape(terms[i])+" "+s.filter)
		}
	}
	if len(wholeMiss) > 0 {
		hm = pipe.HMGet(ctx, dfKey(ix.vn), pick(terms, wholeMiss)...)
	}
	var exists *redis.IntCmd
	if table != nil || hm != nil {
		exists = ix.whole(ctx, pipe)
	}
	if err := ix.exec(ctx, pipe); err != nil {
		return nil, nil, ix.redisErr("redisearch.Visible", err)
	}
	if exists != nil {
		if err := ix.gone("redisearch.Visible", exists); err != nil {
			return nil, nil, err
		}
	}
	for j, i := range visMiss {
		if table != nil {
			vis[i] = atoi(table.Val()[j])
		} else {
			vis[i] = counts[j].Val().Total
		}
		s.df.Add(terms[i], vis[i])
	}
	if hm != nil {
		for j, v := range hm.Val() {
			all[wholeMiss[j]] = atoi(v)
			ix.stats.index.Add(terms[wholeMiss[j]], all[wholeMiss[j]])
		}
	}
	return vis, all, nil
}

// pick is terms[i] for each i of at.
func pick(terms []string, at []int) []string {
	out := make([]string, len(at))
	for j, i := range at {
		out[j] = terms[i]
	}
	return out
}

// atoi is an HMGET value as a count: a missing field (nil) is 0.
func atoi(v any) int {
	n := 0
	if s, ok := v.(string); ok {
		n, _ = strconv.Atoi(s)
	}
	return n
}

// indexDocFreqs returns the whole-index document frequencies of terms
// from the stored table, caching them.
func (ix *Index) indexDocFreqs(ctx context.Context, terms []string) ([]int, error) {
	out := make([]int, len(terms))
	var miss []string
	var at []int
	for i, t := range terms {
		if df, ok := ix.stats.index.Get(t); ok {
			out[i] = df
		} else {
			miss, at = append(miss, t), append(at, i)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	pipe := ix.rdb.Pipeline()
	hm := pipe.HMGet(ctx, dfKey(ix.vn), miss...)
	exists := ix.whole(ctx, pipe)
	if err := ix.exec(ctx, pipe); err != nil {
		return nil, ix.redisErr("redisearch.DocFreq", err)
	}
	if err := ix.gone("redisearch.DocFreq", exists); err != nil {
		return nil, err
	}
	for j, v := range hm.Val() {
		df := atoi(v)
		out[at[j]] = df
		ix.stats.index.Add(miss[j], df)
	}
	return out, nil
}

// avgLen returns the visible chunks' mean length in tokens: stored for a
// principal who sees every chunk, else summed over the ACL parts in its
// groups' length tables (each part once: a part naming two of the groups
// is in both tables).
func (ix *Index) avgLen(ctx context.Context, s *visibleStats) (float64, error) {
	s.avgMu.Lock()
	defer s.avgMu.Unlock()
	if s.avgKnown {
		return s.avgLen, nil
	}
	pipe := ix.rdb.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(s.groups))
	for i, g := range s.groups {
		cmds[i] = pipe.HGetAll(ctx, lensKey(ix.vn, g))
	}
	exists := ix.whole(ctx, pipe)
	if err := ix.exec(ctx, pipe); err != nil {
		return 0, ix.redisErr("redisearch.AvgLen", err)
	}
	if err := ix.gone("redisearch.AvgLen", exists); err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	var chunks, tokens int64
	for _, c := range cmds {
		for part, v := range c.Val() {
			if seen[part] {
				continue
			}
			seen[part] = true
			p, err := parsePartLen(v)
			if err != nil {
				return 0, fmt.Errorf("index %s: length table: ACL part %q holds %q, want \"chunks tokens\": %w", ix.vn, part, v, err)
			}
			chunks += p.chunks
			tokens += p.tokens
		}
	}
	s.avgLen, s.avgKnown = meanLen(tokens, chunks), true
	return s.avgLen, nil
}

// meanLen is the mean length of chunks whose lengths sum to tokens.
func meanLen(tokens, chunks int64) float64 {
	if chunks == 0 {
		return 0
	}
	return float64(tokens) / float64(chunks)
}

// Vocabulary is term statistics over the chunks one principal may see,
// asked of Redis and cached (see statsCache). TermCounts has no error
// return, so a failed read counts 0 and the vocabulary keeps the first
// failure for Err: a caller checks it once before it reports anything
// computed from the counts (the builtin assessor, retrieval).
type Vocabulary struct {
	ix     *Index
	ctx    context.Context // its reads' (VisibleIn); nil: context.Background
	groups []string
	s      *visibleStats // nil when Redis did not answer: everything counts 0
	fail   *firstErr     // shared by the copies; nil in the zero Vocabulary
}

// firstErr is the first Redis failure a vocabulary met.
type firstErr struct {
	mu  sync.Mutex
	err error
}

func (f *firstErr) keep(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *firstErr) get() error {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

var (
	_ backend.Vocabulary = Vocabulary{}
	_ backend.BM25Stats  = Vocabulary{}
)

// Visible returns the term statistics of the chunks visible to groups,
// read without a caller's context: each read waits statsTimeout at most.
func (ix *Index) Visible(groups []string) backend.Vocabulary {
	return ix.visible(context.Background(), groups)
}

// VisibleIn is Visible for a request whose context is ctx
// (backend.ContextSearcher): the vocabulary's reads, DocFreq and AvgLen
// too, are made in ctx, so they stop at the request's deadline (and at
// statsTimeout at most) and carry its check (Check). The vocabulary is
// the request's: once ctx ends, every read fails (Err).
func (ix *Index) VisibleIn(ctx context.Context, groups []string) backend.Vocabulary {
	return ix.visible(ctx, groups)
}

func (ix *Index) visible(ctx context.Context, groups []string) Vocabulary {
	v := Vocabulary{ix: ix, ctx: ctx, groups: groups, fail: &firstErr{}}
	sctx, cancel := withStats(ctx)
	defer cancel()
	s, err := ix.set(sctx, groups)
	if err != nil {
		v.fail.keep(err) // typed by set
	}
	v.s = s
	return v
}

// Err is the first Redis failure since Visible (typed by redisErr), nil
// when every read was answered: while it is not nil, DocFreq, Len and
// AvgLen may be 0 for want of an answer, and DocFreq and AvgLen no
// longer ask Redis.
func (v Vocabulary) Err() error { return v.fail.get() }

// DocFreq is the number of visible chunks containing term (0 when Redis
// does not answer: see Err).
func (v Vocabulary) DocFreq(term string) int {
	if v.s == nil || v.Err() != nil {
		return 0
	}
	ctx, cancel := withStats(v.context())
	defer cancel()
	dfs, err := v.ix.docFreqs(ctx, v.s, []string{term})
	if err != nil {
		v.fail.keep(err) // typed by docFreqs
		return 0
	}
	return dfs[0]
}

// context is the context v's reads are made in.
func (v Vocabulary) context() context.Context {
	if v.ctx == nil {
		return context.Background()
	}
	return v.ctx
}

// Len is the number of visible chunks (0 when Redis did not answer: see
// Err).
func (v Vocabulary) Len() int {
	if v.s == nil {
		return 0
	}
	return v.s.n
}

// All reports whether every chunk is visible.
func (v Vocabulary) All() bool { return v.s != nil && v.s.all }

// AvgLen is the visible chunks' mean length in tokens, the average
// length BM25 divides by (0 when Redis does not answer: see Err).
func (v Vocabulary) AvgLen() float64 {
	if v.s == nil || v.s.n == 0 || v.Err() != nil {
		return 0
	}
	ctx, cancel := withStats(v.context())
	defer cancel()
	a, err := v.ix.avgLen(ctx, v.s)
	if err != nil {
		v.fail.keep(err) // typed by avgLen
		return 0
	}
	return a
}

// emptyWarning says how many visible chunks have no text; nil when none.
func (v Vocabulary) emptyWarning() []string {
	if v.s == nil || v.s.empty == 0 {
		return nil
	}
	return []string{strconv.Itoa(v.s.empty) + " chunks you can see have no text (an empty parse?)"}
}
