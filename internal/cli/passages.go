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
// there, and otherwise on a later request (at most every retry), so a
// gateway started before the worker built its index serves passages once
// the index exists. Once open it follows rebuilds as a worker does (a
// live.Index: one unlocked staleness check per read, an atomic swap), so
// the ACL checked at read time is the current build's.
type passageIndex struct {
	cfg   config.Config
	log   *slog.Logger
	retry time.Duration

	live  atomic.Pointer[live.Index]
	mu    sync.Mutex // serializes opening
	tried time.Time
}

func newPassageIndex(ctx context.Context, cfg config.Config, log *slog.Logger) *passageIndex {
	p := &passageIndex{cfg: cfg, log: log, retry: time.Second}
	p.open(ctx) //nolint:errcheck // logged; retried on demand
	return p
}

func (p *passageIndex) open(ctx context.Context) (*live.Index, error) {
	if l := p.live.Load(); l != nil {
		return l, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.live.Load(); l != nil {
		return l, nil
	}
	unavailable := errs.Errorf("gateway.passages", errs.Unavailable, "no index to read passages from (index.dir, or index.backend redisearch)")
	if !p.tried.IsZero() && time.Since(p.tried) < p.retry {
		return nil, unavailable
	}
	p.tried = time.Now()
	l, err := live.OpenPassages(ctx, p.cfg, p.log)
	if err != nil {
		p.log.Warn("no index to read passages from: GET /v1/questions/{id}/sources answers 503 until there is one; set index.dir (--index-dir) to the worker's index",
			"index", live.Describe(p.cfg), "error", err)
		return nil, unavailable
	}
	p.log.Info("passages for /v1/questions/{id}/sources come from the index", "index", live.Describe(p.cfg), "version", l.Version(), "chunks", l.Len())
	p.live.Store(l)
	return l, nil
}

// Chunks implements gateway.Chunks on the index's current version.
func (p *passageIndex) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	l, err := p.open(ctx)
	if err != nil {
		return nil, err
	}
	return l.Chunks(ctx, ids)
}

// Close closes the index if it was opened.
func (p *passageIndex) Close() error {
	if l := p.live.Load(); l != nil {
		return l.Close()
	}
	return nil
}
