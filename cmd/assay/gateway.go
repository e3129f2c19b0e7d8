package main

import (
	"context"
	"log/slog"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/gateway"
	"github.com/assay-rag/assay/internal/index"
)

// runGateway serves the HTTP API against a Temporal cluster.
func runGateway(ctx context.Context, e env, args []string) error {
	f := newFlags("gateway", e.stderr)
	f.setting("http-addr", "http.addr", "listen `address` (default 127.0.0.1:8080)")
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
	f.setting("index-dir", "index.dir", "the worker's index `dir`, read for /v1/questions/{id}/sources (default <data_dir>/index)")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	log := newLogger(e, slog.LevelInfo)
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
	var chunks gateway.Chunks // stays nil, not a nil *index.Index
	if ix := gatewayIndex(cfg, log); ix != nil {
		defer ix.Close()
		chunks = ix
	}
	gw, err := newGateway(c, cfg, log, nil, events, chunks)
	if err != nil {
		return err
	}
	log.Info("gateway listening", "addr", ln.Addr().String(), "temporal", cfg.Temporal.Address)
	return serve(ctx, ln, gw.Handler())
}

// gatewayIndex opens the worker's index read-only, when this gateway can
// reach it (a shared volume, the same machine), so it can serve the
// passages a run used without putting chunk texts into workflow history.
// Without one the gateway still serves everything else and says so.
func gatewayIndex(cfg config.Config, log *slog.Logger) *index.Index {
	dir := cfg.IndexDir()
	ix, err := index.Open(dir)
	if err != nil {
		log.Warn("no index to read passages from: GET /v1/questions/{id}/sources answers 503; set index.dir (--index-dir) to the worker's index", "dir", dir, "error", err)
		return nil
	}
	log.Info("passages for /v1/questions/{id}/sources come from the index", "dir", dir, "chunks", ix.Len())
	return ix
}
