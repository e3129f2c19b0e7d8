package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/internal/tokens"
)

// sampleCorpus is what `assay dev` indexes when index.corpus is not set:
// the Hollin sample, relative to the repository root. No other command
// falls back on it.
const sampleCorpus = "testdata/hollin/corpus.jsonl"

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
	indexSettings(f)
	if err := f.parse(args, 0); err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	if cfg.Index.Corpus == "" {
		cfg.Index.Corpus = sampleCorpus
	}
	cfg.Temporal.Address = "127.0.0.1:" + strconv.Itoa(cfg.Dev.TemporalPort)
	log := newLogger(e, slog.LevelInfo)
	if _, set := os.LookupEnv("GOGC"); !set {
		// The same trade as the dev server's (devserver.GCPercent): under
		// load this process's CPU per question fell about 16%.
		debug.SetGCPercent(devserver.GCPercent)
	}
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

	tel, err := newTelemetry()
	if err != nil {
		return err
	}
	// Worker and gateway share this process: answer tokens go through an
	// in-process hub, whatever redis.addr says.
	hub := tokens.NewHub(0)
	log.Info("answer tokens: in process (the worker and the gateway share it)")
	st, err := startStack(ctx, e, cfg, log, hub, tel.runs.Interceptor())
	if err != nil {
		return err
	}
	defer st.Close()
	srv, ix := st.srv, st.ix
	log.Info("index: " + backendName(cfg))
	if cfg.HTTP.TemporalUIURL == "" {
		cfg.HTTP.TemporalUIURL = srv.UIURL()
	}
	gw, err := newGateway(st.c, cfg, log, tel, hub, ix, indexCheck(ix))
	if err != nil {
		return err
	}

	models := "builtin models"
	if cfg.LLM.BaseURL != "" {
		models = "models at " + cfg.LLM.BaseURL
	}
	fmt.Fprintf(e.stdout, "assay is up (%s, %d chunks indexed)\n", models, ix.Len())
	fmt.Fprintf(e.stdout, "  index        %s\n", backendName(cfg))
	fmt.Fprintf(e.stdout, "  corpus       %s: %s\n", cfg.Index.Corpus, cfg.Index.ACLPolicy())
	fmt.Fprintf(e.stdout, "  web page     http://%s/\n", ln.Addr())
	fmt.Fprintf(e.stdout, "  gateway      http://%s\n", ln.Addr())
	fmt.Fprintf(e.stdout, "  temporal UI  %s/namespaces/%s/workflows\n", srv.UIURL(), cfg.Temporal.Namespace)
	fmt.Fprintf(e.stdout, "  temporal     %s (CLI: ./bin/temporal workflow list --address %s)\n", srv.Address(), srv.Address())
	if len(keys) == 0 {
		fmt.Fprintln(e.stdout, "  auth         anonymous: no API keys configured, every caller sees public documents only")
	} else {
		fmt.Fprintf(e.stdout, "  auth         %d API keys\n", len(keys))
	}
	fmt.Fprintf(e.stdout, "try: curl -s -X POST http://%s/v1/questions -H 'Content-Type: application/json' -d '{\"question\":\"how many years is the X300 Pro motor covered for\"}'\n", ln.Addr())
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
	err = serve(ctx, ln, gw.Handler(), cfg.HTTP)
	log.Info("shutting down")
	return err
}
