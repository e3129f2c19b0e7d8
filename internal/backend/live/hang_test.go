package live

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestPassageReadBoundedWhenRedisHangs (round 49 review, rv49): a
// gateway's passage index (no deadline on its requests: the sources
// endpoint's context) reading a chunk it has not cached while Redis
// accepts connections and answers nothing (a paused process) fails
// unavailable (the endpoint's 503 with Retry-After) within a few
// seconds. Before round 49 the check came first and failed at 5 s; with
// the check riding in the read's pipeline (a49-gw) the read waited for
// go-redis's read timeout on every retry of the pipeline: 45.9 s
// measured.
func TestPassageReadBoundedWhenRedisHangs(t *testing.T) {
	srv, cfg := pausableIndex(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	buildLayout(t, cfg, cfg.Index.Vector)
	src := NewPassageSource(cfg)
	p, err := OpenPassages(ctx, src, log)
	if err != nil {
		src.Close()
		t.Fatal(err)
	}
	defer p.Close()
	srv.Pause(t)
	start := time.Now()
	cs, err := p.Chunks(ctx, []string{"d#0"})
	took := time.Since(start)
	if !errs.Is(errs.Unavailable, err) || len(cs) != 0 {
		t.Errorf("an uncached passage read with Redis paused = %+v, %v; want unavailable, nothing", cs, err)
	}
	if took > 8*time.Second {
		t.Errorf("an uncached passage read with Redis paused failed after %v; want within a few seconds", took.Round(time.Millisecond))
	}
}

// TestSearchFailsFastWhenRedisHangs (a proposal of round 49's review,
// rv49; fixed by gw49b): a search whose check rides with its first
// command held, against a Redis that hangs, until the caller's deadline:
// go-redis retries the timed-out pipeline (MaxRetries 3) until then, so a
// remote Search activity (30 s) held an attempt for 30 s where round 48's
// check first failed it at 5 s. Now the first command of a search is
// mostly a statistics read, bounded by statsTimeout (5 s); once the
// check riding with it failed, the request's other commands are not sent
// (redisearch Check: dead) and the reads without a context (the query
// embedder's DocFreq, Warnings) do not wait (suspect): the search fails
// after ~6 s (5 s, then 1 s for search's Stale before its retry). The
// next search checks first (Stale, staleWait: 1 s) while Redis is
// suspect, so it fails within ~1 s. A search whose every statistic is
// cached sends an FT.SEARCH first, bounded by the caller's deadline only
// (not tested: a bound on it would fail slow healthy searches).
func TestSearchFailsFastWhenRedisHangs(t *testing.T) {
	srv, cfg := pausableIndex(t)
	ctx := context.Background()
	l := openLive(t, cfg)
	resume := srv.Pause(t)
	for i, within := range []time.Duration{7 * time.Second, 2500 * time.Millisecond} {
		c, cancel := context.WithTimeout(ctx, 30*time.Second) // a remote Search activity's
		start := time.Now()
		_, err := l.Search(c, retrieval.Request{Query: "kettles covered", Groups: public, K: 5})
		took := time.Since(start)
		cancel()
		t.Logf("search %d with Redis paused: %v after %v", i, err, took.Round(time.Millisecond))
		if !errs.Is(errs.Unavailable, err) || took > within {
			t.Errorf("search %d with Redis paused failed after %v (%v); want unavailable within %v", i, took.Round(time.Millisecond), err, within)
		}
	}
	resume()
	if _, err := l.Search(ctx, retrieval.Request{Query: "kettles covered", Groups: public, K: 5}); err != nil {
		t.Errorf("a search once Redis answers again: %v", err)
	}
}

// TestAssessStopsAtDeadlineWhenRedisHangs (round 49, gw49b): an
// assessment on a Redis that accepts connections and answers nothing (a
// paused process) fails at its own deadline (an Assess activity's), not
// later: the assessor's statistics reads (the principal's vocabulary,
// DocFreq, AvgLen) are made in the request's context (assess.ContextCorpus)
// with statsTimeout only as an upper bound. Before, they were made in
// context.Background() with statsTimeout (5 s) each, whatever the
// request's deadline, and carried no check.
func TestAssessStopsAtDeadlineWhenRedisHangs(t *testing.T) {
	srv, cfg := pausableIndex(t)
	ctx := context.Background()
	l := openLive(t, cfg)
	srv.Pause(t)
	const deadline = 2 * time.Second
	c, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	q := "how long are kettles covered"
	ev := []assess.Evidence{{ChunkID: "k#0", Title: "Kettles", Text: "Kettles are covered for two years.", Score: 1}}
	start := time.Now()
	res, err := l.Assess(c, assess.Request{Question: q, Query: q, Groups: public, K: 5, Evidence: ev})
	took := time.Since(start)
	if err == nil {
		t.Errorf("an assessment with Redis paused = %+v, nil; want an error", res.Assessment)
	}
	if took > deadline+time.Second {
		t.Errorf("an assessment with a %v deadline and Redis paused failed after %v (%v); want at its deadline", deadline, took.Round(time.Millisecond), err)
	}
}

// pausableIndex starts a Redis the test may pause and configures an index
// of the narrowing corpus (d public) on it, not yet built.
func pausableIndex(t *testing.T) (*redistest.Server, config.Config) {
	t.Helper()
	srv := redistest.StartPausable(t)
	cfg := redistest.IndexConfig(t, srv.Addr, redistest.Name("hang"))
	cfg.Index.Corpus = filepath.Join(t.TempDir(), "corpus.jsonl")
	writeNarrowCorpus(t, cfg.Index.Corpus, "public")
	return srv, cfg
}

// openLive opens a worker's index on cfg, closed when t ends.
func openLive(t testing.TB, cfg config.Config) *Index {
	t.Helper()
	l, err := Open(context.Background(), cfg, slog.New(slog.DiscardHandler), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}
