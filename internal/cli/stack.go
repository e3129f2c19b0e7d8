package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/workflows"
)

// stack is the embedded default's back end: a local Temporal dev server,
// a client of it, the index of the configured corpus and a worker over
// that index, started and stopped together. `assay dev` serves the
// gateway over it; `assay eval answers` runs its batches on a temporary
// one.
type stack struct {
	srv *devserver.Server
	c   client.Client
	ix  *live.Index
	w   worker.Worker
	log *slog.Logger
}

// startStack starts the dev server on cfg.Dev's ports with its data in
// cfg.DataDir, registers assay's search attributes, opens (or builds) the
// index and starts a worker with the given interceptors, publishing a
// streaming model's answer tokens to tok when it is not nil. cfg.Temporal.Address
// must already name the dev server's frontend. On error, whatever had
// started is stopped again.
func startStack(ctx context.Context, e env, cfg config.Config, log *slog.Logger, tok activities.TokenPublisher, ics ...interceptor.WorkerInterceptor) (_ *stack, err error) {
	s := &stack{log: log}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	s.srv, err = devserver.Start(ctx, devserver.Options{
		Bin:       cfg.Dev.TemporalBin,
		DataDir:   cfg.DataDir,
		Port:      cfg.Dev.TemporalPort,
		UIPort:    cfg.Dev.UIPort,
		Namespace: cfg.Temporal.Namespace,
		Logger:    log,
	})
	if err != nil {
		return nil, err
	}
	if s.c, err = dialTemporal(ctx, cfg, newLogger(e, slog.LevelWarn)); err != nil {
		return nil, err
	}
	if err = workflows.RegisterSearchAttributes(ctx, s.c, cfg.Temporal.Namespace); err != nil {
		return nil, err
	}
	if s.ix, err = live.Open(ctx, cfg, log, true); err != nil {
		return nil, err
	}
	log.Info("index", "serving", s.ix.Version(), "chunks", s.ix.Len())
	if s.w, err = startWorker(s.c, cfg, log, s.ix, tok, ics...); err != nil {
		return nil, err
	}
	return s, nil
}

// startWorker builds the activities over ix and starts a worker with them
// on c. The caller stops the worker and closes the index.
func startWorker(c client.Client, cfg config.Config, log *slog.Logger, ix *live.Index, tok activities.TokenPublisher, ics ...interceptor.WorkerInterceptor) (worker.Worker, error) {
	acts, err := buildActivities(ix, cfg, tok, log)
	if err != nil {
		return nil, err
	}
	w := newWorker(c, cfg, acts, ics...)
	if err := w.Start(); err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	return w, nil
}

// Close stops the worker, the client, the index and the dev server, in
// that order; it is safe on a partly started stack.
func (s *stack) Close() {
	if s.w != nil {
		s.w.Stop()
	}
	if s.c != nil {
		s.c.Close()
	}
	var errc error
	if s.ix != nil {
		errc = s.ix.Close()
	}
	if s.srv != nil {
		errc = errors.Join(errc, s.srv.Stop(15*time.Second))
	}
	if errc != nil {
		s.log.Warn("stopping the dev stack", "error", errc)
	}
}
