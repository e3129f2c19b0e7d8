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

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// The workflow type names: the worker registers the workflows under them,
// and clients start them and recognise their runs by them.
const (
	AnswerWorkflowName = "AnswerWorkflow"
	BatchWorkflowName  = "BatchWorkflow"
)

// Query names.
const (
	QueryProgress = "progress"
	QueryTrace    = "trace"
)

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
func AnswerWorkflow(ctx workflow.Context, in wire.AnswerInput) (wire.AnswerResult, error) {
	r := &run{in: in, start: workflow.Now(ctx)}
	r.trace = wire.Trace{
		RequestID:   in.RequestID,
		PrincipalID: in.Principal.ID,
		Question:    in.Question,
		Release:     in.Release,
		StartedAt:   r.start,
	}
	if err := workflow.SetQueryHandler(ctx, QueryProgress, func() (wire.Progress, error) { return r.progress, nil }); err != nil {
		return wire.AnswerResult{}, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryTrace, func() (wire.Trace, error) { return r.trace, nil }); err != nil {
		return wire.AnswerResult{}, err
	}
	return r.loop(ctx), nil
}

// run is the state of one AnswerWorkflow execution.
type run struct {
	in       wire.AnswerInput
	start    time.Time
	policy   wire.WorkerPolicy
	trace    wire.Trace
	progress wire.Progress
	answer   wire.GenerateOutput
	route    router.Class // the route of the last model call, for AssayRoute
	seenQ    []string     // normalized queries tried
	seenSets []string     // result sets seen, as sorted joined chunk ids
	// accepted are the chunks the accepting assessment rests on
	// (AssessOutput.Accepted), for the generator.
	accepted []string
	// timeline holds the lines of the run's current details, and
	// detailsHead the line above them (timeline.go).
	timeline    []string
	detailsHead string
}

// stop is a decision to end the run.
type stop struct {
	reason wire.StopReason
	detail string
}

func (r *run) loop(ctx workflow.Context) wire.AnswerResult {
	if err := r.in.Validate(); err != nil {
		return r.finish(ctx, stop{wire.InvalidRequest, err.Error()})
	}
	// The principal's groups decide what the run may read: before any
	// search, they must be the ones a gateway signed for this run.
	if reason, ok, err := verifyPrincipal(ctx, r.in.Revision, r.in.Principal, r.in.Signature, auth.ConversationDigest(r.in.Question, r.in.History)); err != nil {
		return r.finish(ctx, r.failed(ctx, err, wire.Unauthorized, "verify principal"))
	} else if !ok {
		return r.finish(ctx, stop{wire.Unauthorized, reason})
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 5 * time.Second,
		RetryPolicy:         retryPolicy(3),
	})
	var verdict wire.GuardOutput
	if err := workflow.ExecuteLocalActivity(withLocalSummary(lctx, "guard"), wire.GuardActivity, wire.GuardInput{Question: r.in.Question}).Get(ctx, &verdict); err != nil {
		return r.finish(ctx, r.failed(ctx, err, wire.InvalidRequest, "guard"))
	}
	r.flag(verdict.Flags)
	if verdict.Refused {
		return r.finish(ctx, stop{wire.Refused, verdict.Reason + ": " + verdict.Detail})
	}
	if err := workflow.ExecuteLocalActivity(withLocalSummary(lctx, "routing policy"), wire.RoutingPolicyActivity).Get(ctx, &r.policy); err != nil {
		return r.finish(ctx, r.failed(ctx, err, wire.AssessmentError, "routing policy"))
	}
	if s, ok := r.condense(ctx, lctx); ok {
		return r.finish(ctx, s)
	}
	next := wire.Proposal{Query: r.in.Question}
	var pending []wire.Proposal // untried proposals, newest assessment's first
	for n := 1; ; n++ {
		// Every search counts, also one whose results repeat: the budget
		// bounds the work, and a repeat is skipped, not fatal.
		if n > r.in.Budget.MaxAttempts {
			return r.finish(ctx, stop{wire.BudgetExhausted, fmt.Sprintf("attempt budget of %d spent", r.in.Budget.MaxAttempts)})
		}
		if s, ok := r.spent(ctx); ok {
			return r.finish(ctx, s)
		}
		r.seenQ = append(r.seenQ, wire.QueryKey(next.Query, next.K))

		att, hits, s, ok := r.attempt(ctx, n, next)
		r.trace.Attempts = append(r.trace.Attempts, att)
		r.keepBest()
		if ok {
			return r.finish(ctx, s)
		}
		if att.Accepted {
			return r.finish(ctx, r.generate(ctx, hits))
		}
		if !att.RepeatedResults {
			// An assessment with no proposal is the assessor's verdict
			// that no query is worth trying, and it ends the run even when
			// earlier assessments' proposals are pending: the builtin
			// proposes none only when nothing visible could suffice (an
			// entity no visible chunk mentions, none holding the entities
			// and the key word together, or a best chunk that already has
			// every word the asker's corpus has), which no query changes.
			// Leftovers are for when the newest proposals were all spent.
			if len(att.Proposals) == 0 {
				return r.finish(ctx, stop{wire.InsufficientContext, att.Assessment.Reason})
			}
			// The newest proposals first, then those of earlier
			// assessments not yet tried.
			pending = append(slices.Clip(att.Proposals), pending...)
		}
		// A proposal whose query was tried before is skipped, as one whose
		// results repeat was above; the run stops only when all are spent.
		var skipped []string
		for len(pending) > 0 && slices.Contains(r.seenQ, wire.QueryKey(pending[0].Query, pending[0].K)) {
			skipped = append(skipped, pending[0].Query)
			pending = pending[1:]
		}
		if len(pending) == 0 {
			detail := "every proposed rewrite was tried before"
			switch {
			case att.RepeatedResults:
				detail = "the rewrite retrieved the same results as an earlier attempt, and no other rewrite is left"
			case len(skipped) == 1:
				detail = fmt.Sprintf("query %q was tried before", skipped[0])
			}
			return r.finish(ctx, stop{wire.RepeatedQuery, detail})
		}
		r.setProgress(ctx, "rewrite", n)
		next, pending = pending[0], pending[1:]
	}
}

// spent reports a stop due before the next model call: cancellation, or a
// spent deadline, token or cost budget (tokens and cost are counted once,
// from activity results).
func (r *run) spent(ctx workflow.Context) (stop, bool) {
	b := r.in.Budget
	u := r.trace.Usage
	switch {
	case ctx.Err() != nil:
		return stop{wire.Cancelled, "cancelled"}, true
	case r.remaining(ctx) <= 0:
		return stop{wire.BudgetExhausted, "deadline passed"}, true
	case b.MaxTokens > 0 && u.Tokens() >= b.MaxTokens:
		return stop{wire.BudgetExhausted, fmt.Sprintf("token budget of %d spent (%d used)", b.MaxTokens, u.Tokens())}, true
	case b.MaxCostUSD > 0 && u.CostUSD >= b.MaxCostUSD:
		return stop{wire.BudgetExhausted, fmt.Sprintf("cost budget of $%.4f spent ($%.4f used)", b.MaxCostUSD, u.CostUSD)}, true
	}
	return stop{}, false
}

// attempt runs search and assessment for attempt n with proposal p (the
// question itself on the first). It returns the record, the hits, and a
// stop when the attempt ended the run. An attempt whose results repeat an
// earlier one's is not assessed; its record says so.
func (r *run) attempt(ctx workflow.Context, n int, p wire.Proposal) (wire.Attempt, []wire.Hit, stop, bool) {
	att := wire.Attempt{N: n, Query: p.Query, Strategy: p.Strategy}
	k := r.in.TopK
	if p.K > 0 && p.K != k {
		k, att.K = p.K, p.K
	}
	r.setProgress(ctx, "search", n)
	var sout wire.SearchOutput
	t0 := workflow.Now(ctx)
	summary := searchSummary(p.Query, k)
	o := withSummary(searchOptions, summary)
	if r.policy.Local.Search {
		o.StartToCloseTimeout = localSearchTimeout
	}
	err := r.exec(ctx, r.policy.Local.Search, o, wire.SearchActivity, wire.SearchInput{
		Query: p.Query, Groups: r.in.Principal.Groups, Filters: r.in.Filters, K: k, Release: r.in.Release,
	}).Get(ctx, &sout)
	att.SearchMS = msSince(ctx, t0)
	if err != nil {
		return att, nil, r.failed(ctx, err, wire.SearchError, "search"), true
	}
	att.Hits, att.Stages, att.Warnings = sout.Hits, sout.Stages, sout.Warnings
	r.trace.Warnings = appendNew(r.trace.Warnings, sout.Warnings...)
	set := resultSet(sout.Hits)
	if len(sout.Hits) > 0 && slices.Contains(r.seenSets, set) && !p.Rejudge {
		att.RepeatedResults = true
		r.note(ctx, searchLine(summary, len(sout.Hits), true))
		return att, nil, stop{}, false
	}
	r.note(ctx, searchLine(summary, len(sout.Hits), false))
	r.seenSets = append(r.seenSets, set)

	r.setProgress(ctx, "assess", n)
	t0 = workflow.Now(ctx)
	prev, prevK := r.previous()
	aout, err := r.assess(ctx, n, wire.AssessInput{
		Question: r.in.Question, Query: p.Query, Previous: prev, PreviousK: prevK, PreviousChunks: r.previousChunks(), K: k, Strategies: r.strategies(p.Strategy),
		ChunkIDs: chunkIDs(sout.Hits), Scores: scores(sout.Hits), Groups: r.in.Principal.Groups, Filters: r.in.Filters,
		Release: r.in.Release,
	})
	att.AssessMS = msSince(ctx, t0)
	if err != nil {
		return att, nil, r.failed(ctx, err, wire.AssessmentError, "assess"), true
	}
	r.flag(aout.Flags)
	att.Usage = aout.Usage.Usage
	r.addUsage(aout.Usage)
	as := aout.Assessment
	att.Assessment = &as
	att.Accepted = as.Sufficient && as.Score >= r.in.Threshold && len(sout.Hits) > 0
	if att.Accepted {
		r.accepted = aout.Accepted
	} else {
		att.Proposals = aout.Proposals
		if len(att.Proposals) == 0 && strings.TrimSpace(as.Rewrite) != "" {
			// An assessor that lists no proposals (and histories recorded
			// before proposals existed) offers its rewrite alone.
			att.Proposals = []wire.Proposal{{Query: as.Rewrite}}
		}
		// Record who proposed (or declined to propose) the next query.
		d := router.Route(r.policy.Policy, router.Request{Task: router.Rewrite, AssessModel: aout.Usage.Model})
		if d.IsBuiltin() && len(aout.Proposals) > 0 && router.IsBuiltinModel(aout.Proposals[0].Model) {
			// The builtin rewriter names itself (its version), as the
			// assessor's usage and the generator's answer do.
			d.Model = aout.Proposals[0].Model
		}
		r.trace.Routes = append(r.trace.Routes, wire.RouteRecord{Attempt: n, Decision: d, Outcome: "ok"})
	}
	r.note(ctx, assessLine(att))
	return att, sout.Hits, stop{}, false
}

// previous lists the queries of the attempts so far, as searched (an LLM
// assessor reads them; seenQ's keys are for repeat checks only), and the
// k of each when not the default. PreviousK is nil when every k was.
func (r *run) previous() ([]string, []int) {
	var qs []string
	var ks []int
	wider := false
	for _, at := range r.trace.Attempts {
		qs = append(qs, at.Query)
		ks = append(ks, at.K)
		wider = wider || at.K > 0
	}
	if !wider {
		ks = nil
	}
	return qs, ks
}

// previousChunks lists, for each attempt so far, the chunk ids its search
// returned (nil before the second attempt).
func (r *run) previousChunks() [][]string {
	var out [][]string
	for _, at := range r.trace.Attempts {
		out = append(out, chunkIDs(at.Hits))
	}
	return out
}

// strategies lists the rewrite strategies the run has used, in order,
// ending with current's.
func (r *run) strategies(current string) []string {
	var out []string
	for _, at := range r.trace.Attempts {
		if at.Strategy != "" {
			out = append(out, at.Strategy)
		}
	}
	if current != "" {
		out = append(out, current)
	}
	return out
}

// assess routes and runs one assessment, escalating along the route's
// fallbacks on typed failures only, and records every try.
func (r *run) assess(ctx workflow.Context, n int, in wire.AssessInput) (wire.AssessOutput, error) {
	var out wire.AssessOutput
	err := r.routed(ctx, n, router.Assess, func(d router.Decision) error {
		in.Route = d
		return r.exec(ctx, r.local(d), withSummary(assessOptions, assessSummary(n, d.Model)), wire.AssessActivity, in).Get(ctx, &out)
	})
	return out, err
}

// routed calls call with the route decision for task, and on a typed
// failure (schema, oversized, unsupported; unavailable when the policy
// falls back to the builtin model) once more with the fallback, until the
// builtin route has been tried. Every try is in the trace.
func (r *run) routed(ctx workflow.Context, n int, task router.Task, call func(router.Decision) error) error {
	req := router.Request{Task: task}
	for {
		d := router.Route(r.policy.Policy, req)
		err := call(d)
		rec := wire.RouteRecord{Attempt: n, Decision: d, Outcome: "ok"}
		if err != nil {
			rec.Outcome = errorType(err)
		}
		r.trace.Routes = append(r.trace.Routes, rec)
		r.route = d.Route
		if err == nil {
			return nil
		}
		r.countFailed(err)
		failure := typedFailure(err)
		if !r.policy.Escalates(failure) || d.IsBuiltin() || ctx.Err() != nil {
			return err
		}
		if _, over := r.spent(ctx); over {
			return err // no fallback call once a budget is spent
		}
		r.trace.Errors = append(r.trace.Errors, fmt.Sprintf("%s on %s: %s", task, d.Model, publicError(err)))
		req.Failure, req.Previous = failure, d.Model
	}
}

func (r *run) generate(ctx workflow.Context, hits []wire.Hit) stop {
	if s, ok := r.spent(ctx); ok {
		return s
	}
	r.setProgress(ctx, "generate", len(r.trace.Attempts))
	t0 := workflow.Now(ctx)
	err := r.routed(ctx, 0, router.Generate, func(d router.Decision) error {
		return r.exec(ctx, r.local(d), withSummary(generateOptions, generateSummary(len(hits), d.Model)), wire.GenerateActivity, wire.GenerateInput{
			Question: r.in.Question, ChunkIDs: chunkIDs(hits), Groups: r.in.Principal.Groups, Route: d, Release: r.in.Release,
			Accepted: r.accepted,
		}).Get(ctx, &r.answer)
	})
	r.trace.GenerateMS = msSince(ctx, t0)
	if err != nil {
		if errorType(err) == errs.Refused.TemporalType() && ctx.Err() == nil && declinesAsInsufficient(ctx, r.in.Revision) {
			// The generator read the accepted evidence and said it does
			// not answer the question (a model's NOT_FOUND): a decision
			// about the evidence, not a failure of the stage.
			return stop{wire.InsufficientContext, "generate declined: " + publicError(err)}
		}
		return r.failed(ctx, err, wire.GenerationError, "generate")
	}
	ans := r.answer.Answer
	r.note(ctx, generateLine(ans))
	g := &wire.Generation{Model: ans.Model, PromptVersion: ans.PromptVersion, FinishReason: ans.FinishReason,
		Dropped: ans.Dropped, Stripped: ans.Stripped, Grounding: ans.Grounding, Cited: ans.Citations}
	for i, h := range hits {
		g.Sources = append(g.Sources, wire.LabelledChunk{Label: wire.Label(i), ChunkID: h.ChunkID})
	}
	r.trace.Generation = g
	r.addUsage(ans.Spent())
	r.trace.Warnings = appendNew(r.trace.Warnings, ans.Warnings...)
	return stop{wire.Answered, ""}
}

// failed turns an activity error into a stop: cancellation and the
// deadline have their own; anything else is the stage's typed error.
func (r *run) failed(ctx workflow.Context, err error, reason wire.StopReason, stage string) stop {
	var canceled *temporal.CanceledError
	if errors.As(err, &canceled) || ctx.Err() != nil {
		return stop{wire.Cancelled, "cancelled during " + stage}
	}
	r.trace.Errors = append(r.trace.Errors, stage+": "+publicError(err))
	workflow.GetLogger(ctx).Warn("stage failed", "stage", stage, "error", err)
	if s, over := r.spent(ctx); over {
		s.detail += " during " + stage
		return s
	}
	return stop{reason, stage + " failed: " + publicError(err)}
}

// publicError says what went wrong in terms fit for the caller: the error
// kind and, for kinds about content (a schema violation, a refusal), the
// reason. Where and how a dependency failed (endpoints, hosts, worker ids)
// stays in the worker's log and the workflow history, for operators.
func publicError(err error) string {
	// sdkDeadlineType is the type the SDK gives context.DeadlineExceeded
	// returned as is by an activity: a local activity that returns its
	// context's error at its deadline can finish before the SDK's own
	// check turns the attempt into a TimeoutError (TestLocalSearchRedisDown
	// met either).
	const sdkDeadlineType = "deadlineExceededError"
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		var timeout *temporal.TimeoutError
		if errors.As(err, &timeout) {
			return "timeout"
		}
		return string(errs.Internal)
	}
	if app.Type() == sdkDeadlineType {
		return "timeout"
	}
	kind := errs.KindFromTemporalType(app.Type())
	switch kind {
	case errs.Schema, errs.Refused, errs.Invalid, errs.TooLarge:
		msg := app.Message()
		if i := strings.LastIndex(msg, ": "); i >= 0 {
			msg = msg[i+2:] // the innermost reason, without the chain of operation names
		}
		return string(kind) + ": " + msg
	}
	return string(kind)
}

// finish is the one exit: it builds the result and trace for every stop.
func (r *run) finish(ctx workflow.Context, s stop) wire.AnswerResult {
	r.trace.StopReason = s.reason
	r.trace.StopDetail = s.detail
	r.trace.TotalMS = msSince(ctx, r.start)
	if s.reason != wire.Answered && r.trace.BestAttempt > 0 {
		if best := r.trace.Attempts[r.trace.BestAttempt-1].Assessment; best != nil && best.Score < r.in.Threshold {
			r.trace.Warnings = appendNew(r.trace.Warnings, fmt.Sprintf("weak evidence: the best attempt scored %.2f, below the threshold %.2f", best.Score, r.in.Threshold))
		}
	}
	r.progress = wire.Progress{Stage: "done", Attempt: len(r.trace.Attempts), Stop: s.reason}
	res := wire.AnswerResult{RequestID: r.in.RequestID, StopReason: s.reason, Trace: r.trace}
	switch s.reason {
	case wire.Answered:
		res.Answer = r.answer.Answer.Text
		res.Citations = r.answer.Answer.Citations
		res.Model = r.answer.Answer.Model
	case wire.InsufficientContext, wire.RepeatedQuery, wire.BudgetExhausted:
		// No evidence was accepted, or the generator declined what was:
		// say so plainly, never guess.
		var queries []string
		for _, at := range r.trace.Attempts {
			queries = append(queries, at.Query)
		}
		nf := NotFound(r.in.Question, queries)
		res.Answer, res.Model = nf.Text, nf.Model
	}
	// Cancellation may already have cancelled ctx; the attribute upsert
	// and the details must still be recorded.
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	r.showDetails(dctx, fmt.Sprintf("**%s** after %d attempt(s)", s.reason, len(r.trace.Attempts)))
	updates := []temporal.SearchAttributeUpdate{
		StatusKey.ValueSet("completed"),
		StopReasonKey.ValueSet(string(s.reason)),
		AttemptsKey.ValueSet(int64(len(r.trace.Attempts))),
	}
	if r.route != "" {
		updates = append(updates, RouteKey.ValueSet(string(r.route)))
	}
	if err := workflow.UpsertTypedSearchAttributes(dctx, updates...); err != nil {
		workflow.GetLogger(ctx).Warn("search attributes not updated", "error", err)
	}
	return res
}

// flag records suspected prompt injections as trace warnings. They change
// nothing else: policy lives in the system prompt, which data cannot edit.
func (r *run) flag(flags []wire.InjectionFlag) {
	for _, f := range flags {
		r.trace.Warnings = appendNew(r.trace.Warnings, f.String())
	}
}

func (r *run) setProgress(ctx workflow.Context, stage string, n int) {
	r.progress = wire.Progress{Stage: stage, Attempt: n}
	r.showDetails(ctx, fmt.Sprintf("attempt %d/%d: %s", n, r.in.Budget.MaxAttempts, stage))
}

// addUsage counts what a model call consumed in the run's usage and
// remembers the model.
func (r *run) addUsage(s wire.Spent) {
	if s.Model != "" && !slices.Contains(r.trace.Models, s.Model) {
		r.trace.Models = append(r.trace.Models, s.Model)
	}
	r.trace.Usage.Add(s.Usage)
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

// localSearchTimeout bounds one attempt of a Search run as a local
// activity (a RediSearch search, worker.local_redis_search): shorter than
// the workflow task timeout (10 s), so a search that waits on a Redis
// that stopped answering fails its attempt and is retried by the worker
// while the workflow task that holds it is still alive. The builtin
// models keep their stage's timeout when they run locally, as they did
// before Search could: their work is this process's CPU, and a long
// answer on a loaded machine must not be cut off and retried. Local
// activity options are not recorded in the history; changing them
// replays.
const localSearchTimeout = 5 * time.Second

// exec runs a stage: as a local activity when local, otherwise as an
// activity, with the timeouts and retry policy of o either way and its
// schedule-to-close time bounded by the remaining deadline, so no step
// outlives the run's budget. A local activity runs in the worker that
// holds the workflow task and its result is recorded as a marker when
// that task completes; a worker lost before then means the task is
// retried and the stage runs again (docs/loop.md, "Local activities").
func (r *run) exec(ctx workflow.Context, local bool, o workflow.ActivityOptions, activity string, in any) workflow.Future {
	o.ScheduleToCloseTimeout = r.remaining(ctx)
	if o.StartToCloseTimeout > o.ScheduleToCloseTimeout {
		o.StartToCloseTimeout = o.ScheduleToCloseTimeout
	}
	if local {
		return workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			ScheduleToCloseTimeout: o.ScheduleToCloseTimeout,
			StartToCloseTimeout:    o.StartToCloseTimeout,
			RetryPolicy:            o.RetryPolicy,
			Summary:                o.Summary,
		}), activity, in)
	}
	return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, o), activity, in)
}

// local reports whether a model call routed by d runs as a local
// activity: the builtin models, when the worker allows it. A model behind
// an endpoint always runs as an activity, heartbeating and retried by the
// server.
func (r *run) local(d router.Decision) bool {
	return r.policy.Local.Builtin && d.IsBuiltin()
}

// countFailed adds what a failed call consumed, carried in its error's
// details, to the run's usage.
func (r *run) countFailed(err error) {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !app.HasDetails() {
		return
	}
	var s wire.Spent
	if app.Details(&s) == nil {
		r.addUsage(s)
	}
}

// errorType is the Temporal application error type of err, or its kind.
func errorType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	var timeout *temporal.TimeoutError
	if errors.As(err, &timeout) {
		return "timeout"
	}
	return "error"
}

// typedFailure maps an activity error to the failure that may justify
// escalating to a fallback model (the policy decides: router.Escalates);
// other errors do not escalate. The endpoint's unavailability is an
// activity that failed, after its retries, unreachable or with 5xx
// (assay.unavailable), rate limited (assay.rate_limited), or out of time
// (assay.timeout from the model client, or an activity timeout).
func typedFailure(err error) router.Failure {
	switch errorType(err) {
	case errs.Schema.TemporalType():
		return router.SchemaInvalid
	case errs.TooLarge.TemporalType():
		return router.Oversized
	case errs.Unsupported.TemporalType():
		return router.Unsupported
	case errs.Unavailable.TemporalType(), errs.RateLimited.TemporalType(), errs.Timeout.TemporalType(), "timeout":
		return router.Unavailable
	}
	return router.NoFailure
}

// appendNew appends the items of add that list does not hold yet.
func appendNew(list []string, add ...string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

// resultSet identifies the set of chunks a search returned, in any order.
func resultSet(hits []wire.Hit) string {
	return strings.Join(slices.Sorted(slices.Values(chunkIDs(hits))), "\x00")
}

func chunkIDs(hits []wire.Hit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	return ids
}

func scores(hits []wire.Hit) []float64 {
	s := make([]float64, len(hits))
	for i, h := range hits {
		s[i] = h.Score
	}
	return s
}

func msSince(ctx workflow.Context, t time.Time) float64 {
	return float64(workflow.Now(ctx).Sub(t).Microseconds()) / 1000
}
