package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// lexicon gives the builtin assessor and rewriter an index's statistics
// as one principal may see them, with the run's filters for Holdings
// (assess.HoldingVocabulary: without it the assessor's visible-chunk
// check would be skipped, silently).
// Its Holdings and Naming answers are kept per question (heldMemo). It also spells
// an index term as the visible chunks do (assess.SpellingVocabulary), so
// a spelling correction is a word.
type lexicon struct {
	backend.Index
	held *heldMemo
	an   *terms.Analyzer
}

// termList is the index's terms for the rewriter's spelling candidates
// (assess.Lexicon's EachTerm has no error): walk gives them, and its
// error is the index's failure part way, after which the list is not
// whole.
type termList struct {
	lexicon
	err *error
}

func (l termList) EachTerm(fn func(term string, df int)) {
	if err := l.Index.EachTerm(fn); err != nil && *l.err == nil {
		*l.err = err
	}
}

func (l lexicon) Visible(groups []string) assess.Vocabulary {
	return filteredVocabulary{l.Index.Visible(groups), groups, l.held, l.Index, l.an}
}

// VisibleIn is Visible for one request (assess.ContextCorpus): on
// RediSearch its statistics reads (DocFreq, AvgLen) are made in ctx, so
// they end at the request's deadline and carry its check (run).
func (l lexicon) VisibleIn(ctx context.Context, groups []string) assess.Vocabulary {
	return filteredVocabulary{backend.VisibleIn(ctx, l.Index, groups), groups, l.held, l.Index, l.an}
}

type filteredVocabulary struct {
	backend.Vocabulary
	groups []string
	held   *heldMemo
	ix     backend.Searcher
	an     *terms.Analyzer
}

var _ assess.ContextCorpus = lexicon{}

var (
	_ assess.HoldingVocabulary      = filteredVocabulary{}
	_ assess.OpenHoldingVocabulary  = filteredVocabulary{}
	_ assess.TogetherVocabulary     = filteredVocabulary{}
	_ assess.SpellingVocabulary     = filteredVocabulary{}
	_ assess.FailingVocabulary      = filteredVocabulary{}
	_ assess.NamingVocabulary       = filteredVocabulary{}
	_ assess.PairedNamingVocabulary = filteredVocabulary{}
)

func (v filteredVocabulary) Holdings(ctx context.Context, terms []string, f wire.Filters) (map[uint64]int, error) {
	ixf := retrieval.IndexFilter(v.groups, f)
	return v.held.holdings(ctx, v.Vocabulary, terms, &ixf)
}

// OpenHoldings is Holdings with the sets the backend leaves open
// (backend.Held) asked only when the caller asks; kept as Holdings'
// answers are.
func (v filteredVocabulary) OpenHoldings(ctx context.Context, terms []string, f wire.Filters) (*backend.Held, error) {
	ixf := retrieval.IndexFilter(v.groups, f)
	return v.held.open(ctx, v.Vocabulary, terms, &ixf)
}

// Together reports whether some visible chunk passing the run's filters
// holds every term of all and one of anyOf (backend.TogetherOf: one
// existence check on RediSearch, bleve's exact Holdings of those terms),
// kept per question as Holdings' answers are.
func (v filteredVocabulary) Together(ctx context.Context, all, anyOf []string, f wire.Filters) (bool, error) {
	ixf := retrieval.IndexFilter(v.groups, f)
	return v.held.togetherOf(ctx, v.Vocabulary, all, anyOf, &ixf)
}

// generation is one index version with everything wired to it.
type generation struct {
	ix       backend.Index
	searcher *retrieval.Retriever
	assessor assess.Assessor
	// inProcess: searching needs nothing outside this process (bleve and
	// a builtin embedder), so Search may run as a local activity.
	inProcess bool
	// redisOnly: searching needs Redis and nothing else (the redisearch
	// backend with a builtin embedder), so Search may run as a local
	// activity when the worker allows it (worker.local_redis_search).
	redisOnly bool
	// lex is the assessor's view of ix, with its memo (heldMemo): this
	// version's, and no other's.
	lex lexicon

	// refs counts the requests reading this version (acquire, release);
	// retired is set once it was replaced and its grace period is over:
	// it closes when both hold, so a request that began on it finishes
	// on it however long it takes.
	refs    atomic.Int64
	retired atomic.Bool
	closed  sync.Once
	shut    atomic.Bool // closed
}

// release ends one request's use of g; the last one out of a retired
// version closes it.
func (g *generation) release() {
	if g.refs.Add(-1) == 0 && g.retired.Load() {
		g.close()
	}
}

func (g *generation) close() error {
	var err error
	g.closed.Do(func() { err = g.ix.Close(); g.shut.Store(true) })
	return err
}

// Index serves the current version of the configured index. For every
// request (a search, an assessment, a read of chunks) it asks the index
// whether a newer version exists (a rebuild: a new bleve directory, or a
// new RediSearch version; one stat before the request, or one GET riding
// with the request's first command, see run) and, if so, opens it and
// swaps atomically: a request is answered from one version, never an
// older one than was current when it began, and the trace and /readyz
// name the version served.
type Index struct {
	src *Source
	// thes relates words for the builtin assessor (loop.thesaurus); nil
	// without one. Opened once, shared by every version.
	thes assess.Thesaurus
	cfg  config.Config
	log  *slog.Logger
	mu   sync.Mutex // serializes swaps
	cur  atomic.Pointer[generation]
	old  []*generation // replaced, retired after a grace period, closed at Close
	done bool
	// closing is set by Close (before it closes anything): requests that
	// arrive after it fail instead of reading a closed version.
	closing atomic.Bool
}

// retireAfter is how long a replaced version stays open after the swap
// even with no request reading it; one still read stays open until the
// last request on it ends (generation.refs).
const retireAfter = time.Minute

// Open opens (building when asked) the configured index and wires
// the loop's searcher and builtin assessor to it.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger, build bool) (*Index, error) {
	src, err := NewSource(ctx, cfg)
	if err != nil {
		return nil, err
	}
	l, err := openFrom(ctx, src, log, build)
	if err != nil {
		src.Close()
		return nil, err
	}
	return l, nil
}

// OpenPassages opens the index of src (NewPassageSource's, whose Built
// says whether there is one to open yet) to read chunk texts only (a
// gateway serving /v1/questions/{id}/sources): no searcher, no
// assessor, no check of the embedder it was built with. It follows
// rebuilds as a worker's index does. On success the Index owns src (its
// Close closes src); on an error src is still the caller's.
func OpenPassages(ctx context.Context, src *Source, log *slog.Logger) (*Index, error) {
	src.passagesOnly = true
	return openFrom(ctx, src, log, false)
}

// openFrom opens src's index and wires it; src is closed by the Index's
// Close, and left open on an error.
func openFrom(ctx context.Context, src *Source, log *slog.Logger, build bool) (*Index, error) {
	cfg, passagesOnly := src.cfg, src.passagesOnly
	ix, err := src.Open(ctx, log, build)
	if err != nil {
		return nil, err
	}
	if build {
		// Checking the corpus against the index, or building it, left
		// garbage the size of the corpus or more; `assay dev` runs with a
		// GOGC of 400, so it would stay in this process's resident memory
		// until the heap grew that large again. Give it back now.
		debug.FreeOSMemory()
	}
	l := &Index{src: src, cfg: cfg, log: log}
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
		return nil, err
	}
	l.cur.Store(g)
	return l, nil
}

// wire builds the searcher and the builtin assessor over ix. With the
// redisearch backend an index this worker cannot embed queries for is
// refused; the embedded bleve default searches it by BM25 alone, as it
// always has, and logs why.
func (l *Index) wire(ix backend.Index) (*generation, error) {
	if l.src.passagesOnly {
		return &generation{ix: ix}, nil
	}
	var s *retrieval.Retriever
	inProcess, redisOnly := false, false
	if l.cfg.Index.Backend == config.BackendRediSearch {
		r, err := NewRetriever(ix, l.cfg)
		if err != nil {
			return nil, err
		}
		// Every search is a Redis round trip: never in process, and
		// Redis's alone unless queries are embedded by an endpoint.
		s, redisOnly = r, !embedsByEndpoint(ix)
	} else {
		s, inProcess = searcherFor(ix, l.cfg, l.log)
	}
	lex := newLexicon(ix)
	a, err := assessorOver(lex, l.thes, l.cfg.Loop.Rewriter)
	if err != nil {
		return nil, err
	}
	a.ExpandedSearch = l.cfg.Loop.Expand // its searches run Expand's query (Search)
	if l.thes != nil {
		l.log.Info("assessor thesaurus", "loop.thesaurus", l.cfg.Loop.Thesaurus, "model", a.Model())
	}
	return &generation{ix: ix, searcher: s, assessor: a, inProcess: inProcess, redisOnly: redisOnly, lex: lex}, nil
}

// builtinAssessor is the builtin assessor and its rewriter over ix as a
// worker has them: the index's statistics as each principal may see them
// (lexicon: Holdings with the run's filters, Spellings, Err), the
// index's terms for the spelling corrections, and thes (nil: none); the
// rewriter is v5 unless rewriter (loop.rewriter) names v4.
func builtinAssessor(ix backend.Index, thes assess.Thesaurus, rewriter string) (*assess.Builtin, error) {
	return assessorOver(newLexicon(ix), thes, rewriter)
}

// newLexicon is the assessor's view of ix with a memo of its own.
func newLexicon(ix backend.Index) lexicon { return lexicon{ix, newHeldMemo(), terms.New()} }

// assessorOver is builtinAssessor over lex.
func assessorOver(lex lexicon, thes assess.Thesaurus, rewriter string) (*assess.Builtin, error) {
	an := lex.an
	a := assess.NewBuiltin(an, lex)
	var walk error
	a.Rewriter = assess.NewRewriter(an, termList{lex, &walk})
	if rewriter == router.BuiltinRewriteModelV4 {
		a.Rewriter.UseV4() // loop.rewriter; the config validated it
	}
	if walk != nil {
		// A partial list would leave the rewriter without some spellings
		// for this version's lifetime: the swap (or the start) fails.
		return nil, fmt.Errorf("reading the index's terms for the spelling corrections: %w", walk)
	}
	if thes != nil {
		a.UseThesaurus(thes)
	}
	return a, nil
}

// current returns the generation to use, swapping first when the index
// has a newer version. It asks the served version once (Stale: one stat
// of a bleve manifest, one GET of the RediSearch current pointer) on
// every call, so a request is never served from a version older than the
// newest whole one when it began: after a rebuild that narrowed an ACL,
// the next request reads the new ACL. When that cannot be confirmed (Redis
// does not answer) the request fails instead.
//
// The generation returned is acquired: the caller releases it when its
// request ends.
func (l *Index) current(ctx context.Context) (*generation, error) {
	g, err := l.acquire()
	if err != nil {
		return nil, err
	}
	stale, err := g.ix.Stale(ctx)
	if err != nil {
		g.release()
		return nil, err
	}
	if !stale {
		return g, nil
	}
	g2, err := l.swap(ctx, g)
	g.release()
	return g2, err
}

// acquire is the served generation, counted as read until release. A
// version retired between the load and the count (only possible for a
// caller that loaded it a grace period ago, or during Close) is let go and
// the served one loaded again; once Close has begun, an error.
func (l *Index) acquire() (*generation, error) {
	for {
		if l.closing.Load() {
			return nil, errClosed()
		}
		g := l.cur.Load()
		g.refs.Add(1)
		if !g.retired.Load() {
			return g, nil
		}
		g.release()
	}
}

// errClosed is a request's error once Close has begun.
func errClosed() error {
	return errs.Errorf("live.Index", errs.Unavailable, "the index is closed (the process is stopping)")
}

// swap replaces old, found stale, by the newest version. Another request
// may have swapped while this one waited for the lock, to a version that
// can be older than the one this request found (it opened before the
// latest build): that one is asked again, and replaced too when stale.
// The generation returned is acquired; old stays the caller's to release.
func (l *Index) swap(ctx context.Context, old *generation) (*generation, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return nil, errClosed() // a version opened now would never be closed
	}
	if g := l.cur.Load(); g != old {
		stale, err := g.ix.Stale(ctx)
		if err != nil {
			return nil, err
		}
		if !stale {
			g.refs.Add(1) // served, so not retired: l.mu is held
			return g, nil
		}
		old = g
	}
	ix, err := l.src.Open(ctx, l.log, false)
	if err != nil {
		l.log.Error("a new index version exists but cannot be opened; still serving the old one", "serving", old.ix.Version(), "error", err)
		return nil, err
	}
	if swapOpened != nil {
		swapOpened()
	}
	g, err := l.wire(ix)
	if err != nil {
		ix.Close()
		l.log.Error("a new index version exists but cannot be served; still serving the old one", "serving", old.ix.Version(), "error", err)
		return nil, err
	}
	g.refs.Add(1) // the caller's
	l.cur.Store(g)
	l.log.Info("index swapped", "from", old.ix.Version(), "to", ix.Version(), "chunks", ix.Len())
	l.old = append(l.old, old)
	time.AfterFunc(retireAfter, func() { l.retire(old) })
	return g, nil
}

// swapOpened, when set (tests), runs in swap after the new version is
// opened, before it is served.
var swapOpened func()

// retire ends g's grace period: it closes now if no request reads it,
// and otherwise when the last one releases it.
func (l *Index) retire(g *generation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := slices.Index(l.old, g); i >= 0 {
		l.old = slices.Delete(l.old, i, i+1)
		g.retired.Store(true)
		if g.refs.Load() == 0 {
			g.close()
		}
	}
}

// Search implements activities.Searcher on the current version (run:
// on RediSearch the version's check rides with the search's first
// command). When a search fails because its version went away, it swaps
// and tries once more. The first stage of the result names the version
// searched.
func (l *Index) Search(ctx context.Context, req retrieval.Request) (retrieval.Result, error) {
	var res retrieval.Result
	err := l.run(ctx, func(ctx context.Context, g *generation) (*generation, error) {
		var err error
		g, res, err = l.searchOn(ctx, g, req)
		return g, err
	})
	if err != nil {
		return retrieval.Result{}, err // never an answer the check threw away
	}
	return res, nil
}

// searchOn is Search on g; it returns the generation it ended on, as
// search does.
func (l *Index) searchOn(ctx context.Context, g *generation, req retrieval.Request) (*generation, retrieval.Result, error) {
	var expand []retrieval.Stage
	if b, ok := g.assessor.(*assess.Builtin); ok && l.cfg.Loop.Expand {
		if q, added := b.ExpandIn(ctx, req.Query, req.Groups); len(added) > 0 {
			st := retrieval.Stage{Name: "expand", Candidates: len(added), Note: "added " + strings.Join(added, ", ")}
			if b.ExpandMerge > 0 {
				return l.merged(ctx, g, b, req, q, st)
			}
			req.Query = q
			expand = []retrieval.Stage{st}
		}
	}
	g, res, err := l.search(ctx, g, req)
	if err != nil {
		return g, retrieval.Result{}, err
	}
	res.Stages = append(append([]retrieval.Stage{{Name: "index", Note: g.ix.Version()}}, expand...), res.Stages...)
	return g, res, nil
}

// checker is an index whose staleness check can ride with a request's
// first command (redisearch.Index.Check).
type checker interface {
	Check(ctx context.Context) (context.Context, *redisearch.Check)
}

// run serves one request on the current version: do runs it on the
// acquired generation g it is given and returns the one it ended on (g,
// or a newer one it swapped to, as search does), which run releases.
//
// On RediSearch the version's check (one GET of the current pointer)
// rides in the pipeline of the request's first command instead of a round
// trip of its own before it (redisearch.Check): the answer is kept when
// the check found the version still current, which it then was at the
// request's start too; when the pointer moved, the answer is thrown away
// and the request runs again on the newest version; when the check fails
// (Redis does not answer, the pointer is gone) the request fails. A
// request that sent no command (every chunk it read cached) sends the GET
// alone at its end. On bleve (one stat) and for a version already known
// replaced, the check comes first (current), as before round 49.
func (l *Index) run(ctx context.Context, do func(ctx context.Context, g *generation) (*generation, error)) error {
	g, err := l.acquire()
	if err != nil {
		return err
	}
	var chk *redisearch.Check
	rctx := ctx
	if c, ok := g.ix.(checker); ok {
		rctx, chk = c.Check(ctx)
	}
	if chk == nil {
		g.release()
		if g, err = l.current(ctx); err != nil {
			return err
		}
		g, err = do(ctx, g)
		g.release()
		return err
	}
	first := g
	g, err = do(rctx, g)
	if g != first {
		// It swapped (its version failed and was replaced): the version it
		// ended on was found current after the request began.
		g.release()
		return err
	}
	stale, cerr := chk.Stale(ctx)
	if cerr != nil {
		g.release()
		return cerr
	}
	if !stale {
		g.release()
		return err
	}
	g2, err := l.swap(ctx, g)
	g.release()
	if err != nil {
		return err
	}
	g2, err = do(ctx, g2)
	g2.release()
	return err
}

// search runs req on g's searcher; when it fails because g's version went
// away, it swaps and tries once more on the new version, which it returns
// (acquired, g released: the caller releases the one returned).
func (l *Index) search(ctx context.Context, g *generation, req retrieval.Request) (*generation, retrieval.Result, error) {
	res, err := g.searcher.Search(ctx, req)
	if err == nil {
		return g, res, nil
	}
	if g2 := l.replaced(ctx, g); g2 != nil {
		g = g2
		res, err = g.searcher.Search(ctx, req)
	}
	return g, res, err
}

// replaced is the version that replaced g, after a request on g failed:
// when g is stale and the swap succeeds, the new version (acquired, g
// released); otherwise nil, and g stays the caller's.
func (l *Index) replaced(ctx context.Context, g *generation) *generation {
	if stale, err := g.ix.Stale(ctx); err != nil || !stale {
		return nil
	}
	g2, err := l.swap(ctx, g)
	if err != nil {
		return nil
	}
	g.release()
	return g2
}

// merged is Search with the assessor's ExpandMerge (assess/merged.go):
// req as sent, then the expanded query q on the same version, the plain
// hits first and the chunks only q found below them. The result's stages
// are the plain search's, after the expand stage st, which says how many
// chunks the expansion put in; its warnings are both searches'. It
// returns the generation searched, as search does (the caller releases it).
func (l *Index) merged(ctx context.Context, g *generation, b *assess.Builtin, req retrieval.Request, q string, st retrieval.Stage) (*generation, retrieval.Result, error) {
	g, res, err := l.search(ctx, g, req)
	if err != nil {
		return g, retrieval.Result{}, err
	}
	if !b.Merges(req.K, len(res.Hits)) {
		st.Note += fmt.Sprintf("; not searched: the query's %d hits are fewer than %d", len(res.Hits), req.K)
		res.Stages = append([]retrieval.Stage{{Name: "index", Note: g.ix.Version()}, st}, res.Stages...)
		return g, res, nil
	}
	req.Query = q
	ex, err := g.searcher.Search(ctx, req)
	if err != nil {
		return g, retrieval.Result{}, err
	}
	hits := b.MergeExpanded(req.K, res.Hits, ex.Hits)
	st.Note += fmt.Sprintf("; searched beside the query, %d chunk(s) below its %d hits", len(hits)-len(res.Hits), len(res.Hits))
	res.Hits = hits
	res.Warnings = append(res.Warnings, ex.Warnings...)
	res.Stages = append([]retrieval.Stage{{Name: "index", Note: g.ix.Version()}, st}, res.Stages...)
	return g, res, nil
}

// Chunks implements activities.ChunkReader on the current version (run:
// on RediSearch the version's check rides with the read's HMGET, or is
// one GET when every chunk was cached). When the read fails because its
// version went away (a version older than the one a build replaced), it
// swaps and reads once more, as search does.
func (l *Index) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	var cs []corpus.Chunk
	err := l.run(ctx, func(ctx context.Context, g *generation) (*generation, error) {
		var err error
		if cs, err = g.ix.Chunks(ctx, ids); err == nil {
			return g, nil
		}
		if g2 := l.replaced(ctx, g); g2 != nil {
			g = g2
			cs, err = g.ix.Chunks(ctx, ids)
		}
		return g, err
	})
	if err != nil {
		return nil, err
	}
	return cs, nil
}

// Assess implements assess.Assessor with the builtin assessor over the
// current version's statistics (run: on RediSearch the version's check
// rides with the assessment's first command).
func (l *Index) Assess(ctx context.Context, req assess.Request) (assess.Result, error) {
	var res assess.Result
	err := l.run(ctx, func(ctx context.Context, g *generation) (*generation, error) {
		var err error
		res, err = g.assessor.Assess(ctx, req)
		return g, err
	})
	if err != nil {
		return assess.Result{}, err
	}
	return res, nil
}

// Searching says what searching the version served needs, a newer
// version swapped in first as a search would: inProcess, nothing outside
// this process (bleve, a builtin embedder or none); redisOnly, Redis and
// nothing else (the redisearch backend, a builtin embedder or none).
// Neither: an embedding endpoint. A rebuild can change the answer (an
// index rebuilt with the openai embedder), so a worker asks at every
// run's start (activities.Activities.LocalNow), not once. A newer version
// that cannot be opened leaves the old one served, and its answer.
//
// It waits at most searchingWait for the check and a swap: a Redis that
// hangs (paused, a partition) answers go-redis's read only after its own
// timeouts and retries, and the routing policy, which asks at every run's
// start within a local activity's few seconds, must not fail the run
// over it. Past the wait it answers for the version served; the check
// goes on, and the next run sees a version it swapped in.
func (l *Index) Searching(ctx context.Context) (inProcess, redisOnly bool) {
	ctx, cancel := context.WithTimeout(ctx, searchingWait)
	defer cancel()
	done := make(chan *generation, 1)
	go func() {
		g, err := l.current(ctx)
		if err != nil {
			g = nil
		} else {
			g.release() // only its fields are read
		}
		done <- g
	}()
	g := l.cur.Load()
	select {
	case cur := <-done:
		if cur != nil {
			g = cur
		}
	case <-ctx.Done():
	}
	return g.inProcess, g.redisOnly
}

// searchingWait bounds Searching's wait for a staleness check and swap.
const searchingWait = time.Second

// Len is the number of chunks of the version served.
func (l *Index) Len() int { return l.cur.Load().ix.Len() }

// Version names the version served.
func (l *Index) Version() string { return l.cur.Load().ix.Version() }

// Current is the version served now, for callers that read it directly.
func (l *Index) Current() backend.Index { return l.cur.Load().ix }

// Thesaurus is the thesaurus the builtin assessor reads (loop.thesaurus),
// opened once; nil without one. The builtin generator reads the same copy.
func (l *Index) Thesaurus() assess.Thesaurus { return l.thes }

// Ready swaps to a newer version if there is one and says which version
// is served; it fails when the index is empty or cannot be reached.
func (l *Index) Ready(ctx context.Context) (string, error) {
	g, err := l.current(ctx)
	if err != nil {
		return "", err
	}
	defer g.release()
	if g.ix.Len() == 0 {
		return g.ix.Version(), errors.New("index is empty")
	}
	return g.ix.Version(), nil
}

// Close closes every version no request reads (one still read closes
// when its last request ends) and the Redis client; a request made after
// it fails (errs.Unavailable).
func (l *Index) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return nil
	}
	l.done = true
	l.closing.Store(true)
	// Every version is retired: one no request reads closes now, one still
	// read when its last request releases it (a read of a closed bleve
	// version faults: its files are unmapped).
	var err error
	for _, g := range append(l.old, l.cur.Load()) {
		g.retired.Store(true)
		if g.refs.Load() == 0 {
			err = errors.Join(err, g.close())
		}
	}
	l.old = nil
	return errors.Join(err, l.src.Close())
}
