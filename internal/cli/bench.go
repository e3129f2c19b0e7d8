package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/wire"
)

// BenchReport is what `assay bench --json` writes (schema assay.bench/v1):
// the settings of the measurement and one row per concurrency level, plus
// the batch, when one was measured.
type BenchReport struct {
	Schema    string      `json:"schema"`
	Server    string      `json:"server"` // "embedded" for --embedded
	Questions string      `json:"questions"`
	N         int         `json:"n"`
	Warmup    int         `json:"warmup"`
	CPUs      int         `json:"cpus"`
	Started   time.Time   `json:"started"`
	Rows      []BenchRow  `json:"rows"`
	Batch     *BenchBatch `json:"batch,omitempty"`
}

// BenchRow is one measured concurrency level: questions asked one round
// trip each (POST /v1/questions?wait=).
type BenchRow struct {
	Concurrency int                     `json:"concurrency"`
	Completed   int                     `json:"completed"`
	Errors      int                     `json:"errors"`
	FirstError  string                  `json:"first_error,omitempty"`
	ElapsedS    float64                 `json:"elapsed_s"`
	PerSecond   float64                 `json:"questions_per_second"`
	P50MS       float64                 `json:"p50_ms"`
	P95MS       float64                 `json:"p95_ms"`
	P99MS       float64                 `json:"p99_ms"`
	MaxMS       float64                 `json:"max_ms"`
	StopReasons map[wire.StopReason]int `json:"stop_reasons"`
	latenciesMS []float64
	firstErr    error
}

// BenchBatch is one batch of questions through POST /v1/batches, timed
// from submission until the batch reports it ended.
type BenchBatch struct {
	Questions   int                     `json:"questions"`
	Status      api.Status              `json:"status"`
	ElapsedS    float64                 `json:"elapsed_s"`
	PerSecond   float64                 `json:"questions_per_second"`
	Done        int                     `json:"done"`
	Failed      int                     `json:"failed"`
	RunP50MS    float64                 `json:"run_p50_ms"` // the child runs' own durations
	RunP95MS    float64                 `json:"run_p95_ms"`
	StopReasons map[wire.StopReason]int `json:"stop_reasons"`
}

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
	qs, err := readQuestions(*file)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, *maxDur)
	defer cancel()
	report := BenchReport{Schema: "assay.bench/v1", Server: *server, Questions: *file, N: *n, Warmup: *warmup,
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

	for _, conc := range concs {
		if *warmup > 0 {
			if _, err := benchRun(ctx, c, qs, *warmup, conc); err != nil {
				return fmt.Errorf("bench: warm-up: %w", err)
			}
		}
		row, err := benchRun(ctx, c, qs, *n, conc)
		if err != nil {
			return fmt.Errorf("bench: concurrency %d: %w", conc, err)
		}
		report.Rows = append(report.Rows, row)
		if len(concs) == 1 {
			row.print(e.stdout, *n)
		}
	}
	if len(concs) > 1 {
		printBenchTable(e.stdout, report.Rows)
	}
	if *batchN > 0 {
		b, err := benchBatch(ctx, c, qs, *batchN)
		if err != nil {
			return fmt.Errorf("bench: batch: %w", err)
		}
		report.Batch = &b
		fmt.Fprintf(e.stdout, "batch of %d: %s in %.2f s, %.1f questions/s (%d done, %d failed; run p50 %.1f ms, p95 %.1f ms)\n",
			b.Questions, b.Status, b.ElapsedS, b.PerSecond, b.Done, b.Failed, b.RunP50MS, b.RunP95MS)
	}
	if *jsonOut != "" {
		if err := writeJSONFile(*jsonOut, report); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
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
	cfg, err := loadConfig(e, f)
	if err != nil {
		return "", nil, err
	}
	if cfg.Index.Corpus == "" {
		return "", nil, usageError("bench --embedded: say which corpus to index with --corpus (the sample: " + sampleCorpus + ")")
	}
	// Like assay dev: a temporary local stack without keys serves the
	// anonymous principal.
	keys, err := cfg.APIKeys()
	if err != nil {
		return "", nil, err
	}
	if len(keys) == 0 {
		cfg.Auth.AllowAnonymous = true
	}
	log := newLogger(e, slog.LevelWarn)
	st, cleanup, err := startEvalStack(ctx, e, cfg, log)
	if err != nil {
		return "", nil, err
	}
	gw, err := newGateway(st.c, cfg, log, nil, nil, nil)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cleanup()
		return "", nil, err
	}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() { done <- serve(sctx, ln, gw.Handler(), cfg.HTTP) }()
	return "http://" + ln.Addr().String(), func() {
		stop()
		<-done
		cleanup()
	}, nil
}

// benchRun asks n questions, conc at a time, and measures each.
func benchRun(ctx context.Context, c *apiclient.Client, qs []api.BatchQuestion, n, conc int) (BenchRow, error) {
	row := BenchRow{Concurrency: conc, StopReasons: map[wire.StopReason]int{}}
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for i := range next {
				t0 := time.Now()
				q, err := c.Ask(ctx, api.QuestionRequest{Question: qs[i%len(qs)].Question}, time.Minute)
				ms := float64(time.Since(t0).Microseconds()) / 1000
				mu.Lock()
				switch {
				case err != nil:
					row.Errors++
					row.firstErr = cmpOr(row.firstErr, err)
				case q.Status != api.Completed:
					row.Errors++
					row.firstErr = cmpOr(row.firstErr, fmt.Errorf("question %s: %s after the wait", q.ID, q.Status))
				default:
					row.latenciesMS = append(row.latenciesMS, ms)
					row.StopReasons[q.StopReason]++
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(row.latenciesMS)
	row.Completed = len(row.latenciesMS)
	row.ElapsedS = elapsed.Seconds()
	if row.firstErr != nil {
		row.FirstError = row.firstErr.Error()
	}
	if row.Completed == 0 {
		return row, errors.Join(errors.New("no question completed"), row.firstErr, ctx.Err())
	}
	row.PerSecond = float64(row.Completed) / elapsed.Seconds()
	row.P50MS = percentile.NearestRank(row.latenciesMS, 50)
	row.P95MS = percentile.NearestRank(row.latenciesMS, 95)
	row.P99MS = percentile.NearestRank(row.latenciesMS, 99)
	row.MaxMS = row.latenciesMS[len(row.latenciesMS)-1]
	return row, nil
}

// benchBatch submits n questions as one batch and waits for it to end.
func benchBatch(ctx context.Context, c *apiclient.Client, qs []api.BatchQuestion, n int) (BenchBatch, error) {
	req := api.BatchRequest{}
	for i := range n {
		req.Questions = append(req.Questions, api.BatchQuestion{ID: strconv.Itoa(i + 1), Question: qs[i%len(qs)].Question})
	}
	start := time.Now()
	id, err := c.SubmitBatch(ctx, req)
	if err != nil {
		return BenchBatch{}, err
	}
	for {
		b, err := c.GetBatch(ctx, id)
		if err != nil {
			return BenchBatch{}, err
		}
		if b.Status != api.Running {
			out := BenchBatch{Questions: n, Status: b.Status, ElapsedS: time.Since(start).Seconds()}
			if a := b.Aggregate; a != nil {
				out.Done, out.Failed, out.StopReasons = a.Done, a.Failed, a.StopReasons
				out.RunP50MS, out.RunP95MS = a.LatencyP50MS, a.LatencyP95MS
			}
			out.PerSecond = float64(out.Done) / out.ElapsedS
			return out, nil
		}
		select {
		case <-ctx.Done():
			return BenchBatch{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func cmpOr(have, err error) error {
	if have != nil {
		return have
	}
	return err
}

func (r BenchRow) print(w io.Writer, n int) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "questions\t%d of %d completed, %d errors, concurrency %d\n", r.Completed, n, r.Errors, r.Concurrency)
	fmt.Fprintf(tw, "elapsed\t%.2f s\n", r.ElapsedS)
	fmt.Fprintf(tw, "throughput\t%.1f questions/s\n", r.PerSecond)
	fmt.Fprintf(tw, "latency\tp50 %.1f ms\tp95 %.1f ms\tp99 %.1f ms\tmax %.1f ms\n", r.P50MS, r.P95MS, r.P99MS, r.MaxMS)
	for _, s := range wire.StopReasons {
		if k := r.StopReasons[s]; k > 0 {
			fmt.Fprintf(tw, "  %s\t%d\n", s, k)
		}
	}
	if r.FirstError != "" {
		fmt.Fprintf(tw, "first error\t%s\n", r.FirstError)
	}
	tw.Flush()
}

// printBenchTable prints one line per concurrency level, as Markdown.
func printBenchTable(w io.Writer, rows []BenchRow) {
	fmt.Fprintln(w, "| concurrency | questions/s | p50 | p95 | p99 | errors |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %d | %.1f | %.0f ms | %.0f ms | %.0f ms | %d |\n", r.Concurrency, r.PerSecond, r.P50MS, r.P95MS, r.P99MS, r.Errors)
	}
	for _, r := range rows {
		if r.FirstError != "" {
			fmt.Fprintf(w, "concurrency %d, first error: %s\n", r.Concurrency, r.FirstError)
		}
	}
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
