package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/internal/gateway"
	"github.com/assay-rag/assay/internal/tokens"
	"github.com/assay-rag/assay/workflows"
)

// The three long-running processes: `assay dev`, `assay worker` and
// `assay gateway`, each until ctx ends.

// serveDev is the embedded default: a local Temporal dev server with its
// Web UI, the index of the configured corpus (the sample without one), a
// worker and the gateway, all stopped together when ctx ends. It prints
// where everything is on stdout.
func (r *Root) serveDev(ctx context.Context, stdout io.Writer) error {
	cfg := &r.Config
	if cfg.Index.Corpus == "" {
		cfg.Index.Corpus = sampleCorpus
	}
	log := r.Log
	tuneGC(cfg.Index.Backend)
	// The embedded default is a local tool: without keys it serves every
	// caller as the anonymous principal, and says so below.
	keys, err := cfg.APIKeys()
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		cfg.Auth.AllowAnonymous = true
	}

	// Bind the gateway first: a port in use should fail before anything starts.
	ln, err := listen(cfg.HTTP.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()

	if err := startPprof(ctx, cfg.Worker.PprofAddr, log); err != nil {
		return err
	}
	tel, err := r.Telemetry()
	if err != nil {
		return err
	}
	// Worker and gateway share this process: answer tokens go through an
	// in-process hub, whatever redis.addr says.
	r.tokens = tokens.NewHub(0)
	log.Info("answer tokens: in process (the worker and the gateway share it)")
	if cfg.Temporal.PayloadKeys != "" {
		// The Web UI reads the encrypted histories through the gateway.
		r.codecEndpoint = "http://" + ln.Addr().String() + "/codec"
	}
	srv, err := r.StartStack(ctx, tel.runs.Interceptor())
	if err != nil {
		return err
	}
	ix, err := r.Index(ctx)
	if err != nil {
		return err
	}
	log.Info("index: " + live.Describe(*cfg))
	if err := r.ensureInitialRelease(ctx); err != nil {
		return err
	}
	if cfg.HTTP.TemporalUIURL == "" {
		cfg.HTTP.TemporalUIURL = srv.UIURL()
	}
	gw, err := r.Gateway(ctx, ix, indexCheck(ix))
	if err != nil {
		return err
	}

	models := "builtin models"
	if cfg.LLM.BaseURL != "" {
		models = "models at " + cfg.LLM.BaseURL
	}
	fmt.Fprintf(stdout, "assay is up (%s, %d chunks indexed)\n", models, ix.Len())
	fmt.Fprintf(stdout, "  index        %s\n", live.Describe(*cfg))
	fmt.Fprintf(stdout, "  corpus       %s: %s\n", cfg.Index.Corpus, cfg.Index.ACLPolicy())
	fmt.Fprintf(stdout, "  web page     http://%s/\n", ln.Addr())
	fmt.Fprintf(stdout, "  gateway      http://%s\n", ln.Addr())
	fmt.Fprintf(stdout, "  temporal UI  %s/namespaces/%s/workflows\n", srv.UIURL(), cfg.Temporal.Namespace)
	fmt.Fprintf(stdout, "  temporal     %s (CLI: ./bin/temporal workflow list --address %s)\n", srv.Address(), srv.Address())
	if codec, _ := cfg.Temporal.PayloadCodec(); codec != nil {
		fmt.Fprintf(stdout, "  histories    encrypted with key %s (temporal.payload_keys); read them in the Web UI or with ./bin/temporal workflow show --codec-endpoint %s\n", codec.KeyID(), r.codecEndpoint)
	}
	authLine, authHeader := devAuth(len(keys))
	fmt.Fprintln(stdout, "  auth         "+authLine)
	fmt.Fprintf(stdout, "try: curl -s -X POST http://%s/v1/questions%s -H 'Content-Type: application/json' -d '{\"question\":\"how many years is the X300 Pro motor covered for\"}'\n", ln.Addr(), authHeader)
	fmt.Fprintln(stdout, "Ctrl-C stops everything.")

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
	err = serve(ctx, ln, gw.Handler(), cfg.HTTP)
	log.Info("shutting down")
	return err
}

// serveWorker runs assay's workflows and activities against a Temporal
// cluster, serving Prometheus /metrics when worker.metrics_addr is set.
func (r *Root) serveWorker(ctx context.Context) error {
	cfg, log := r.Config, r.Log
	var metricsLn net.Listener
	if cfg.Worker.MetricsAddr != "" {
		var err error
		if metricsLn, err = net.Listen("tcp", cfg.Worker.MetricsAddr); err != nil {
			return fmt.Errorf("worker metrics: listen on %s: %w", cfg.Worker.MetricsAddr, err)
		}
		defer metricsLn.Close()
	}
	if err := startPprof(ctx, cfg.Worker.PprofAddr, log); err != nil {
		return err
	}
	// The index before Temporal: a worker with neither an index nor a
	// corpus to build one from fails at once, saying so.
	// A shared RediSearch index is built by `assay index`, never by one
	// of the workers that read it.
	r.BuildIndex = cfg.Index.Backend != config.BackendRediSearch
	ix, err := r.Index(ctx)
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	c, err := r.Client(ctx)
	if err != nil {
		return err
	}
	if err := workflows.RegisterSearchAttributes(ctx, c, cfg.Temporal.Namespace); err != nil {
		// A managed cluster may not let workers register attributes; an
		// operator must then do it once.
		log.Warn("could not register search attributes; register them before starting workflows", "error", err)
	}
	if err := r.useRedisTokens(ctx, "worker"); err != nil {
		return err
	}
	tel, err := r.Telemetry()
	if err != nil {
		return err
	}
	if _, err := r.StartWorker(ctx, tel.runs.Interceptor()); err != nil {
		return err
	}
	log.Info("worker running", "temporal", cfg.Temporal.Address, "namespace", cfg.Temporal.Namespace,
		"task_queue", cfg.Temporal.TaskQueue, "index", live.Describe(cfg), "chunks", ix.Len())
	if w := cfg.Worker; w.Versioning {
		log.Info("worker versioning: this worker takes new runs once its build is the deployment's current version",
			"deployment", w.DeploymentName, "build_id", buildID(w),
			"make_current", fmt.Sprintf("temporal worker deployment set-current-version --deployment-name %s --build-id %s", w.DeploymentName, buildID(w)))
	}
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

// serveGateway serves the HTTP API against a Temporal cluster, reading
// passages from the worker's index.
func (r *Root) serveGateway(ctx context.Context) error {
	cfg, log := r.Config, r.Log
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
	if _, err := r.Client(ctx); err != nil {
		return err
	}
	if err := r.useRedisTokens(ctx, "gateway"); err != nil {
		return err
	}
	var checks []gateway.Check
	if cfg.Index.Backend == config.BackendRediSearch {
		// The shared index is in Redis: the gateway checks it and reads
		// passages from it, following its versions.
		rdb := redisearch.NewClient(cfg.Redis.Addr, cfg.Redis.Password.Reveal())
		defer rdb.Close()
		checks = append(checks, sharedIndexCheck(rdb, cfg.Index.Name))
	}
	p := newPassageIndex(ctx, cfg, log)
	defer p.Close()
	gw, err := r.Gateway(ctx, p, checks...)
	if err != nil {
		return err
	}
	log.Info("gateway listening", "addr", ln.Addr().String(), "temporal", cfg.Temporal.Address)
	return serve(ctx, ln, gw.Handler(), cfg.HTTP)
}

// devMemoryLimit is the soft limit on the Go runtime's memory that `assay
// dev` sets with its GOGC (unless GOMEMLIMIT is set). GOGC=400 lets the
// heap grow to five times what is live before a collection: with the
// RediSearch backend's bounded caches live (55-77 MB while serving at
// 50,000 chunks, gctrace), the limit, not GOGC, sets when it collects.
// Near the limit the collector runs more often instead; far below it,
// GOGC=400's saving holds.
const devMemoryLimit = 256 << 20

// devRediSearchMemoryLimit is devMemoryLimit with the RediSearch backend,
// whose worker holds no index (round 16): peak resident 262 MiB (274 MB)
// at 50,000 chunks against 285-293 MiB with 256 MiB, for about two more
// collections per 220 questions (~0.3 ms of CPU a question, within the
// noise of the CPU measured a question). The bleve backend keeps 256 MiB
// (its worker's heap was not measured against a lower one).
const devRediSearchMemoryLimit = 224 << 20

// tuneGC sets `assay dev`'s garbage collector: GOGC devserver.GCPercent
// (the same trade as the dev server's: under load this process's CPU per
// question fell about 16%) within a soft memory limit of devMemoryLimit.
// GOGC and GOMEMLIMIT in the environment win. backend is index.backend:
// the limit is devRediSearchMemoryLimit for redisearch.
func tuneGC(backend string) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(devserver.GCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		limit := int64(devMemoryLimit)
		if backend == config.BackendRediSearch {
			limit = devRediSearchMemoryLimit
		}
		debug.SetMemoryLimit(limit)
	}
}

// devAuth is what assay dev's start-up lines say of its API keys: the
// auth line, and the header its "try:" curl line needs to be let in.
// The key itself is a secret, so the header names the variable `assay
// ask` reads it from.
func devAuth(keys int) (line, header string) {
	switch keys {
	case 0:
		return "anonymous: no API keys configured, every caller sees public documents only", ""
	case 1:
		line = "1 API key"
	default:
		line = fmt.Sprintf("%d API keys", keys)
	}
	return line, ` -H "Authorization: Bearer $ASSAY_API_KEY"`
}
