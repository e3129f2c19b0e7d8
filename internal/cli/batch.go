package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/wire"
)

// runBatch submits a JSONL file of questions as one batch through a
// gateway, shows a progress bar while it runs, prints a summary table and
// writes every result as JSONL. Ctrl-C cancels the batch.
func runBatch(ctx context.Context, e env, args []string) error {
	f := newFlags("batch", e.stderr)
	server := f.String("server", "http://127.0.0.1:8080", "gateway `URL` (API key from ASSAY_API_KEY)")
	out := f.String("out", "", "results `file` (JSONL; default FILE with .results.jsonl; - for stdout)")
	timeout := f.Duration("timeout", time.Hour, "how long to wait for the batch")
	poll := f.Duration("poll", 500*time.Millisecond, "how often to poll the batch's status")
	maxAttempts := f.Int("max-attempts", 0, "attempts per question (0: the server's default)")
	quiet := f.Bool("quiet", false, "no progress bar")
	if err := f.parse(args, 1); err != nil {
		return err
	}
	file := f.Arg(0)
	if file == "" {
		return usageError("batch: give a JSONL file of {\"id\", \"question\"} lines: assay batch questions.jsonl")
	}
	qs, err := apiclient.ReadQuestions(file)
	if err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	if *out == "" {
		*out = strings.TrimSuffix(file, filepath.Ext(file)) + ".results.jsonl"
	}
	c := &apiclient.Client{BaseURL: *server, APIKey: e.getenv("ASSAY_API_KEY")}
	req := api.BatchRequest{Questions: qs}
	if *maxAttempts > 0 {
		req.MaxAttempts = maxAttempts
	}
	waitCtx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	id, err := c.SubmitBatch(waitCtx, req)
	if err != nil {
		return fmt.Errorf("batch: submit: %w", err)
	}
	fmt.Fprintf(e.stderr, "batch %s: %d questions\n", id, len(qs))

	b, err := followBatch(waitCtx, e, c, id, len(qs), *poll, *quiet)
	if err != nil {
		if ctx.Err() != nil {
			// Interrupted: stop the batch rather than leave it running unseen.
			cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer ccancel()
			if cerr := c.CancelBatch(cctx, id); cerr == nil {
				fmt.Fprintf(e.stderr, "batch %s cancelled\n", id)
			}
		}
		return fmt.Errorf("batch %s: %w", id, err)
	}
	items, err := c.AllBatchResults(waitCtx, id)
	if err != nil {
		return fmt.Errorf("batch %s: results: %w", id, err)
	}
	if err := writeResults(e, *out, qs, items); err != nil {
		return fmt.Errorf("batch %s: %w", id, err)
	}
	printSummary(e.stdout, b)
	if *out != "-" {
		fmt.Fprintf(e.stdout, "results: %s (%d lines)\n", *out, len(items))
	}
	if b.Status == api.Failed {
		return fmt.Errorf("batch %s failed; see the Temporal UI", id)
	}
	if b.Aggregate != nil && b.Aggregate.Failed > 0 {
		return fmt.Errorf("batch %s: %d question run(s) failed; see their errors in %s", id, b.Aggregate.Failed, *out)
	}
	return nil
}

// followBatch polls the batch until it ends, moving the progress bar.
func followBatch(ctx context.Context, e env, c *apiclient.Client, id string, n int, every time.Duration, quiet bool) (api.BatchResponse, error) {
	bar := runsBar(e, n, "answering", quiet)
	b, err := c.WaitBatch(ctx, id, every, func(b api.BatchResponse) {
		if a := b.Aggregate; a != nil {
			_ = bar.Set(a.Done + a.Failed + a.Cancelled)
		}
	})
	if err == nil {
		_ = bar.Finish()
		fmt.Fprintln(e.stderr)
	}
	return b, err
}

// runsBar is the progress bar of runs ending: n of them, on stderr
// unless quiet.
func runsBar(e env, n int, description string, quiet bool) *progressbar.ProgressBar {
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription(description),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetVisibility(!quiet),
	)
}

// resultLine is one line of the results file: the question with its
// result.
type resultLine struct {
	Question string `json:"question"`
	api.BatchResultItem
}

func writeResults(e env, path string, qs []api.BatchQuestion, items []api.BatchResultItem) error {
	var w io.Writer = e.stdout
	var fh *os.File
	if path != "-" {
		var err error
		if fh, err = os.Create(path); err != nil {
			return err
		}
		w = fh
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for i, it := range items {
		line := resultLine{BatchResultItem: it}
		if i < len(qs) {
			line.Question = qs[i].Question
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	err := bw.Flush()
	if fh != nil {
		err = errors.Join(err, fh.Close())
	}
	return err
}

// printSummary writes the batch's aggregate as a table.
func printSummary(w io.Writer, b api.BatchResponse) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "batch\t%s\t%s\n", b.ID, b.Status)
	a := b.Aggregate
	if a == nil {
		tw.Flush()
		return
	}
	fmt.Fprintf(tw, "questions\t%d\tdone %d, failed %d, cancelled %d\n", a.Total, a.Done, a.Failed, a.Cancelled)
	reasons := make([]string, 0, len(a.StopReasons))
	for r := range a.StopReasons {
		reasons = append(reasons, string(r))
	}
	slices.SortFunc(reasons, func(x, y string) int {
		if d := a.StopReasons[wire.StopReason(y)] - a.StopReasons[wire.StopReason(x)]; d != 0 {
			return d
		}
		return strings.Compare(x, y)
	})
	for _, r := range reasons {
		n := a.StopReasons[wire.StopReason(r)]
		fmt.Fprintf(tw, "  %s\t%d\t%.1f%%\n", r, n, 100*float64(n)/float64(max(a.Done, 1)))
	}
	fmt.Fprintf(tw, "latency\tp50 %.0f ms\tp95 %.0f ms\n", a.LatencyP50MS, a.LatencyP95MS)
	fmt.Fprintf(tw, "tokens\tin %d\tout %d\n", a.TokensIn, a.TokensOut)
	fmt.Fprintf(tw, "cost\t$%.4f\t\n", a.CostUSD)
	tw.Flush()
}
