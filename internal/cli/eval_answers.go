package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/evalrun"
	"github.com/assay-rag/assay/internal/judge"
	"github.com/assay-rag/assay/internal/wire"
)

// evalAnswersRun is one `assay eval answers`: the run evalrun does, and
// what the verb adds (where the reports go, the baseline, the stack).
type evalAnswersRun struct {
	e   env
	log *slog.Logger
	ans evalrun.Answers

	indexDir                          string
	jsonOut, htmlOut, mdOut, baseline string
	tolerance                         float64
	quiet, external                   bool
	base                              *judge.AnswersReport
}

// runEvalAnswers runs every labelled question through the loop and the
// one-pass baseline as two BatchWorkflows, judges each run and writes the
// reports. Without --temporal-address it starts a temporary embedded stack
// (dev server, index, worker) on free ports and stops it at the end.
func runEvalAnswers(ctx context.Context, e env, args []string) error {
	r, err := parseEvalAnswers(e, args)
	if err != nil {
		return err
	}
	return r.run(ctx)
}

// run loads the inputs, runs both batches on the configured Temporal or a
// temporary embedded stack, and writes and checks the report.
func (r *evalAnswersRun) run(ctx context.Context) error {
	if r.baseline != "" {
		b, err := judge.LoadAnswersReport(r.baseline)
		if err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
		r.base = &b
	}
	if err := r.ans.Load(ctx); err != nil {
		if errors.Is(err, evalrun.ErrNoCorpus) {
			return usageError(err.Error())
		}
		return err
	}
	c, chunks, cleanup, err := r.connect(ctx)
	if err != nil {
		return err
	}
	defer cleanup()
	bar := runsBar(r.e, 2*r.ans.Len(), "loop", r.quiet)
	described := ""
	r.ans.Progress = func(batch string, done int) {
		if batch != described {
			bar.Describe(batch)
			described = batch
		}
		_ = bar.Set(done)
	}
	rep, err := r.ans.Run(ctx, c, chunks)
	if err != nil {
		return err
	}
	_ = bar.Finish()
	fmt.Fprintln(r.e.stderr)
	if err := r.write(rep); err != nil {
		return err
	}
	return r.checkBaseline(rep)
}

// parseEvalAnswers reads and checks the flags and the configuration.
func parseEvalAnswers(e env, args []string) (*evalAnswersRun, error) {
	f := newFlags("eval answers", e.stderr)
	questionsPath := f.String("questions", "", "labelled question `file` (JSONL: id, question, relevant, answer, type, optional groups and forbidden) (this or --beir is required)")
	beirDir := f.String("beir", "", "instead of --questions: the test split of the BEIR dataset in `dir` (queries asked as written, judged documents relevant; its corpus.jsonl is the corpus unless --corpus or index.corpus says otherwise)")
	factsPath := f.String("key-facts", "", "key facts `file` (JSONL: id, facts); without it the key-facts metric is not measured")
	f.setting("temporal-address", "temporal.address", "use the Temporal cluster at `host:port` and its workers (default: start a temporary embedded stack)")
	f.setting("corpus", "index.corpus", "corpus `file` the questions are labelled against and the worker indexed (the embedded stack indexes it) (required)")
	indexDir := f.String("index", "", "with --temporal-address: the worker's index `dir`, opened read-only to tell extraction failures (optional)")
	f.setting("temporal-bin", "dev.temporal_bin", "Temporal CLI `path` for the embedded stack (default bin/temporal)")
	maxAttempts := f.Int("max-attempts", 0, "the loop's attempts per question (default loop.max_attempts); the one-pass baseline always has 1")
	concurrency := f.Int("concurrency", 0, "questions of a batch running at once (default batch.concurrency)")
	jsonOut := f.String("json", "", "write the report as JSON (schema "+judge.AnswersSchema+") to `file`")
	htmlOut := f.String("html", "", "write the report as one self-contained HTML file with charts to `file`")
	mdOut := f.String("md", "", "write the report as Markdown (a pull-request comment) to `file`")
	baseline := f.String("baseline", "", "compare with this `report` (JSON); fail when a headline metric falls more than --tolerance below it, or anything leaks")
	tolerance := f.Float64("tolerance", judge.DefaultTolerance, "how far (absolute `rate`) a headline metric may fall below the baseline")
	timeout := f.Duration("timeout", 30*time.Minute, "how long both batches may take")
	quiet := f.Bool("quiet", false, "no progress bar")
	if err := f.parse(args, 0); err != nil {
		return nil, err
	}
	switch {
	case *questionsPath == "" && *beirDir == "":
		return nil, usageError("eval answers: --questions or --beir is required")
	case *questionsPath != "" && *beirDir != "":
		return nil, usageError("eval answers: --questions and --beir: give one")
	case *beirDir != "" && *factsPath != "":
		return nil, usageError("eval answers: --key-facts is for --questions: a BEIR dataset has no reference answers")
	}
	if *tolerance < 0 || *tolerance > 1 {
		return nil, usageError(fmt.Sprintf("eval answers: --tolerance %g: want 0..1", *tolerance))
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return nil, err
	}
	if *maxAttempts == 0 {
		*maxAttempts = cfg.Loop.MaxAttempts
	}
	if err := wire.AttemptsRange.Check(*maxAttempts); err != nil {
		return nil, usageError(fmt.Sprintf("eval answers: --max-attempts %d: %v", *maxAttempts, err))
	}
	if *concurrency == 0 {
		*concurrency = cfg.Batch.Concurrency
	}
	if err := wire.ConcurrencyRange.Check(*concurrency); err != nil {
		return nil, usageError(fmt.Sprintf("eval answers: --concurrency %d: %v", *concurrency, err))
	}
	_, external := f.overrides()["temporal.address"]
	if *indexDir != "" && !external {
		return nil, usageError("eval answers: --index is for --temporal-address; the embedded stack uses its own index")
	}
	// Make the report directories now: a typo should fail before the runs.
	for _, out := range []string{*jsonOut, *htmlOut, *mdOut} {
		if out == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return nil, fmt.Errorf("eval answers: report directory: %w", err)
		}
	}
	log := newLogger(e, slog.LevelWarn)
	return &evalAnswersRun{
		e: e, log: log,
		ans: evalrun.Answers{
			QuestionsPath: *questionsPath, BEIRDir: *beirDir, FactsPath: *factsPath, Config: cfg,
			MaxAttempts: *maxAttempts, Concurrency: *concurrency, Timeout: *timeout, Log: log,
		},
		indexDir: *indexDir, jsonOut: *jsonOut, htmlOut: *htmlOut, mdOut: *mdOut, baseline: *baseline,
		tolerance: *tolerance, quiet: *quiet, external: external,
	}, nil
}

// connect returns a client of the Temporal that runs the batches (the
// configured cluster, or a temporary embedded stack), the chunks its
// workers indexed when they can be read, and what stops it all.
func (r *evalAnswersRun) connect(ctx context.Context) (client.Client, judge.ChunkSource, func(), error) {
	root := NewRoot(r.ans.Config, r.log)
	if !r.external {
		srv, err := root.StartTemporaryStack(ctx)
		if err != nil {
			root.Close()
			return nil, nil, nil, err
		}
		ix, err := root.Index(ctx)
		if err != nil {
			root.Close()
			return nil, nil, nil, err
		}
		fmt.Fprintf(r.e.stderr, "embedded stack: temporal %s, %d chunks indexed from %s\n", srv.Address(), ix.Len(), r.ans.Config.Index.Corpus)
		return root.client, ix, root.Close, nil
	}
	c, err := root.Client(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	if r.indexDir == "" {
		return c, nil, root.Close, nil
	}
	ix, err := bleveindex.Open(r.indexDir)
	if err != nil {
		root.Close()
		return nil, nil, nil, fmt.Errorf("--index: %w", err)
	}
	return c, ix, func() { ix.Close(); root.Close() }, nil
}

// write writes the report files asked for and the summary table.
func (r *evalAnswersRun) write(rep judge.AnswersReport) error {
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{{r.jsonOut, rep.WriteJSON}, {r.htmlOut, rep.WriteHTML}, {r.mdOut, rep.WriteMarkdown}} {
		if out.path == "" {
			continue
		}
		if err := evalrun.WriteFile(out.path, out.write); err != nil {
			return err
		}
		fmt.Fprintf(r.e.stderr, "wrote %s\n", out.path)
	}
	return rep.WriteSummary(r.e.stdout)
}

// checkBaseline fails when a headline metric fell more than the
// tolerance below the baseline, or anything leaked.
func (r *evalAnswersRun) checkBaseline(rep judge.AnswersReport) error {
	if r.base == nil {
		return nil
	}
	regs, err := judge.CompareBaseline(*r.base, rep, r.tolerance)
	if err != nil {
		return fmt.Errorf("baseline %s: %w", r.baseline, err)
	}
	if len(regs) == 0 {
		fmt.Fprintf(r.e.stdout, "\nbaseline %s: no headline metric fell more than %.2f; no leaks\n", r.baseline, r.tolerance)
		return nil
	}
	fmt.Fprintf(r.e.stdout, "\nbaseline %s: %d regression(s):\n", r.baseline, len(regs))
	for _, reg := range regs {
		fmt.Fprintf(r.e.stdout, "  %s\n", reg)
	}
	return fmt.Errorf("eval answers: %d headline metric(s) below the baseline %s", len(regs), r.baseline)
}
