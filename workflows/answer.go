// Package workflows holds assay's durable control flow: AnswerWorkflow, the
// bounded search → assess → (generate | rewrite) loop that ends every run
// with a typed stop reason and a trace.
//
// Workflow code here is deterministic: time comes from workflow.Now, there
// are no goroutines, map ranges or I/O, and everything that touches the
// world is an activity. `make lint` runs workflowcheck over this package.
package workflows

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
)

// Query names.
const (
	QueryProgress = "progress"
	QueryTrace    = "trace"
)

// a is only used to name activity methods; the worker registers the real
// *activities.Activities.
var a *activities.Activities

func retryPolicy(maxAttempts int32) *temporal.RetryPolicy {
	return &temporal.RetryPolicy{
		InitialInterval:        500 * time.Millisecond,
		BackoffCoefficient:     2,
		MaximumInterval:        10 * time.Second,
		MaximumAttempts:        maxAttempts,
		NonRetryableErrorTypes: errs.NonRetryableTemporalTypes(),
	}
}

// Activity options, one set per activity, declared once.
var (
	searchOptions = workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         retryPolicy(3),
	}
	assessOptions = workflow.ActivityOptions{
		StartToCloseTimeout: 90 * time.Second,
		HeartbeatTimeout:    30 * time.Second,
		RetryPolicy:         retryPolicy(3),
	}
	generateOptions = workflow.ActivityOptions{
		StartToCloseTimeout: 3 * time.Minute,
		HeartbeatTimeout:    30 * time.Second,
		RetryPolicy:         retryPolicy(3),
	}
)

// AnswerWorkflow answers one question within its budget.
func AnswerWorkflow(ctx workflow.Context, in AnswerInput) (AnswerResult, error) {
	r := &run{in: in, start: workflow.Now(ctx)}
	r.trace = Trace{
		RequestID:   in.RequestID,
		PrincipalID: in.Principal.ID,
		Question:    in.Question,
		StartedAt:   r.start,
	}
	if err := workflow.SetQueryHandler(ctx, QueryProgress, func() (Progress, error) { return r.progress, nil }); err != nil {
		return AnswerResult{}, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryTrace, func() (Trace, error) { return r.trace, nil }); err != nil {
		return AnswerResult{}, err
	}
	return r.loop(ctx), nil
}

// run is the state of one AnswerWorkflow execution.
type run struct {
	in       AnswerInput
	start    time.Time
	trace    Trace
	progress Progress
	answer   activities.GenerateOutput
	seenQ    []string // normalized queries tried
	seenSets []string // result sets seen, as joined chunk ids
}

func (r *run) loop(ctx workflow.Context) AnswerResult {
	if err := validate(r.in); err != nil {
		return r.finish(ctx, InvalidRequest, err.Error())
	}
	query := r.in.Question
	for n := 1; ; n++ {
		if n > r.in.Budget.MaxAttempts {
			return r.finish(ctx, BudgetExhausted, fmt.Sprintf("attempt budget of %d spent", r.in.Budget.MaxAttempts))
		}
		if r.remaining(ctx) <= 0 {
			return r.finish(ctx, BudgetExhausted, "deadline passed")
		}
		norm := normalizeQuery(query)
		if slices.Contains(r.seenQ, norm) {
			return r.finish(ctx, RepeatedQuery, fmt.Sprintf("query %q was tried before", query))
		}
		r.seenQ = append(r.seenQ, norm)

		att := Attempt{N: n, Query: query}
		r.setProgress(ctx, "search", n)
		var sout activities.SearchOutput
		t0 := workflow.Now(ctx)
		err := workflow.ExecuteActivity(r.opts(ctx, searchOptions), a.Search, activities.SearchInput{
			Query: query, Groups: r.in.Principal.Groups, Filters: r.in.Filters, K: r.in.TopK,
		}).Get(ctx, &sout)
		att.SearchMS = msSince(ctx, t0)
		if err != nil {
			r.trace.Attempts = append(r.trace.Attempts, att)
			return r.failed(ctx, err, SearchError, "search")
		}
		att.Hits, att.Stages, att.Warnings = sout.Hits, sout.Stages, sout.Warnings
		set := resultSet(sout.Hits)
		if len(sout.Hits) > 0 && slices.Contains(r.seenSets, set) {
			r.trace.Attempts = append(r.trace.Attempts, att)
			return r.finish(ctx, RepeatedQuery, "the rewrite retrieved the same results as an earlier attempt")
		}
		r.seenSets = append(r.seenSets, set)

		r.setProgress(ctx, "assess", n)
		var aout activities.AssessOutput
		t0 = workflow.Now(ctx)
		err = workflow.ExecuteActivity(r.opts(ctx, assessOptions), a.Assess, activities.AssessInput{
			Question: r.in.Question, Query: query, Previous: r.seenQ[:len(r.seenQ)-1],
			ChunkIDs: chunkIDs(sout.Hits), Scores: scores(sout.Hits), Groups: r.in.Principal.Groups,
		}).Get(ctx, &aout)
		att.AssessMS = msSince(ctx, t0)
		if err != nil {
			r.trace.Attempts = append(r.trace.Attempts, att)
			return r.failed(ctx, err, AssessmentError, "assess")
		}
		r.addUsage(aout.Usage.Model, aout.Usage.TokensIn, aout.Usage.TokensOut, aout.Usage.CostUSD)
		as := aout.Assessment
		att.Assessment = &as
		att.Accepted = as.Sufficient && as.Score >= r.in.Threshold && len(sout.Hits) > 0
		r.trace.Attempts = append(r.trace.Attempts, att)
		r.keepBest()

		if att.Accepted {
			return r.generate(ctx, sout.Hits)
		}
		if strings.TrimSpace(as.Rewrite) == "" {
			return r.finish(ctx, InsufficientContext, as.Reason)
		}
		query = as.Rewrite
	}
}

func (r *run) generate(ctx workflow.Context, hits []retrieval.Hit) AnswerResult {
	r.setProgress(ctx, "generate", len(r.trace.Attempts))
	t0 := workflow.Now(ctx)
	err := workflow.ExecuteActivity(r.opts(ctx, generateOptions), a.Generate, activities.GenerateInput{
		Question: r.in.Question, ChunkIDs: chunkIDs(hits), Groups: r.in.Principal.Groups,
	}).Get(ctx, &r.answer)
	r.trace.GenerateMS = msSince(ctx, t0)
	if err != nil {
		return r.failed(ctx, err, GenerationError, "generate")
	}
	ans := r.answer.Answer
	r.addUsage(ans.Model, ans.TokensIn, ans.TokensOut, ans.CostUSD)
	r.trace.Warnings = append(r.trace.Warnings, ans.Warnings...)
	return r.finish(ctx, Answered, "")
}

// failed ends the run after an activity error: cancellation and deadline
// have their own stops; anything else is the stage's typed error.
func (r *run) failed(ctx workflow.Context, err error, stop StopReason, stage string) AnswerResult {
	var canceled *temporal.CanceledError
	switch {
	case errors.As(err, &canceled) || ctx.Err() != nil:
		return r.finish(ctx, Cancelled, "cancelled during "+stage)
	case r.remaining(ctx) <= 0:
		r.trace.Errors = append(r.trace.Errors, stage+": "+err.Error())
		return r.finish(ctx, BudgetExhausted, "deadline passed during "+stage)
	}
	r.trace.Errors = append(r.trace.Errors, stage+": "+err.Error())
	return r.finish(ctx, stop, err.Error())
}

// finish is the one exit: it builds the result and trace for every stop.
func (r *run) finish(ctx workflow.Context, stop StopReason, detail string) AnswerResult {
	r.trace.StopReason = stop
	r.trace.StopDetail = detail
	r.trace.TotalMS = msSince(ctx, r.start)
	r.progress = Progress{Stage: "done", Attempt: len(r.trace.Attempts), Stop: stop}
	res := AnswerResult{RequestID: r.in.RequestID, StopReason: stop, Trace: r.trace}
	if stop == Answered {
		res.Answer = r.answer.Answer.Text
		res.Citations = r.answer.Answer.Citations
		res.Model = r.answer.Answer.Model
	}
	// Cancellation may already have cancelled ctx; the attribute upsert
	// and the details must still be recorded.
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	workflow.SetCurrentDetails(dctx, fmt.Sprintf("**%s** after %d attempt(s)", stop, len(r.trace.Attempts)))
	if err := workflow.UpsertTypedSearchAttributes(dctx,
		StatusKey.ValueSet("completed"),
		StopReasonKey.ValueSet(string(stop)),
		AttemptsKey.ValueSet(int64(len(r.trace.Attempts))),
	); err != nil {
		workflow.GetLogger(ctx).Warn("search attributes not updated", "error", err)
	}
	return res
}

func (r *run) setProgress(ctx workflow.Context, stage string, n int) {
	r.progress = Progress{Stage: stage, Attempt: n}
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("attempt %d/%d: %s", n, r.in.Budget.MaxAttempts, stage))
}

func (r *run) addUsage(model string, in, out int, cost float64) {
	if model != "" && !slices.Contains(r.trace.Models, model) {
		r.trace.Models = append(r.trace.Models, model)
	}
	r.trace.Usage.TokensIn += in
	r.trace.Usage.TokensOut += out
	r.trace.Usage.CostUSD += cost
}

// keepBest remembers the best-scoring attempt for diagnosis.
func (r *run) keepBest() {
	best, bestScore := 0, -1.0
	for i, at := range r.trace.Attempts {
		if at.Assessment != nil && at.Assessment.Score > bestScore {
			best, bestScore = i+1, at.Assessment.Score
		}
	}
	r.trace.BestAttempt = best
}

// remaining is the time left before the run's deadline.
func (r *run) remaining(ctx workflow.Context) time.Duration {
	return r.in.Budget.Deadline - workflow.Now(ctx).Sub(r.start)
}

// opts bounds an activity's schedule-to-close time by the remaining
// deadline, so no step outlives the run's budget.
func (r *run) opts(ctx workflow.Context, o workflow.ActivityOptions) workflow.Context {
	o.ScheduleToCloseTimeout = r.remaining(ctx)
	if o.StartToCloseTimeout > o.ScheduleToCloseTimeout {
		o.StartToCloseTimeout = o.ScheduleToCloseTimeout
	}
	return workflow.WithActivityOptions(ctx, o)
}

// MaxQuestionBytes bounds a question.
const MaxQuestionBytes = 2000

func validate(in AnswerInput) error {
	switch {
	case strings.TrimSpace(in.Question) == "":
		return errors.New("question: must not be empty")
	case len(in.Question) > MaxQuestionBytes:
		return fmt.Errorf("question: longer than %d bytes", MaxQuestionBytes)
	case in.Principal.ID == "" || len(in.Principal.Groups) == 0:
		return errors.New("principal: needs an id and at least one group")
	case in.Budget.MaxAttempts < 1:
		return errors.New("budget.max_attempts: must be at least 1")
	case in.Budget.Deadline <= 0:
		return errors.New("budget.deadline: must be positive")
	case in.Threshold < 0 || in.Threshold > 1:
		return errors.New("threshold: want 0..1")
	case in.TopK < 1 || in.TopK > 50:
		return errors.New("top_k: want 1..50")
	}
	return nil
}

// normalizeQuery folds case and spacing so trivially different rewrites
// count as the same query.
func normalizeQuery(q string) string {
	return strings.Join(strings.Fields(strings.ToLower(q)), " ")
}

// resultSet identifies the set of chunks a search returned, in any order.
func resultSet(hits []retrieval.Hit) string {
	return strings.Join(slices.Sorted(slices.Values(chunkIDs(hits))), "\x00")
}

func chunkIDs(hits []retrieval.Hit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	return ids
}

func scores(hits []retrieval.Hit) []float64 {
	s := make([]float64, len(hits))
	for i, h := range hits {
		s[i] = h.Score
	}
	return s
}

func msSince(ctx workflow.Context, t time.Time) float64 {
	return float64(workflow.Now(ctx).Sub(t).Microseconds()) / 1000
}
