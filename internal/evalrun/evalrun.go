// Package evalrun runs assay's evaluations. `assay eval answers`
// (Answers) runs a labelled question set through the loop on Temporal, as
// one BatchWorkflow per setting compared (the loop, then the one-pass
// baseline), each question as its own principal, and judges each
// question's result. `assay eval retrieval` (Retrieval) searches a BEIR
// split directly in each retrieval mode; SearchRun writes the TREC run of
// `assay search --queries --run`.
package evalrun

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// Runner runs one question set as batches on Temporal, one batch per
// setting compared.
type Runner struct {
	Client        client.Client
	TaskQueue     string
	Questions     []eval.Question
	Concurrency   int // questions of a batch running at once
	ContinueAfter int // batch.continue_after
	// Progress, when set, hears which batch runs and how many runs of
	// this runner have ended, over all its batches, as they end.
	Progress func(batch string, done int)
	// Signer signs each batch's principals (auth.principal_keys), for
	// workers that run only signed ones; nil signs nothing.
	Signer *auth.Signer

	done int // runs ended in earlier batches
}

// Outcome is one question's run: its result, or why there is none.
type Outcome struct {
	Result *wire.AnswerResult
	Err    string
}

func (r *Runner) progress(batch string, done int) {
	if r.Progress != nil {
		r.Progress(batch, done)
	}
}

// Batch runs every question once with template as a BatchWorkflow, each
// question as its own principal (auth.EvaluatorID, which no API key may
// take, with the question's groups), and returns the results in question
// order. Interrupted, it cancels the batch.
func (r *Runner) Batch(ctx context.Context, name string, template wire.AnswerInput) ([]Outcome, error) {
	id := fmt.Sprintf("eval-%s-%s", name, uuid.NewString())
	in := workflows.BatchInput{
		BatchID:     id,
		Principal:   auth.Principal{ID: auth.EvaluatorID, Groups: []string{corpus.PublicGroup}},
		Template:    template,
		Concurrency: r.Concurrency, ContinueAfter: r.ContinueAfter,
	}
	for _, q := range r.Questions {
		in.Questions = append(in.Questions, workflows.BatchQuestion{
			ID: q.ID, Question: q.Question,
			Principal: &auth.Principal{ID: auth.EvaluatorID, Groups: q.Groups},
		})
	}
	workflows.SignBatch(r.Signer, &in)
	r.progress(name, r.done)
	run, err := r.Client.ExecuteWorkflow(ctx, workflows.BatchStartOptions(id, r.TaskQueue, in), workflows.BatchWorkflowName, in)
	if err != nil {
		return nil, fmt.Errorf("eval answers: start the %s batch: %w", name, err)
	}
	res, err := r.follow(ctx, name, run)
	if err != nil {
		if ctx.Err() != nil {
			cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer ccancel()
			_ = r.Client.CancelWorkflow(cctx, id, "")
		}
		return nil, fmt.Errorf("eval answers: %s batch %s: %w", name, id, err)
	}
	r.done += len(r.Questions)
	out := make([]Outcome, len(res.Items))
	for i, it := range res.Items {
		switch it.Status {
		case wire.ItemDone:
			var ar wire.AnswerResult
			if err := r.Client.GetWorkflow(ctx, it.QuestionID, "").Get(ctx, &ar); err != nil {
				out[i].Err = fmt.Sprintf("reading the result of %s: %v", it.QuestionID, err)
				continue
			}
			out[i].Result = &ar
		case wire.ItemFailed:
			out[i].Err = it.Error
		default:
			out[i].Err = fmt.Sprintf("question %s", it.Status)
		}
	}
	return out, nil
}

// follow waits for the batch, reporting progress from its status query.
func (r *Runner) follow(ctx context.Context, name string, run client.WorkflowRun) (workflows.BatchResult, error) {
	var res workflows.BatchResult
	done := make(chan error, 1)
	go func() { done <- run.Get(ctx, &res) }()
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case err := <-done:
			if err == nil {
				r.progress(name, r.done+len(r.Questions))
			}
			return res, err
		case <-t.C:
			qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			v, err := r.Client.QueryWorkflow(qctx, run.GetID(), "", workflows.QueryBatchStatus)
			cancel()
			var st workflows.BatchStatus
			if err == nil && v.Get(&st) == nil {
				a := st.Aggregate
				r.progress(name, r.done+a.Done+a.Failed+a.Cancelled)
			}
		}
	}
}
