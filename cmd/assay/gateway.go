package main

import (
	"context"
	"log/slog"
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
	gw, err := newGateway(c, cfg, log, nil)
	if err != nil {
		return err
	}
	log.Info("gateway listening", "addr", ln.Addr().String(), "temporal", cfg.Temporal.Address)
	return serve(ctx, ln, gw.Handler())
}
