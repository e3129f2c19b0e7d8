package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/workflows"
)

// runWorker runs assay's workflows and activities against a Temporal
// cluster until interrupted.
func runWorker(ctx context.Context, e env, args []string) error {
	f := newFlags("worker", e.stderr)
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
	f.setting("index-dir", "index.dir", "index `dir` (default <data_dir>/index)")
	f.setting("corpus", "index.corpus", "corpus `file` to (re)build the bleve index from when it is missing or stale; empty to only open (a redisearch index is built by `assay index`)")
	indexSettings(f)
	f.setting("metrics-addr", "worker.metrics_addr", "serve Prometheus /metrics on this `address` (default: off)")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	log := newLogger(e, slog.LevelInfo)
	var metricsLn net.Listener
	if cfg.Worker.MetricsAddr != "" {
		if metricsLn, err = net.Listen("tcp", cfg.Worker.MetricsAddr); err != nil {
			return fmt.Errorf("worker metrics: listen on %s: %w", cfg.Worker.MetricsAddr, err)
		}
		defer metricsLn.Close()
	}
	// The index before Temporal: a worker with neither an index nor a
	// corpus to build one from fails at once, saying so.
	// A shared RediSearch index is built by `assay index`, never by one
	// of the workers that read it.
	build := cfg.Index.Backend != config.BackendRediSearch
	ix, err := live.Open(ctx, cfg, log, build)
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	defer ix.Close()
	log.Info("index", "serving", ix.Version(), "chunks", ix.Len())
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
	tok, err := redisTokens(ctx, cfg, log, "worker")
	if err != nil {
		return err
	}
	var pub activities.TokenPublisher // a nil *tokens.Redis must stay a nil interface
	if tok != nil {
		defer tok.Close()
		pub = tok
	}
	tel, err := newTelemetry()
	if err != nil {
		return err
	}
	w, err := startWorker(c, cfg, log, ix, pub, tel.runs.Interceptor())
	if err != nil {
		return err
	}
	defer w.Stop()
	log.Info("worker running", "temporal", cfg.Temporal.Address, "namespace", cfg.Temporal.Namespace,
		"task_queue", cfg.Temporal.TaskQueue, "index", live.Describe(cfg), "chunks", ix.Len())
	if metricsLn != nil {
		log.Info("worker metrics", "url", "http://"+metricsLn.Addr().String()+"/metrics")
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(tel.reg, promhttp.HandlerOpts{}))
		err = serve(ctx, metricsLn, mux, cfg.HTTP)
	} else {
		<-ctx.Done()
	}
	log.Info("worker stopping")
	return err
}
