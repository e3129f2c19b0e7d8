package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/bench"
	"github.com/assay-rag/assay/internal/gateway"
)

// runBench measures a gateway end to end: workers ask questions from a
// JSONL file in turn (POST /v1/questions?wait=, one round trip per
// question) and it reports sustained questions per second and latency
// percentiles, once per concurrency level. -batch N also times a batch of
// N questions. --embedded measures a temporary embedded stack (dev
// server, worker and gateway in this process) instead of a server.
func runBench(ctx context.Context, e env, args []string) error {
	f := newFlags("bench", e.stderr)
	server := f.String("server", "http://127.0.0.1:8080", "gateway `URL` (API key from ASSAY_API_KEY)")
	embedded := f.Bool("embedded", false, "measure a temporary embedded stack (like assay dev, on free ports, without the Web UI) instead of -server")
	file := f.String("questions", "testdata/hollin/questions.jsonl", "JSONL `file` of questions, asked round-robin")
	n := f.Int("n", 200, "questions to measure per concurrency level")
	warmup := f.Int("warmup", 20, "questions asked first and not measured")
	concList := f.String("concurrency", "8", "questions in flight at once; a comma-separated `list` measures each in turn")
	batchN := f.Int("batch", 0, "also time one batch of this many `questions` (round-robin from -questions)")
	maxDur := f.Duration("max-duration", 10*time.Minute, "stop after this long")
	jsonOut := f.String("json", "", "also write the numbers to this `file` (schema assay.bench/v1)")
	f.setting("corpus", "index.corpus", "with --embedded: corpus `file` to index (required)")
	f.setting("temporal-bin", "dev.temporal_bin", "with --embedded: Temporal CLI `path` (default bin/temporal)")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	concs, err := parseConcurrency(*concList)
	if err != nil {
		return err
	}
	if *n < 1 || *warmup < 0 || *batchN < 0 {
		return usageError("bench: -n must be at least 1, -warmup and -batch at least 0")
	}
	qs, err := apiclient.ReadQuestions(*file)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, *maxDur)
	defer cancel()
	report := bench.Report{Schema: "assay.bench/v1", Server: *server, Questions: *file, N: *n, Warmup: *warmup,
		CPUs: runtime.NumCPU(), Started: time.Now().UTC()}
	if *embedded {
		report.Server = "embedded"
		url, stop, err := startBenchStack(ctx, e, f)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer stop()
		*server = url
	}
	c := &apiclient.Client{BaseURL: *server, APIKey: e.getenv("ASSAY_API_KEY")}

	err = bench.Run(ctx, c, bench.Options{Questions: qs, N: *n, Warmup: *warmup, Concurrency: concs, Batch: *batchN}, e.stdout, &report)
	if *jsonOut != "" {
		// Written when a level failed too: its row says how.
		if werr := writeJSONFile(*jsonOut, report); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// parseConcurrency reads "1,8,32,64".
func parseConcurrency(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 1 || v > 1024 {
			return nil, usageError(fmt.Sprintf("bench: -concurrency: want numbers 1..1024 separated by commas, got %q", s))
		}
		out = append(out, v)
	}
	return out, nil
}

// startBenchStack starts a temporary embedded stack and a gateway over it
// on a free loopback port, as `assay dev` would, and returns its URL.
func startBenchStack(ctx context.Context, e env, f *flags) (string, func(), error) {
	r, err := newRoot(e, f)
	if err != nil {
		return "", nil, err
	}
	if r.Config.Index.Corpus == "" {
		return "", nil, usageError("bench --embedded: say which corpus to index with --corpus (the sample: " + sampleCorpus + ")")
	}
	// Like assay dev: a temporary local stack without keys serves the
	// anonymous principal.
	keys, err := r.Config.APIKeys()
	if err != nil {
		return "", nil, err
	}
	if len(keys) == 0 {
		r.Config.Auth.AllowAnonymous = true
	}
	r.Log = newLogger(e, slog.LevelWarn)
	gw, err := startGatewayStack(ctx, r)
	if err != nil {
		r.Close()
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.Close()
		return "", nil, err
	}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() { done <- serve(sctx, ln, gw.Handler(), r.Config.HTTP) }()
	return "http://" + ln.Addr().String(), func() {
		stop()
		<-done
		r.Close()
	}, nil
}

// startGatewayStack starts r's temporary stack and the gateway over it.
func startGatewayStack(ctx context.Context, r *Root) (*gateway.Server, error) {
	if _, err := r.StartTemporaryStack(ctx); err != nil {
		return nil, err
	}
	return r.Gateway(ctx, nil)
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
