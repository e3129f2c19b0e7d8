// Package bench measures an assay gateway end to end: questions asked
// one round trip each at a given concurrency (throughput and latency
// percentiles) and one batch timed until it ends. `assay bench` drives it
// and writes its Report (schema assay.bench/v1).
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// Report is what `assay bench --json` writes (schema assay.bench/v1):
// the settings of the measurement and one row per concurrency level, plus
// the batch, when one was measured.
type Report struct {
	Schema    string    `json:"schema"`
	Server    string    `json:"server"` // "embedded" for --embedded
	Questions string    `json:"questions"`
	N         int       `json:"n"`
	Warmup    int       `json:"warmup"`
	CPUs      int       `json:"cpus"`
	Started   time.Time `json:"started"`
	Rows      []Row     `json:"rows"`
	Batch     *Batch    `json:"batch,omitempty"`
}

// Row is one measured concurrency level: questions asked one round
// trip each (POST /v1/questions?wait=). Errors are the questions the
// gateway did not answer (a failed request, or a run still going after
// the wait); Completed the runs that ended, Failed those of them that
// ended with a failure's stop reason (Failure: search_error, ...), which
// are counted in Completed, the latencies and StopReasons too.
type Row struct {
	Concurrency int    `json:"concurrency"`
	Completed   int    `json:"completed"`
	Errors      int    `json:"errors"`
	FirstError  string `json:"first_error,omitempty"`
	Failed      int    `json:"failed"`
	// FirstFailure is the first failed run: its id, stop reason and
	// the service's detail ("search failed: unavailable", ...).
	FirstFailure string                  `json:"first_failure,omitempty"`
	ElapsedS     float64                 `json:"elapsed_s"`
	PerSecond    float64                 `json:"questions_per_second"`
	P50MS        float64                 `json:"p50_ms"`
	P95MS        float64                 `json:"p95_ms"`
	P99MS        float64                 `json:"p99_ms"`
	MaxMS        float64                 `json:"max_ms"`
	StopReasons  map[wire.StopReason]int `json:"stop_reasons"`
	latenciesMS  []float64
	firstErr     error
}

// Failure reports whether a run that ends with stop reason s failed
// rather than answered or declined: a stage's typed, final error
// (search_error, assessment_error, generation_error), or what none of a
// benchmark's questions, asked through a gateway and never cancelled,
// should end with (invalid_request, unauthorized, cancelled). A level
// whose runs all fail is an error, not a measurement.
func Failure(s wire.StopReason) bool {
	switch s {
	case wire.SearchError, wire.AssessmentError, wire.GenerationError, wire.InvalidRequest, wire.Unauthorized, wire.Cancelled:
		return true
	}
	return false
}

// Batch is one batch of questions through POST /v1/batches, timed
// from submission until the batch reports it ended.
type Batch struct {
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

// Options are what one measurement asks.
type Options struct {
	Questions   []api.BatchQuestion // asked round-robin
	N           int                 // questions measured per concurrency level
	Warmup      int                 // questions asked first at each level and not measured
	Concurrency []int               // questions in flight, one level after another
	Batch       int                 // also time one batch of this many questions; 0: none
}

// Run measures the gateway c talks to at each concurrency level in turn,
// then the batch, adding the rows and the batch to rep and printing them
// on w (a level's table when there is one level, one Markdown table for
// several). A measured level where no question completed, or where every
// run that completed failed (Failure), is the error, its row kept in rep;
// a warm-up only fails when none completed.
func Run(ctx context.Context, c *apiclient.Client, o Options, w io.Writer, rep *Report) error {
	for _, conc := range o.Concurrency {
		if o.Warmup > 0 {
			if _, err := Measure(ctx, c, o.Questions, o.Warmup, conc); err != nil {
				return fmt.Errorf("warm-up: %w", err)
			}
		}
		row, err := Measure(ctx, c, o.Questions, o.N, conc)
		if err == nil && row.Failed == row.Completed {
			// Measured how fast the service fails, not how fast it answers.
			err = fmt.Errorf("every question that completed failed (%d of %d; %s): %s", row.Failed, o.N, row.stops(), row.FirstFailure)
		}
		if err != nil {
			rep.Rows = append(rep.Rows, row) // what failed, for --json
			return fmt.Errorf("concurrency %d: %w", conc, err)
		}
		rep.Rows = append(rep.Rows, row)
		if len(o.Concurrency) == 1 {
			row.Print(w, o.N)
		}
	}
	if len(o.Concurrency) > 1 {
		PrintTable(w, rep.Rows)
	}
	if o.Batch > 0 {
		b, err := MeasureBatch(ctx, c, o.Questions, o.Batch)
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		rep.Batch = &b
		fmt.Fprintf(w, "batch of %d: %s in %.2f s, %.1f questions/s (%d done, %d failed; run p50 %.1f ms, p95 %.1f ms)\n",
			b.Questions, b.Status, b.ElapsedS, b.PerSecond, b.Done, b.Failed, b.RunP50MS, b.RunP95MS)
	}
	return nil
}

// Measure asks n questions, conc at a time, and measures each.
func Measure(ctx context.Context, c *apiclient.Client, qs []api.BatchQuestion, n, conc int) (Row, error) {
	row := Row{Concurrency: conc, StopReasons: map[wire.StopReason]int{}}
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
					if Failure(q.StopReason) {
						row.Failed++
						if row.FirstFailure == "" {
							row.FirstFailure = fmt.Sprintf("question %s stopped %s: %s", q.ID, q.StopReason, q.StopDetail)
						}
					}
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

// MeasureBatch submits n questions as one batch and waits for it to end.
func MeasureBatch(ctx context.Context, c *apiclient.Client, qs []api.BatchQuestion, n int) (Batch, error) {
	req := api.BatchRequest{}
	for i := range n {
		req.Questions = append(req.Questions, api.BatchQuestion{ID: strconv.Itoa(i + 1), Question: qs[i%len(qs)].Question})
	}
	start := time.Now()
	id, err := c.SubmitBatch(ctx, req)
	if err != nil {
		return Batch{}, err
	}
	for {
		b, err := c.GetBatch(ctx, id)
		if err != nil {
			return Batch{}, err
		}
		if b.Status != api.Running {
			out := Batch{Questions: n, Status: b.Status, ElapsedS: time.Since(start).Seconds()}
			if a := b.Aggregate; a != nil {
				out.Done, out.Failed, out.StopReasons = a.Done, a.Failed, a.StopReasons
				out.RunP50MS, out.RunP95MS = a.LatencyP50MS, a.LatencyP95MS
			}
			out.PerSecond = float64(out.Done) / out.ElapsedS
			return out, nil
		}
		select {
		case <-ctx.Done():
			return Batch{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// cmpOr keeps the first error.
func cmpOr(have, err error) error {
	if have != nil {
		return have
	}
	return err
}

// stops lists the row's failure stop reasons with their counts.
func (r Row) stops() string {
	var parts []string
	for _, s := range wire.StopReasons {
		if k := r.StopReasons[s]; k > 0 && Failure(s) {
			parts = append(parts, fmt.Sprintf("%s %d", s, k))
		}
	}
	return strings.Join(parts, ", ")
}

// Print writes the row as a small table, out of n questions asked.
func (r Row) Print(w io.Writer, n int) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "questions\t%d of %d completed (%d of them failed), %d errors, concurrency %d\n", r.Completed, n, r.Failed, r.Errors, r.Concurrency)
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
	if r.FirstFailure != "" {
		fmt.Fprintf(tw, "first failure\t%s\n", r.FirstFailure)
	}
	tw.Flush()
}

// PrintTable prints one line per concurrency level, as Markdown.
func PrintTable(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| concurrency | questions/s | p50 | p95 | p99 | errors | failed |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %d | %.1f | %.0f ms | %.0f ms | %.0f ms | %d | %d |\n", r.Concurrency, r.PerSecond, r.P50MS, r.P95MS, r.P99MS, r.Errors, r.Failed)
	}
	for _, r := range rows {
		if r.FirstError != "" {
			fmt.Fprintf(w, "concurrency %d, first error: %s\n", r.Concurrency, r.FirstError)
		}
		if r.FirstFailure != "" {
			fmt.Fprintf(w, "concurrency %d, first failure: %s\n", r.Concurrency, r.FirstFailure)
		}
	}
}
