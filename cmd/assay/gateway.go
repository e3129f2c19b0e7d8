package main

import (
	"context"
	"log/slog"

	"github.com/assay-rag/assay/internal/gateway"
)

// runGateway serves the HTTP API against a Temporal cluster.
func runGateway(ctx context.Context, e env, args []string) error {
	f := newFlags("gateway", e.stderr)
	f.setting("http-addr", "http.addr", "listen `address` (default 127.0.0.1:8080)")
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
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
	gw, err := newGateway(c, cfg, log, nil, events)
	if err != nil {
		return err
	}
	log.Info("gateway listening", "addr", ln.Addr().String(), "temporal", cfg.Temporal.Address)
	return serve(ctx, ln, gw.Handler(), cfg.HTTP)
}
