package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"google.golang.org/grpc"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/tracing"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

func newLogger(e env, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

// loadConfig reads file, environment and the flags the user set.
func loadConfig(e env, f *flags) (config.Config, error) {
	return config.Load(config.Options{File: f.config, Getenv: e.getenv, Overrides: f.overrides()})
}

// buildActivities is the one place the worker's activities are made: the
// searcher, chunk reader and builtin assessor over the live index ix
// (which swaps to a rebuilt index between searches), the builtin
// generator, the configured model endpoint and the routing policy that
// goes with it (builtin routes only without an endpoint), tok for a
// streaming model's answer tokens (nil: none), and which stages may run
// as local activities, decided at every run's start from the index
// version served then. What it returns is complete and valid.
func buildActivities(ix *live.Index, cfg config.Config, tok activities.TokenPublisher, log *slog.Logger) (*activities.Activities, error) {
	models, routing, err := endpointModels(cfg, log)
	if err != nil {
		return nil, err
	}
	an := terms.New()
	models.BuiltinAssessor = ix
	gen, err := generate.NewExtractiveModel(an, cfg.Loop.Generator)
	if err != nil {
		return nil, err
	}
	if th := ix.Thesaurus(); th != nil {
		gen.UseThesaurus(th) // the assessor's copy (loop.thesaurus)
	}
	models.BuiltinGenerator = gen
	signer, err := cfg.PrincipalSigner()
	if err != nil {
		return nil, err
	}
	acts := &activities.Activities{
		Signer:   signer,
		Searcher: ix,
		LocalNow: func(ctx context.Context) wire.Local {
			inProcess, redisOnly := ix.Searching(ctx)
			return localStages(inProcess, redisOnly, cfg.Worker)
		},
		Chunks:  ix,
		Models:  models,
		Checker: generate.NewChecker(an),
		Routing: routing,
		Tokens:  tok,
	}
	if err := activities.Validate(acts); err != nil {
		return nil, err
	}
	return acts, nil
}

// localStages says which stages this worker's runs execute as local
// activities (docs/loop.md, "Local activities: what changes"): with
// worker.local_activities, the builtin models, and Search when it runs in
// process or, with worker.local_redis_search, when Redis is all it calls.
// A search that calls an embedding endpoint stays an activity.
func localStages(inProcess, redisOnly bool, w config.Worker) wire.Local {
	return wire.Local{
		Search:  w.LocalActivities && (inProcess || redisOnly && w.LocalRedisSearch),
		Builtin: w.LocalActivities,
	}
}

// dialTemporal connects to the configured frontend. sdkLog should be at
// warning level: the SDK logs every poll at info. With
// temporal.payload_keys the client, and every worker built on it,
// encrypts what it hands Temporal (package payloadcodec).
func dialTemporal(ctx context.Context, cfg config.Config, sdkLog *slog.Logger, unary ...grpc.UnaryClientInterceptor) (client.Client, error) {
	tlsCfg, err := cfg.Temporal.TLSConfig()
	if err != nil {
		return nil, err
	}
	codec, err := cfg.Temporal.PayloadCodec()
	if err != nil {
		return nil, err
	}
	dc := codec.DataConverter()
	opts := client.Options{
		DataConverter:     dc,
		FailureConverter:  codec.FailureConverter(dc),
		HostPort:          cfg.Temporal.Address,
		Namespace:         cfg.Temporal.Namespace,
		Logger:            tlog.NewStructuredLogger(sdkLog.With("component", "temporal-sdk")),
		ConnectionOptions: client.ConnectionOptions{TLS: tlsCfg},
	}
	if len(unary) > 0 {
		opts.ConnectionOptions.DialOptions = append(opts.ConnectionOptions.DialOptions, grpc.WithChainUnaryInterceptor(unary...))
	}
	if opts.Interceptors, err = tracing.ClientInterceptors(); err != nil {
		return nil, err
	}
	if !cfg.Temporal.Gzip() {
		opts.ConnectionOptions.GrpcCompression = &client.GrpcCompressionNone{}
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w", cfg.Temporal.Address, err)
	}
	return c, nil
}

// newWorker registers assay's workflows and activities on the task queue,
// with the pollers, task slots and sticky cache of cfg.Worker.
func newWorker(c client.Client, cfg config.Config, acts *activities.Activities, ics ...interceptor.WorkerInterceptor) worker.Worker {
	if n := cfg.Worker.StickyCache; n > 0 {
		worker.SetStickyWorkflowCacheSize(n)
	}
	w := worker.New(c, cfg.Temporal.TaskQueue, workerOptions(cfg.Worker, ics))
	registerWorkflow(w, workflows.AnswerWorkflow, workflows.AnswerWorkflowName)
	registerWorkflow(w, workflows.BatchWorkflow, workflows.BatchWorkflowName)
	w.RegisterActivity(acts)
	return w
}

// workerOptions are the SDK's worker options for w; zero values keep the
// SDK's defaults.
func workerOptions(w config.Worker, ics []interceptor.WorkerInterceptor) worker.Options {
	return worker.Options{
		Interceptors:                           ics,
		MaxConcurrentWorkflowTaskPollers:       w.WorkflowPollers,
		MaxConcurrentActivityTaskPollers:       w.ActivityPollers,
		MaxConcurrentWorkflowTaskExecutionSize: w.MaxWorkflowTasks,
		MaxConcurrentActivityExecutionSize:     w.MaxActivities,
		DeploymentOptions:                      deploymentOptions(w),
	}
}

// listen binds addr now, so a port in use is an error before anything
// else starts.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("gateway: listen on %s: %w", addr, err)
	}
	return ln, nil
}

// serve runs h on ln until ctx ends, then shuts down gracefully. The
// timeouts are http.*: handlers that stream (SSE) lift theirs with an
// http.ResponseController.
func serve(ctx context.Context, ln net.Listener, h http.Handler, t config.HTTP) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       t.ReadTimeout,
		WriteTimeout:      t.WriteTimeout,
		IdleTimeout:       t.IdleTimeout,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
