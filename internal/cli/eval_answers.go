package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/evalrun"
	"github.com/assay-rag/assay/internal/judge"
	"github.com/assay-rag/assay/internal/wire"
)

// evalAnswersRun is one `assay eval answers`: its settings, then what
// each step adds.
type evalAnswersRun struct {
	e   env
	cfg config.Config
	log *slog.Logger

	questionsPath, beirDir            string
	factsPath, indexDir               string
	jsonOut, htmlOut, mdOut, baseline string
	maxAttempts, concurrency          int
	tolerance                         float64
	timeout                           time.Duration
	quiet, external                   bool

	base  *judge.AnswersReport
	qs    []eval.Question
	facts eval.KeyFacts
	docs  []corpus.Document
	lib   *judge.Library
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
	if err := r.load(ctx); err != nil {
		return err
	}
	c, chunks, cleanup, err := r.connect(ctx)
	if err != nil {
		return err
	}
	defer cleanup()
	if chunks != nil {
		if r.lib, err = judge.NewLibrary(ctx, r.docs, chunks); err != nil {
			return err
		}
	}
	loop, onePass, err := r.runBoth(ctx, c)
	if err != nil {
		return err
	}
	rep := r.report(loop, onePass)
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
	return &evalAnswersRun{
		e: e, cfg: cfg, log: newLogger(e, slog.LevelWarn),
		questionsPath: *questionsPath, beirDir: *beirDir, factsPath: *factsPath, indexDir: *indexDir,
		jsonOut: *jsonOut, htmlOut: *htmlOut, mdOut: *mdOut, baseline: *baseline,
		maxAttempts: *maxAttempts, concurrency: *concurrency, tolerance: *tolerance,
		timeout: *timeout, quiet: *quiet, external: external,
	}, nil
}

// load reads the baseline, the questions, the key facts and the corpus,
// and checks that the questions name documents of the corpus.
func (r *evalAnswersRun) load(ctx context.Context) error {
	if r.baseline != "" {
		b, err := judge.LoadAnswersReport(r.baseline)
		if err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
		r.base = &b
	}
	var err error
	if r.beirDir != "" {
		d, err := eval.LoadBEIR(r.beirDir, eval.SplitTest)
		if err != nil {
			return err
		}
		r.qs, r.questionsPath = eval.BEIRQuestions(d), d.QueryPath
		if r.cfg.Index.Corpus == "" {
			r.cfg.Index.Corpus = d.CorpusPath
			r.cfg.Index.RequireACL = false // a BEIR dataset has no ACLs: every document is public
		}
	} else if r.qs, err = eval.LoadQuestions(r.questionsPath); err != nil {
		return err
	}
	if r.factsPath != "" {
		if r.facts, err = eval.LoadKeyFacts(r.factsPath); err != nil {
			return err
		}
	}
	if r.cfg.Index.Corpus == "" {
		return usageError("eval answers: --corpus (index.corpus) is required: the corpus the questions are labelled against")
	}
	if r.docs, err = corpus.Load(r.cfg.Index.Corpus); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	if r.lib, err = judge.NewLibrary(ctx, r.docs, nil); err != nil {
		return err
	}
	if err := eval.CheckQuestionDocs(r.qs, r.lib.Has); err != nil {
		return fmt.Errorf("%s does not match the corpus %s:\n%w", r.questionsPath, r.cfg.Index.Corpus, err)
	}
	warnFacts(r.log, r.qs, r.facts, r.factsPath)
	return nil
}

// connect returns a client of the Temporal that runs the batches (the
// configured cluster, or a temporary embedded stack), the chunks its
// workers indexed when they can be read, and what stops it all.
func (r *evalAnswersRun) connect(ctx context.Context) (client.Client, judge.ChunkSource, func(), error) {
	root := NewRoot(r.cfg, r.log)
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
		fmt.Fprintf(r.e.stderr, "embedded stack: temporal %s, %d chunks indexed from %s\n", srv.Address(), ix.Len(), r.cfg.Index.Corpus)
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

// runBoth runs the questions through the loop, then through the one-pass
// baseline, within the timeout.
func (r *evalAnswersRun) runBoth(ctx context.Context, c client.Client) (loop, onePass []evalrun.Outcome, err error) {
	runCtx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	template := r.cfg.Loop.Template()
	template.Budget.MaxAttempts = r.maxAttempts
	bar := newEvalBar(r.e, 2*len(r.qs), r.quiet)
	described := ""
	signer, err := r.cfg.PrincipalSigner() // workers with principal keys run only signed principals
	if err != nil {
		return nil, nil, err
	}
	ev := &evalrun.Runner{
		Client: c, TaskQueue: r.cfg.Temporal.TaskQueue, Questions: r.qs, Signer: signer,
		Concurrency: r.concurrency, ContinueAfter: r.cfg.Batch.ContinueAfter,
		Progress: func(batch string, done int) {
			if batch != described {
				bar.Describe(batch)
				described = batch
			}
			_ = bar.Set(done)
		},
	}
	if loop, err = ev.Batch(runCtx, "loop", template); err != nil {
		return nil, nil, err
	}
	template.Budget.MaxAttempts = 1
	if onePass, err = ev.Batch(runCtx, "one-pass", template); err != nil {
		return nil, nil, err
	}
	_ = bar.Finish()
	fmt.Fprintln(r.e.stderr)
	return loop, onePass, nil
}

// report judges every run and aggregates.
func (r *evalAnswersRun) report(loop, onePass []evalrun.Outcome) judge.AnswersReport {
	j := judge.Judge{Library: r.lib, Facts: r.facts, TopK: r.cfg.Loop.TopK}
	rep := judge.AnswersReport{
		QuestionsFile: r.questionsPath, KeyFactsFile: r.factsPath, Corpus: r.cfg.Index.Corpus, Documents: len(r.docs),
		Settings: judge.AnswerSettings{LoopMaxAttempts: r.maxAttempts, OnePassMaxAttempts: 1, TopK: r.cfg.Loop.TopK, Threshold: r.cfg.Loop.Threshold},
	}
	for i, q := range r.qs {
		rep.Questions = append(rep.Questions, judge.QuestionEval{
			ID: q.ID, Question: q.Question, Type: q.Type, Groups: q.Groups, Relevant: q.Relevant, Forbidden: q.Forbidden,
			Loop: judgeRun(j, q, loop[i]), OnePass: judgeRun(j, q, onePass[i]),
		})
	}
	rep.Aggregate()
	return rep
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
		if err := writeFileWith(out.path, out.write); err != nil {
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

// warnFacts logs answerable questions without key facts: their key-facts
// metric is not measured, which should be a choice, not an accident.
func warnFacts(log *slog.Logger, qs []eval.Question, facts eval.KeyFacts, path string) {
	if facts == nil {
		return
	}
	var missing []string
	for _, q := range qs {
		if _, ok := facts[q.ID]; !ok && len(q.Relevant) > 0 {
			missing = append(missing, q.ID)
		}
	}
	if len(missing) > 0 {
		log.Warn("answerable questions without key facts: their key-facts metric is not measured", "file", path, "questions", strings.Join(missing, ","))
	}
}

func newEvalBar(e env, n int, quiet bool) *progressbar.ProgressBar {
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription("loop"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetVisibility(!quiet),
	)
}

// judgeRun judges a finished run, or records why there is none.
func judgeRun(j judge.Judge, q eval.Question, o evalrun.Outcome) judge.RunEval {
	if o.Result == nil {
		return judge.Failed(o.Err)
	}
	return j.Evaluate(q, *o.Result)
}
