package cli

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// passageIndex is the worker's index as a standalone gateway reads it, to
// serve the passages a run used without putting chunk texts into workflow
// history: a bleve directory on a shared volume or the same machine, or
// the shared RediSearch index. It opens the index at start if it is
// there, and otherwise on the first request that finds it built: until
// then every request asks whether it exists (live.Source.Built: one stat
// of the bleve manifest, or one Redis round trip for the RediSearch
// index's current version; never a full open), so a gateway started
// before the worker built its index reads it from the first request made
// after the build. Two failures wait before they are tried again: a
// build that exists but cannot be opened is opened again at once when
// another build replaces it, and otherwise at most every retry; a Redis
// that does not answer (which go-redis retries for a second or two
// before it says so) is asked again at most every retry, requests in
// between answered unavailable at once. Once open it follows rebuilds as a worker does (a
// live.Index: one unlocked staleness check per read, an atomic swap), so
// the ACL checked at read time is the current build's.
type passageIndex struct {
	cfg config.Config
	log *slog.Logger
	// retry is how soon a build that failed to open is opened again when
	// no other build has replaced it, and how soon Redis is asked again
	// after it did not answer.
	retry time.Duration

	live atomic.Pointer[live.Index]
	src  *live.Source // asks Built; the Index's once it is open
	mu   sync.Mutex   // serializes opening; guards failed, failedAt
	// failed is the build that last failed to open, at failedAt.
	failed   live.Stamp
	failedAt time.Time
	// unreachable is when Redis last did not answer Built (unix nanos;
	// 0: it answered).
	unreachable atomic.Int64
	// said is the last reason for answering unavailable that was logged,
	// so that a gateway waiting for the index logs each change once, not
	// every request.
	said atomic.Value
}

func newPassageIndex(ctx context.Context, cfg config.Config, log *slog.Logger) *passageIndex {
	p := &passageIndex{cfg: cfg, log: log, retry: time.Second, src: live.NewPassageSource(cfg)}
	p.open(ctx) //nolint:errcheck // logged; asked again on demand
	return p
}

// noPassages is what a request gets while there is no index to read
// passages from; the log says why.
func noPassages() error {
	return errs.Errorf("gateway.passages", errs.Unavailable, "no index to read passages from (index.dir, or index.backend redisearch)")
}

func (p *passageIndex) open(ctx context.Context) (*live.Index, error) {
	if l := p.live.Load(); l != nil {
		return l, nil
	}
	if at := p.unreachable.Load(); at != 0 && time.Since(time.Unix(0, at)) < p.retry {
		return nil, noPassages()
	}
	// Asked outside the lock: a Redis slow to answer holds up only the
	// request that asked.
	built, err := p.src.Built(ctx)
	if err != nil {
		if !errs.Is(errs.NotFound, err) && ctx.Err() == nil {
			p.unreachable.Store(time.Now().UnixNano())
		}
		p.say("no index to read passages from: GET /v1/questions/{id}/sources answers 503 until there is one; set index.dir (--index-dir) to the worker's index", err)
		return nil, noPassages()
	}
	p.unreachable.Store(0)
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.live.Load(); l != nil {
		return l, nil
	}
	if !p.failedAt.IsZero() && built.Same(p.failed) && time.Since(p.failedAt) < p.retry {
		return nil, noPassages()
	}
	l, err := live.OpenPassages(ctx, p.src, p.log)
	if err != nil {
		p.failed, p.failedAt = built, time.Now()
		p.say("the index to read passages from exists but cannot be opened: GET /v1/questions/{id}/sources answers 503 until it can; it is opened again when it is rebuilt", err)
		return nil, noPassages()
	}
	p.log.Info("passages for /v1/questions/{id}/sources come from the index", "index", live.Describe(p.cfg), "version", l.Version(), "chunks", l.Len())
	p.live.Store(l)
	return l, nil
}

// say logs why passages are unavailable when the reason differs from the
// one logged last.
func (p *passageIndex) say(msg string, err error) {
	if p.said.Swap(msg+"\x00"+err.Error()) != msg+"\x00"+err.Error() {
		p.log.Warn(msg, "index", live.Describe(p.cfg), "error", err)
	}
}

// Chunks implements gateway.Chunks on the index's current version.
func (p *passageIndex) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	l, err := p.open(ctx)
	if err != nil {
		return nil, err
	}
	return l.Chunks(ctx, ids)
}

// Close closes the index if it was opened, and otherwise what asked
// whether it exists.
func (p *passageIndex) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.live.Load(); l != nil {
		return l.Close()
	}
	return p.src.Close()
}
