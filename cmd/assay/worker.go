package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/assay-rag/assay/workflows"
)

// runWorker runs assay's workflows and activities against a Temporal
// cluster until interrupted.
func runWorker(ctx context.Context, e env, args []string) error {
	f := newFlags("worker", e.stderr)
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
	f.setting("index-dir", "index.dir", "index `dir` (default <data_dir>/index)")
	f.setting("corpus", "index.corpus", "corpus `file` to (re)build the index from when it is missing or stale; empty to only open")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	log := newLogger(e, slog.LevelInfo)
	c, err := dialTemporal(ctx, cfg, newLogger(e, slog.LevelWarn))
	if err != nil {
		return err
	}
	defer c.Close()
	if err := workflows.RegisterSearchAttributes(ctx, c, cfg.Temporal.Namespace); err != nil {
		// A managed cluster may not let workers register attributes; an
		// operator must then do it once.
		log.Warn("could not register search attributes; register them before starting workflows", "error", err)
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
	w := newWorker(c, cfg, acts)
	if err := w.Start(); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	defer w.Stop()
	log.Info("worker running", "temporal", cfg.Temporal.Address, "namespace", cfg.Temporal.Namespace,
		"task_queue", cfg.Temporal.TaskQueue, "chunks", ix.Len())
	<-ctx.Done()
	log.Info("worker stopping")
	return nil
}
