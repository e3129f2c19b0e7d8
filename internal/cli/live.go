package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/index"
	"github.com/assay-rag/assay/internal/redisearch"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
)

// servedIndex is an open index of either backend (*index.Index or
// *redisearch.Index), as a worker serves it.
type servedIndex interface {
	retrieval.Backend
	// DocFreq and Len are whole-index statistics, for what must agree
	// with the build (the IDF-weighted builtin embedder); never for
	// numbers a principal sees (VisibleCounts).
	DocFreq(term string) int
	Len() int
	EachTerm(fn func(term string, df int))
	HasDocument(id string) bool
	// Stale reports whether a newer version of the index exists.
	Stale(ctx context.Context) bool
	// Version names the version served.
	Version() string
	Close() error
}

// lexicon gives the builtin assessor and rewriter an index's statistics
// as one principal may see them.
type lexicon struct{ servedIndex }

func (l lexicon) Visible(groups []string) assess.Vocabulary {
	switch ix := l.servedIndex.(type) {
	case *index.Index:
		return filteredVocabulary{ix.Visible(groups), groups}
	case *redisearch.Index:
		return filteredVocabulary{ix.Visible(groups), groups}
	}
	return emptyVocabulary{} // unknown backends show nothing: fail closed
}

// backendVocabulary is one principal's statistics in either backend.
type backendVocabulary interface {
	assess.Vocabulary
	Holdings(ctx context.Context, terms []string, f *index.Filter) map[uint64]int
}

// filteredVocabulary gives the assessor a backend's Holdings with the
// run's filters (assess.HoldingVocabulary: without it the assessor's
// visible-chunk check would be skipped, silently).
type filteredVocabulary struct {
	backendVocabulary
	groups []string
}

var _ assess.HoldingVocabulary = filteredVocabulary{}

func (v filteredVocabulary) Holdings(ctx context.Context, terms []string, f wire.Filters) map[uint64]int {
	ixf := retrieval.IndexFilter(v.groups, f)
	return v.backendVocabulary.Holdings(ctx, terms, &ixf)
}

type emptyVocabulary struct{}

func (emptyVocabulary) DocFreq(string) int { return 0 }
func (emptyVocabulary) Len() int           { return 0 }

// indexSource opens the configured index of either backend.
type indexSource struct {
	cfg config.Config
	rdb *redis.Client // redisearch only
	// passagesOnly: the index is only read for chunk texts (a gateway
	// serving sources), so it is opened whatever it was built with.
	passagesOnly bool
}

// newIndexSource connects to Redis for the redisearch backend; an
// unreachable Redis is an error naming the setting.
func newIndexSource(ctx context.Context, cfg config.Config) (*indexSource, error) {
	s := &indexSource{cfg: cfg}
	if cfg.Index.Backend != config.BackendRediSearch {
		return s, nil
	}
	s.rdb = redisearch.NewClient(cfg.Redis.Addr, cfg.Redis.Password.Reveal())
	if err := redisearch.Ping(ctx, s.rdb); err != nil {
		s.rdb.Close()
		return nil, fmt.Errorf("index.backend redisearch: %w", err)
	}
	return s, nil
}

// Close closes the Redis client.
func (s *indexSource) Close() error {
	if s.rdb != nil {
		return s.rdb.Close()
	}
	return nil
}

// open opens the current version, building it first (when build is set
// and a corpus is configured) if it is missing, was built from another
// corpus or with other settings.
func (s *indexSource) open(ctx context.Context, log *slog.Logger, build bool) (servedIndex, error) {
	if s.rdb == nil {
		if !build || s.passagesOnly {
			return index.Open(s.cfg.IndexDir())
		}
		return openIndex(ctx, s.cfg, log)
	}
	name := s.cfg.Index.Name
	if s.passagesOnly {
		return redisearch.Open(ctx, s.rdb, name, redisearch.Options{})
	}
	ix, err := redisearch.Open(ctx, s.rdb, name, redisearch.Options{})
	if err != nil && !errs.Is(errs.NotFound, err) && !errs.Is(errs.Invalid, err) {
		return nil, err
	}
	set, serr := defaultBuild(s.cfg)
	if serr != nil {
		return nil, serr
	}
	if !build || s.cfg.Index.Corpus == "" {
		if err != nil {
			return nil, fmt.Errorf("%w; build it with `assay index --backend redisearch --name %s --corpus FILE`", err, name)
		}
		if !set.builtBy(ix.Manifest()) {
			return nil, errs.Errorf("index.Open", errs.Invalid, "RediSearch index %s was built with embedder %q (dim %d), this worker embeds queries with %s: rebuild the index or configure the same embedder (embed.*)",
				name, ix.Manifest().Embedder, ix.Manifest().Dim, set.embedderName())
		}
		return ix, nil
	}
	docs, lerr := loadCorpus(s.cfg.Index.Corpus, set.RequireACL)
	if lerr != nil {
		return nil, lerr
	}
	if err == nil {
		m := ix.Manifest()
		if m.CorpusChecksum == corpus.Checksum(docs) && m.Chunking == set.Chunking.String() && set.builtBy(m) {
			return ix, nil
		}
		log.Info("corpus or index settings changed since the index was built; rebuilding", "corpus", s.cfg.Index.Corpus, "redis", s.cfg.Redis.Addr, "name", name)
	}
	_, st, err := buildIndexWith(ctx, s.cfg.Index.Corpus, set, func(ctx context.Context, chunks []corpus.Chunk, o index.BuildOptions) (index.BuildStats, error) {
		_, st, err := redisearch.Build(ctx, s.rdb, name, chunks, redisearch.BuildOptions{Checksum: o.Checksum, Embedder: o.Embedder, Chunking: o.Chunking, BM25: o.BM25})
		return st, err
	})
	if err != nil {
		return nil, err
	}
	log.Info("index built in Redis", "redis", s.cfg.Redis.Addr, "name", name, "documents", st.Documents, "chunks", st.Chunks,
		"embedded", st.Embedded, "reused", st.Reused, "removed", st.Removed, "took", st.Took.Round(time.Millisecond))
	return redisearch.Open(ctx, s.rdb, name, redisearch.Options{})
}

// generation is one index version with everything wired to it.
type generation struct {
	ix       servedIndex
	searcher activities.Searcher
	assessor assess.Assessor
	// inProcess: searching needs nothing outside this process (bleve and
	// a builtin embedder), so Search may run as a local activity.
	inProcess bool
}

// liveIndex serves the current version of the configured index. Between
// searches it asks the index whether a newer version exists (a rebuild:
// a new bleve directory, or a new RediSearch version) and, if so, opens
// it and swaps atomically: a search runs entirely on one version, and
// the trace and /readyz name the version served.
type liveIndex struct {
	src *indexSource
	// thes relates words for the builtin assessor (loop.thesaurus); nil
	// without one. Opened once, shared by every version.
	thes assess.Thesaurus
	cfg  config.Config
	log  *slog.Logger
	mu   sync.Mutex // serializes swaps
	cur  atomic.Pointer[generation]
	old  []servedIndex // retired, closed after a grace period or at Close
	done bool
}

// retireAfter is how long a replaced version stays open for searches
// still running on it.
const retireAfter = time.Minute

// openLive opens (building when asked) the configured index and wires
// the loop's searcher and builtin assessor to it.
func openLive(ctx context.Context, cfg config.Config, log *slog.Logger, build bool) (*liveIndex, error) {
	return openLiveIndex(ctx, cfg, log, build, false)
}

// openPassages opens the configured index to read chunk texts only (a
// gateway serving /v1/questions/{id}/sources): no searcher, no
// assessor, no check of the embedder it was built with. It follows
// rebuilds as a worker's index does.
func openPassages(ctx context.Context, cfg config.Config, log *slog.Logger) (*liveIndex, error) {
	return openLiveIndex(ctx, cfg, log, false, true)
}

func openLiveIndex(ctx context.Context, cfg config.Config, log *slog.Logger, build, passagesOnly bool) (*liveIndex, error) {
	src, err := newIndexSource(ctx, cfg)
	if err != nil {
		return nil, err
	}
	src.passagesOnly = passagesOnly
	ix, err := src.open(ctx, log, build)
	if err != nil {
		src.Close()
		return nil, err
	}
	l := &liveIndex{src: src, cfg: cfg, log: log}
	if dir := cfg.Loop.Thesaurus; dir != "" && !passagesOnly {
		if wn, err := thesaurus.Open(dir); err != nil {
			log.Warn("assessing without a thesaurus", "loop.thesaurus", dir, "error", err)
		} else {
			l.thes = wn
		}
	}
	g, err := l.wire(ix)
	if err != nil {
		ix.Close()
		src.Close()
		return nil, err
	}
	l.cur.Store(g)
	return l, nil
}

// wire builds the searcher and the builtin assessor over ix. With the
// redisearch backend an index this worker cannot embed queries for is
// refused; the embedded bleve default searches it by BM25 alone, as it
// always has, and logs why.
func (l *liveIndex) wire(ix servedIndex) (*generation, error) {
	if l.src.passagesOnly {
		return &generation{ix: ix}, nil
	}
	var s activities.Searcher
	inProcess := false
	if l.cfg.Index.Backend == config.BackendRediSearch {
		r, err := newRetriever(ix, l.cfg)
		if err != nil {
			return nil, err
		}
		s = r // every search is a Redis round trip: never in process
	} else {
		s, inProcess = searcherFor(ix, l.cfg, l.log)
	}
	an := terms.New()
	a := assess.NewBuiltin(an, lexicon{ix})
	a.Rewriter = assess.NewRewriter(an, lexicon{ix})
	if l.thes != nil {
		a.Thesaurus = l.thes
		l.log.Info("assessor thesaurus", "loop.thesaurus", l.cfg.Loop.Thesaurus, "model", a.Model())
	}
	return &generation{ix: ix, searcher: s, assessor: a, inProcess: inProcess}, nil
}

// current returns the generation to use, swapping first when the index
// has a newer version.
func (l *liveIndex) current(ctx context.Context) (*generation, error) {
	g := l.cur.Load()
	if !g.ix.Stale(ctx) {
		return g, nil
	}
	return l.swap(ctx, g)
}

func (l *liveIndex) swap(ctx context.Context, old *generation) (*generation, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if g := l.cur.Load(); g != old {
		return g, nil // another search swapped already
	}
	ix, err := l.src.open(ctx, l.log, false)
	if err != nil {
		l.log.Error("a new index version exists but cannot be opened; still serving the old one", "serving", old.ix.Version(), "error", err)
		return nil, err
	}
	g, err := l.wire(ix)
	if err != nil {
		ix.Close()
		l.log.Error("a new index version exists but cannot be served; still serving the old one", "serving", old.ix.Version(), "error", err)
		return nil, err
	}
	l.cur.Store(g)
	l.log.Info("index swapped", "from", old.ix.Version(), "to", ix.Version(), "chunks", ix.Len())
	l.old = append(l.old, old.ix)
	time.AfterFunc(retireAfter, func() { l.retire(old.ix) })
	return g, nil
}

func (l *liveIndex) retire(ix servedIndex) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := indexOf(l.old, ix); i >= 0 {
		l.old = append(l.old[:i], l.old[i+1:]...)
		ix.Close()
	}
}

func indexOf(list []servedIndex, ix servedIndex) int {
	for i, x := range list {
		if x == ix {
			return i
		}
	}
	return -1
}

// Search implements activities.Searcher on the current version. When a
// search fails because its version went away (a RediSearch rebuild drops
// the old version), it swaps and tries once more. The first stage of the
// result names the version searched.
func (l *liveIndex) Search(ctx context.Context, req retrieval.Request) (retrieval.Result, error) {
	g, err := l.current(ctx)
	if err != nil {
		return retrieval.Result{}, err
	}
	res, err := g.searcher.Search(ctx, req)
	if err != nil && g.ix.Stale(ctx) {
		if g2, err2 := l.swap(ctx, g); err2 == nil {
			g = g2
			res, err = g.searcher.Search(ctx, req)
		}
	}
	if err != nil {
		return retrieval.Result{}, err
	}
	res.Stages = append([]retrieval.Stage{{Name: "index", Note: g.ix.Version()}}, res.Stages...)
	return res, nil
}

// Chunks implements activities.ChunkReader on the current version.
func (l *liveIndex) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	g, err := l.current(ctx)
	if err != nil {
		return nil, err
	}
	return g.ix.Chunks(ctx, ids)
}

// Assess implements assess.Assessor with the builtin assessor over the
// current version's statistics.
func (l *liveIndex) Assess(ctx context.Context, req assess.Request) (assess.Result, error) {
	g, err := l.current(ctx)
	if err != nil {
		return assess.Result{}, err
	}
	return g.assessor.Assess(ctx, req)
}

// InProcess reports whether searching the version served needs nothing
// outside this process, so the Search activity may run locally.
func (l *liveIndex) InProcess() bool { return l.cur.Load().inProcess }

// Len is the number of chunks of the version served.
func (l *liveIndex) Len() int { return l.cur.Load().ix.Len() }

// Version names the version served.
func (l *liveIndex) Version() string { return l.cur.Load().ix.Version() }

// Index is the version served now, for callers that read it directly.
func (l *liveIndex) Index() servedIndex { return l.cur.Load().ix }

// Ready swaps to a newer version if there is one and says which version
// is served; it fails when the index is empty or cannot be reached.
func (l *liveIndex) Ready(ctx context.Context) (string, error) {
	g, err := l.current(ctx)
	if err != nil {
		return "", err
	}
	if g.ix.Len() == 0 {
		return g.ix.Version(), errors.New("index is empty")
	}
	return g.ix.Version(), nil
}

// Close closes every version still open and the Redis client.
func (l *liveIndex) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return nil
	}
	l.done = true
	err := l.cur.Load().ix.Close()
	for _, ix := range l.old {
		err = errors.Join(err, ix.Close())
	}
	l.old = nil
	return errors.Join(err, l.src.Close())
}

// backendName says where the index lives, for start-up lines.
func backendName(cfg config.Config) string {
	if cfg.Index.Backend == config.BackendRediSearch {
		return fmt.Sprintf("RediSearch index %q in Redis at %s", cfg.Index.Name, cfg.Redis.Addr)
	}
	return "bleve index in " + strings.TrimSuffix(cfg.IndexDir(), "/")
}

// indexSettings declares the flags that choose the index backend.
func indexSettings(f *flags) {
	f.setting("backend", "index.backend", "index `backend`: bleve (embedded, the default) or redisearch (one index in Redis, shared by every worker)")
	f.setting("name", "index.name", "RediSearch index `name` (default assay)")
	f.setting("redis-addr", "redis.addr", "Redis `host:port` holding the RediSearch index (and carrying answer tokens)")
}
