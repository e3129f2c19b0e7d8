package main

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/workflows"
)

// runDev is the embedded default: a local Temporal dev server with its Web
// UI, the index of the configured corpus, a worker and the gateway, all
// stopped together on Ctrl-C or SIGTERM.
func runDev(ctx context.Context, e env, args []string) error {
	f := newFlags("dev", e.stderr)
	f.setting("data-dir", "data_dir", "`dir` for the Temporal database, its log and the index (default .assay)")
	f.setting("http-addr", "http.addr", "gateway listen `address` (default 127.0.0.1:8080)")
	f.setting("temporal-port", "dev.temporal_port", "Temporal frontend `port` (default 7233)")
	f.setting("ui-port", "dev.ui_port", "Temporal Web UI `port` (default 8233)")
	f.setting("corpus", "index.corpus", "corpus `file` to index (default testdata/hollin/corpus.jsonl)")
	f.setting("temporal-bin", "dev.temporal_bin", "Temporal CLI `path` (default bin/temporal)")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	cfg.Temporal.Address = "127.0.0.1:" + strconv.Itoa(cfg.Dev.TemporalPort)
	log := newLogger(e, slog.LevelInfo)

	// Bind the gateway first: a port in use should fail before anything starts.
	ln, err := listen(cfg.HTTP.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()

	srv, err := devserver.Start(ctx, devserver.Options{
		Bin:       cfg.Dev.TemporalBin,
		DataDir:   cfg.DataDir,
		Port:      cfg.Dev.TemporalPort,
		UIPort:    cfg.Dev.UIPort,
		Namespace: cfg.Temporal.Namespace,
		Logger:    log,
	})
	if err != nil {
		return err
	}
	defer func() {
		if err := srv.Stop(15 * time.Second); err != nil {
			log.Warn("stopping temporal", "error", err)
		}
	}()

	c, err := dialTemporal(ctx, cfg, newLogger(e, slog.LevelWarn))
	if err != nil {
		return err
	}
	defer c.Close()
	if err := workflows.RegisterSearchAttributes(ctx, c, cfg.Temporal.Namespace); err != nil {
		return err
	}

	ix, err := openIndex(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ix.Close()

	acts := newActivities(ix)
	if err := withModels(acts, cfg, log); err != nil {
		return err
	}
	tel, err := newTelemetry()
	if err != nil {
		return err
	}
	w := newWorker(c, cfg, acts, tel.runs.Interceptor())
	if err := w.Start(); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	defer w.Stop()
	gw, err := newGateway(c, cfg, log, tel, indexCheck(ix.Len))
	if err != nil {
		return err
	}

	fmt.Fprintf(e.stdout, "assay is up (embedded default: builtin models, %d chunks indexed)\n", ix.Len())
	fmt.Fprintf(e.stdout, "  gateway      http://%s\n", ln.Addr())
	fmt.Fprintf(e.stdout, "  temporal UI  %s/namespaces/%s/workflows\n", srv.UIURL(), cfg.Temporal.Namespace)
	fmt.Fprintf(e.stdout, "  temporal     %s (CLI: ./bin/temporal workflow list --address %s)\n", srv.Address(), srv.Address())
	fmt.Fprintf(e.stdout, "try: curl -s -X POST http://%s/v1/questions -d '{\"question\":\"how many years is the X300 Pro motor covered for\"}'\n", ln.Addr())
	fmt.Fprintln(e.stdout, "Ctrl-C stops everything.")

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-srv.Done():
			log.Error("temporal dev server exited; shutting down", "log", srv.LogPath())
			cancel()
		case <-ctx.Done():
		}
	}()
	err = serve(ctx, ln, gw.Handler())
	log.Info("shutting down")
	return err
}
