package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/gateway"
	"github.com/assay-rag/assay/internal/index"
	"github.com/assay-rag/assay/internal/redisearch"
)

// runGateway serves the HTTP API against a Temporal cluster.
func runGateway(ctx context.Context, e env, args []string) error {
	f := newFlags("gateway", e.stderr)
	f.setting("http-addr", "http.addr", "listen `address` (default 127.0.0.1:8080)")
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
	f.setting("index-dir", "index.dir", "the worker's index `dir`, read for /v1/questions/{id}/sources (default <data_dir>/index)")
	indexSettings(f)
	if err := f.parse(args, 0); err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	log := newLogger(e, slog.LevelInfo)
	// Fail closed before binding anything: no keys, no gateway (unless
	// anonymous access is explicitly allowed).
	if _, err := newKeyring(cfg, slog.New(slog.DiscardHandler)); err != nil {
		return err
	}
	ln, err := listen(cfg.HTTP.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	c, err := dialTemporal(ctx, cfg, newLogger(e, slog.LevelWarn))
	if err != nil {
		return err
	}
	defer c.Close()
	tok, err := redisTokens(ctx, cfg, log, "gateway")
	if err != nil {
		return err
	}
	var events gateway.Tokens // stays nil, not a nil *tokens.Redis
	if tok != nil {
		defer tok.Close()
		events = tok
	}
	var checks []gateway.Check
	var passages gateway.Chunks
	if cfg.Index.Backend == config.BackendRediSearch {
		// The shared index is in Redis: the gateway checks it and reads
		// passages from it, following its versions.
		rdb := redisearch.NewClient(cfg.Redis.Addr, cfg.Redis.Password.Reveal())
		defer rdb.Close()
		checks = append(checks, sharedIndexCheck(rdb, cfg.Index.Name))
		passages = &sharedPassages{rdb: rdb, name: cfg.Index.Name}
	} else {
		p := newPassageIndex(cfg.IndexDir(), log)
		defer p.Close()
		passages = p
	}
	gw, err := newGateway(c, cfg, log, nil, events, passages, checks...)
	if err != nil {
		return err
	}
	log.Info("gateway listening", "addr", ln.Addr().String(), "temporal", cfg.Temporal.Address)
	return serve(ctx, ln, gw.Handler(), cfg.HTTP)
}

// passageIndex is the worker's index as a standalone gateway reads it, to
// serve the passages a run used without putting chunk texts into workflow
// history. It needs the index directory on a shared volume or the same
// machine; it opens it read-only at start if it is there, and otherwise on
// a later request (at most every retry), so a gateway started before the
// worker built its index serves passages once the index exists. It is a
// snapshot: restart the gateway after the worker rebuilds the index.
type passageIndex struct {
	dir   string
	log   *slog.Logger
	retry time.Duration

	mu    sync.Mutex
	ix    *index.Index
	tried time.Time
}

func newPassageIndex(dir string, log *slog.Logger) *passageIndex {
	p := &passageIndex{dir: dir, log: log, retry: 10 * time.Second}
	p.open() //nolint:errcheck // logged; retried on demand
	return p
}

func (p *passageIndex) open() (*index.Index, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ix != nil {
		return p.ix, nil
	}
	unavailable := errs.Errorf("gateway.passages", errs.Unavailable, "no index at %s (index.dir)", p.dir)
	if !p.tried.IsZero() && time.Since(p.tried) < p.retry {
		return nil, unavailable
	}
	p.tried = time.Now()
	ix, err := index.Open(p.dir)
	if err != nil {
		p.log.Warn("no index to read passages from: GET /v1/questions/{id}/sources answers 503 until there is one; set index.dir (--index-dir) to the worker's index",
			"dir", p.dir, "error", err)
		return nil, unavailable
	}
	p.log.Info("passages for /v1/questions/{id}/sources come from the index", "dir", p.dir, "chunks", ix.Len())
	p.ix = ix
	return ix, nil
}

// Chunks implements gateway.Chunks.
func (p *passageIndex) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	ix, err := p.open()
	if err != nil {
		return nil, err
	}
	return ix.Chunks(ctx, ids)
}

// Close closes the index if it was opened.
func (p *passageIndex) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ix == nil {
		return nil
	}
	return p.ix.Close()
}

// sharedPassages reads passages from the shared RediSearch index, opening
// its current version on demand and the next one when a rebuild replaces
// it, so a gateway never serves a version the workers have left.
type sharedPassages struct {
	rdb  *redis.Client
	name string

	mu sync.Mutex
	ix *redisearch.Index
}

// Chunks implements gateway.Chunks.
func (p *sharedPassages) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	p.mu.Lock()
	if p.ix == nil || p.ix.Stale(ctx) {
		ix, err := redisearch.Open(ctx, p.rdb, p.name, redisearch.Options{})
		if err != nil {
			p.mu.Unlock()
			return nil, errs.Errorf("gateway.passages", errs.Unavailable, "the shared index %q cannot be read: %v", p.name, err)
		}
		p.ix = ix
	}
	ix := p.ix
	p.mu.Unlock()
	return ix.Chunks(ctx, ids)
}
