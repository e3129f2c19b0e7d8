package evalrun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/judge"
)

// ErrNoCorpus is Load's error when no corpus is configured.
var ErrNoCorpus = errors.New("eval answers: --corpus (index.corpus) is required: the corpus the questions are labelled against")

// Answers is one `assay eval answers`: labelled questions run through
// the loop and through the one-pass baseline as two batches, and every
// run judged. Set the exported fields, then Load, then Run.
type Answers struct {
	// QuestionsPath is the labelled question file; or BEIRDir, a BEIR
	// dataset whose test split is asked as written.
	QuestionsPath, BEIRDir string
	FactsPath              string // key facts; empty: not measured
	// Config gives the corpus (index.corpus; a BEIR dataset's own when
	// empty), the loop's template and the batches' settings.
	Config                   config.Config
	MaxAttempts, Concurrency int // the loop's attempts; questions at once
	Timeout                  time.Duration
	Log                      *slog.Logger
	// Progress, when set, hears which batch runs and how many runs have
	// ended over both batches (of 2×Len).
	Progress func(batch string, done int)

	qs    []eval.Question
	facts eval.KeyFacts
	docs  []corpus.Document
	lib   *judge.Library
}

// Len is the number of questions loaded.
func (a *Answers) Len() int { return len(a.qs) }

// Load reads the questions, the key facts and the corpus, and checks
// that the questions name documents of the corpus.
func (a *Answers) Load(ctx context.Context) error {
	var err error
	if a.BEIRDir != "" {
		d, err := eval.LoadBEIR(a.BEIRDir, eval.SplitTest)
		if err != nil {
			return err
		}
		a.qs, a.QuestionsPath = eval.BEIRQuestions(d), d.QueryPath
		if a.Config.Index.Corpus == "" {
			a.Config.Index.Corpus = d.CorpusPath
			a.Config.Index.RequireACL = false // a BEIR dataset has no ACLs: every document is public
		}
	} else if a.qs, err = eval.LoadQuestions(a.QuestionsPath); err != nil {
		return err
	}
	if a.FactsPath != "" {
		if a.facts, err = eval.LoadKeyFacts(a.FactsPath); err != nil {
			return err
		}
	}
	if a.Config.Index.Corpus == "" {
		return ErrNoCorpus
	}
	if a.docs, err = corpus.Load(a.Config.Index.Corpus); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	if a.lib, err = judge.NewLibrary(ctx, a.docs, nil); err != nil {
		return err
	}
	if err := eval.CheckQuestionDocs(a.qs, a.lib.Has); err != nil {
		return fmt.Errorf("%s does not match the corpus %s:\n%w", a.QuestionsPath, a.Config.Index.Corpus, err)
	}
	a.warnFacts()
	return nil
}

// Run runs the questions through the loop, then through the one-pass
// baseline, on the Temporal c reaches, within the timeout, and judges
// every run. chunks, when not nil, are the chunks the workers indexed:
// with them the report tells extraction failures.
func (a *Answers) Run(ctx context.Context, c client.Client, chunks judge.ChunkSource) (judge.AnswersReport, error) {
	if chunks != nil {
		var err error
		if a.lib, err = judge.NewLibrary(ctx, a.docs, chunks); err != nil {
			return judge.AnswersReport{}, err
		}
	}
	runCtx, cancel := context.WithTimeout(ctx, a.Timeout)
	defer cancel()
	template := a.Config.Loop.Template()
	template.Budget.MaxAttempts = a.MaxAttempts
	signer, err := a.Config.PrincipalSigner() // workers with principal keys run only signed principals
	if err != nil {
		return judge.AnswersReport{}, err
	}
	ev := &Runner{
		Client: c, TaskQueue: a.Config.Temporal.TaskQueue, Questions: a.qs, Signer: signer,
		Concurrency: a.Concurrency, ContinueAfter: a.Config.Batch.ContinueAfter, Progress: a.Progress,
	}
	loop, err := ev.Batch(runCtx, "loop", template)
	if err != nil {
		return judge.AnswersReport{}, err
	}
	template.Budget.MaxAttempts = 1
	onePass, err := ev.Batch(runCtx, "one-pass", template)
	if err != nil {
		return judge.AnswersReport{}, err
	}
	return a.report(loop, onePass), nil
}

// report judges every run and aggregates.
func (a *Answers) report(loop, onePass []Outcome) judge.AnswersReport {
	cfg := a.Config
	j := judge.Judge{Library: a.lib, Facts: a.facts, TopK: cfg.Loop.TopK}
	rep := judge.AnswersReport{
		QuestionsFile: a.QuestionsPath, KeyFactsFile: a.FactsPath, Corpus: cfg.Index.Corpus, Documents: len(a.docs),
		Settings: judge.AnswerSettings{LoopMaxAttempts: a.MaxAttempts, OnePassMaxAttempts: 1, TopK: cfg.Loop.TopK, Threshold: cfg.Loop.Threshold},
	}
	for i, q := range a.qs {
		rep.Questions = append(rep.Questions, judge.QuestionEval{
			ID: q.ID, Question: q.Question, Type: q.Type, Groups: q.Groups, Relevant: q.Relevant, Forbidden: q.Forbidden,
			Loop: judgeRun(j, q, loop[i]), OnePass: judgeRun(j, q, onePass[i]),
		})
	}
	rep.Aggregate()
	return rep
}

// judgeRun judges a finished run, or records why there is none.
func judgeRun(j judge.Judge, q eval.Question, o Outcome) judge.RunEval {
	if o.Result == nil {
		return judge.Failed(o.Err)
	}
	return j.Evaluate(q, *o.Result)
}

// warnFacts logs answerable questions without key facts: their key-facts
// metric is not measured, which should be a choice, not an accident.
func (a *Answers) warnFacts() {
	if a.facts == nil {
		return
	}
	var missing []string
	for _, q := range a.qs {
		if _, ok := a.facts[q.ID]; !ok && len(q.Relevant) > 0 {
			missing = append(missing, q.ID)
		}
	}
	if len(missing) > 0 {
		a.Log.Warn("answerable questions without key facts: their key-facts metric is not measured", "file", a.FactsPath, "questions", strings.Join(missing, ","))
	}
}
