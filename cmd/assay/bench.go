package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/assay-rag/assay/internal/gateway"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/wire"
)

// runBench measures a gateway end to end: workers ask questions from a
// JSONL file in turn (POST /v1/questions?wait=, one round trip per
// question) and it reports sustained questions per second and latency
// percentiles. It sends exactly -n questions, after -warmup unmeasured
// ones, and stops at -max-duration whatever happens.
func runBench(ctx context.Context, e env, args []string) error {
	f := newFlags("bench", e.stderr)
	server := f.String("server", "http://127.0.0.1:8080", "gateway `URL` (API key from ASSAY_API_KEY)")
	file := f.String("questions", "testdata/hollin/questions.jsonl", "JSONL `file` of questions, asked round-robin")
	n := f.Int("n", 200, "questions to measure")
	warmup := f.Int("warmup", 20, "questions asked first and not measured")
	conc := f.Int("concurrency", 8, "questions in flight at once")
	maxDur := f.Duration("max-duration", 5*time.Minute, "stop after this long")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	if *n < 1 || *conc < 1 || *warmup < 0 {
		return usageError("bench: -n and -concurrency must be at least 1, -warmup at least 0")
	}
	qs, err := readQuestions(*file)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, *maxDur)
	defer cancel()
	c := &gateway.Client{BaseURL: *server, APIKey: e.getenv("ASSAY_API_KEY")}

	if *warmup > 0 {
		if _, err := benchRun(ctx, c, qs, *warmup, *conc); err != nil {
			return fmt.Errorf("bench: warm-up: %w", err)
		}
	}
	res, err := benchRun(ctx, c, qs, *n, *conc)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	res.print(e, *n, *conc)
	return nil
}

// benchResult is one measured run.
type benchResult struct {
	elapsed   time.Duration
	latencies []float64 // ms, ascending
	stops     map[wire.StopReason]int
	errors    int
	firstErr  error
}

// benchRun asks n questions, conc at a time, and measures each.
func benchRun(ctx context.Context, c *gateway.Client, qs []gateway.BatchQuestion, n, conc int) (benchResult, error) {
	res := benchResult{stops: map[wire.StopReason]int{}}
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for i := range next {
				t0 := time.Now()
				q, err := c.Ask(ctx, gateway.QuestionRequest{Question: qs[i%len(qs)].Question}, time.Minute)
				ms := float64(time.Since(t0).Microseconds()) / 1000
				mu.Lock()
				switch {
				case err != nil:
					res.errors++
					res.firstErr = cmpOr(res.firstErr, err)
				case q.Status != gateway.Completed:
					res.errors++
					res.firstErr = cmpOr(res.firstErr, fmt.Errorf("question %s: %s after the wait", q.ID, q.Status))
				default:
					res.latencies = append(res.latencies, ms)
					res.stops[q.StopReason]++
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
	res.elapsed = time.Since(start)
	slices.Sort(res.latencies)
	if len(res.latencies) == 0 {
		return res, errors.Join(errors.New("no question completed"), res.firstErr, ctx.Err())
	}
	return res, nil
}

func cmpOr(have, err error) error {
	if have != nil {
		return have
	}
	return err
}

func (r benchResult) print(e env, n, conc int) {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	done := len(r.latencies)
	fmt.Fprintf(tw, "questions\t%d of %d completed, %d errors, concurrency %d\n", done, n, r.errors, conc)
	fmt.Fprintf(tw, "elapsed\t%.2f s\n", r.elapsed.Seconds())
	fmt.Fprintf(tw, "throughput\t%.1f questions/s\n", float64(done)/r.elapsed.Seconds())
	fmt.Fprintf(tw, "latency\tp50 %.1f ms\tp95 %.1f ms\tp99 %.1f ms\tmax %.1f ms\n",
		percentile.NearestRank(r.latencies, 50), percentile.NearestRank(r.latencies, 95),
		percentile.NearestRank(r.latencies, 99), r.latencies[len(r.latencies)-1])
	for _, s := range wire.StopReasons {
		if k := r.stops[s]; k > 0 {
			fmt.Fprintf(tw, "  %s\t%d\n", s, k)
		}
	}
	if r.firstErr != nil {
		fmt.Fprintf(tw, "first error\t%v\n", r.firstErr)
	}
	tw.Flush()
}
