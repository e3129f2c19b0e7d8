// Package rollout holds the ReleaseWorkflow's activities: running the
// gate questions on one release and judging them, reading a canary
// window's runs from Temporal's visibility store, and moving a release
// through its states in the release store (package release), where
// every gateway reads which release new runs get. Board reads it all
// back for the gateway's GET /v1/releases.
package rollout

import (
	"context"
	"fmt"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/evalrun"
	"github.com/assay-rag/assay/internal/judge"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// Activities are the ReleaseWorkflow's steps. The SDK registers every
// exported method as an activity, named after it.
type Activities struct {
	Store release.Store
	// Keep is how many previous stables keep their index versions.
	Keep      int
	Client    client.Client
	Namespace string
	TaskQueue string
	// Template is the AnswerInput gate questions start from.
	Template    wire.AnswerInput
	Concurrency int
	Signer      *auth.Signer
	// Prune, when set, removes the index versions of releases no longer
	// kept (the file store's); called after promotion and rollback.
	Prune func(keep []string) ([]string, error)
}

// ReleaseGate asks the gate questions as one batch on in.Release and
// judges the answers against the corpus they are labelled for.
func (a *Activities) ReleaseGate(ctx context.Context, in workflows.GateInput) (workflows.GateSummary, error) {
	qs, err := eval.ReadQuestions(strings.NewReader(strings.Join(in.Questions, "\n")), "the gate questions")
	if err != nil {
		return workflows.GateSummary{}, temporal.NewNonRetryableApplicationError(err.Error(), errs.Invalid.TemporalType(), err)
	}
	docs, err := corpus.Load(in.Corpus)
	if err != nil {
		return workflows.GateSummary{}, temporal.NewNonRetryableApplicationError("gate corpus: "+err.Error(), errs.Invalid.TemporalType(), err)
	}
	lib, err := judge.NewLibrary(ctx, docs, nil)
	if err != nil {
		return workflows.GateSummary{}, err
	}
	tmpl, err := a.template(ctx, in.Release)
	if err != nil {
		return workflows.GateSummary{}, err
	}
	r := &evalrun.Runner{
		Client: a.Client, TaskQueue: a.TaskQueue, Questions: qs, Signer: a.Signer, Concurrency: a.Concurrency,
		Progress: func(string, int) { activity.RecordHeartbeat(ctx) },
	}
	outs, err := r.Batch(ctx, "gate-"+in.Release, tmpl)
	if err != nil {
		return workflows.GateSummary{}, err
	}
	j := judge.Judge{Library: lib, TopK: tmpl.TopK}
	evs := make([]judge.QuestionEval, len(qs))
	for i, q := range qs {
		ev := judge.Failed(outs[i].Err)
		if outs[i].Result != nil {
			ev = j.Evaluate(q, *outs[i].Result)
		}
		evs[i] = judge.QuestionEval{ID: q.ID, Question: q.Question, Relevant: q.Relevant, Forbidden: q.Forbidden, Groups: q.Groups, Loop: ev}
	}
	s := judge.Summarize(evs, func(q judge.QuestionEval) judge.RunEval { return q.Loop })
	return workflows.GateSummary{
		Release: in.Release, Questions: s.Questions,
		RightSourceCited: s.RightSourceCited.Rate, Refusal: s.NoAnswerRefusal.Rate, CitationValidity: s.CitationValidity.Rate,
		Leaks: s.ForbiddenLeaks, RunsFailed: s.RunsFailed, P95MS: s.LatencyP95MS,
	}, nil
}

// template is the AnswerInput gate questions on release name start from:
// the loop defaults the release records (Template when it records none),
// as the gateway starts its runs, so the gate judges the release as it
// will answer.
func (a *Activities) template(ctx context.Context, name string) (wire.AnswerInput, error) {
	m, err := a.Store.Get(ctx, name)
	if err != nil {
		return wire.AnswerInput{}, typed(err)
	}
	tmpl := a.Template
	if t, ok := m.Loop.Template(); ok {
		t.Filters = tmpl.Filters
		tmpl = t
	}
	tmpl.Release = name
	return tmpl, nil
}

// ReleaseState moves the candidate in the store: gating or canary at a
// share, promoted, or rolled back / rejected with a reason.
func (a *Activities) ReleaseState(ctx context.Context, in workflows.ReleaseStateInput) error {
	return typed(a.releaseState(ctx, in))
}

// typed gives err the Temporal type of its kind, so the workflow's retry
// policy stops at once on what no retry cures (a conflict: another
// release is in its canary; a release that does not exist).
func typed(err error) error {
	if err == nil {
		return nil
	}
	kind := errs.KindOf(err)
	if kind == errs.Other {
		kind = errs.Internal
	}
	return temporal.NewApplicationErrorWithOptions(err.Error(), kind.TemporalType(), temporal.ApplicationErrorOptions{NonRetryable: !kind.Retryable(), Cause: err})
}

func (a *Activities) releaseState(ctx context.Context, in workflows.ReleaseStateInput) error {
	var err error
	switch release.State(in.State) {
	case release.Gating, release.Canary:
		err = release.StartCanary(ctx, a.Store, in.Release, in.Share, release.State(in.State))
	case release.Promoted:
		var act release.Active
		if act, err = release.Promote(ctx, a.Store, in.Release, in.Reason, a.Keep); err == nil {
			a.prune(ctx, act)
		}
	case release.RolledBack, release.Rejected:
		err = a.rollback(ctx, in)
	default:
		return temporal.NewNonRetryableApplicationError("unknown release state "+in.State, errs.Invalid.TemporalType(), nil)
	}
	if err != nil {
		return err
	}
	if in.Workflow != "" {
		st, err := a.Store.Status(ctx, in.Release)
		if err == nil && st.Workflow != in.Workflow {
			st.Workflow = in.Workflow
			err = a.Store.SetStatus(ctx, st)
		}
		return err
	}
	return nil
}

// rollback takes the candidate out of traffic, if it still is the
// candidate (a retried activity finds it out already).
func (a *Activities) rollback(ctx context.Context, in workflows.ReleaseStateInput) error {
	act, err := a.Store.Active(ctx)
	if err != nil {
		return err
	}
	if act.Candidate != in.Release {
		st, err := a.Store.Status(ctx, in.Release)
		if err != nil && !errs.Is(errs.NotFound, err) {
			return err
		}
		st.Name, st.State, st.Share, st.Reason, st.UpdatedAt = in.Release, release.State(in.State), 0, in.Reason, time.Now().UTC()
		return a.Store.SetStatus(ctx, st)
	}
	act, _, err = release.Rollback(ctx, a.Store, release.State(in.State), in.Reason)
	if err == nil {
		a.prune(ctx, act)
	}
	return err
}

func (a *Activities) prune(ctx context.Context, act release.Active) {
	if a.Prune == nil {
		return
	}
	kept, err := release.Kept(ctx, a.Store, act, a.Keep)
	if err != nil {
		activity.GetLogger(ctx).Warn("old release indexes not pruned", "error", err)
		return
	}
	if gone, err := a.Prune(kept); err != nil {
		activity.GetLogger(ctx).Warn("old release indexes not pruned", "error", err)
	} else if len(gone) > 0 {
		activity.GetLogger(ctx).Info("release indexes pruned", "releases", gone)
	}
}

// ReleaseWindow counts the closed runs of both releases started since
// in.Since, from Temporal's visibility store (AssayRelease,
// AssayStopReason, start and close times).
func (a *Activities) ReleaseWindow(ctx context.Context, in workflows.WindowInput) (workflows.WindowOutput, error) {
	var out workflows.WindowOutput
	var err error
	if out.Candidate, err = a.window(ctx, in.Candidate, in.Since, in.CostAt); err != nil {
		return out, err
	}
	since := in.Since
	if !in.StableSince.IsZero() {
		since = in.StableSince
	}
	costAt := 0 // stable's costs only for a window decided on
	if out.Candidate.Runs < in.CostAt {
		costAt = -1
	}
	out.Stable, err = a.window(ctx, in.Stable, since, costAt)
	return out, err
}

// window reads rel's closed runs started since since; the cost of up to
// MaxCostRuns of them when it has at least costAt runs (never when
// costAt is negative).
func (a *Activities) window(ctx context.Context, rel string, since time.Time, costAt int) (workflows.WindowStats, error) {
	// The gate's runs (as the evaluator) are not traffic.
	q := fmt.Sprintf("WorkflowType = '%s' AND %s = '%s' AND %s != '%s' AND ExecutionStatus != 'Running' AND StartTime >= '%s'",
		workflows.AnswerWorkflowName, workflows.ReleaseKey.GetName(), rel, workflows.PrincipalKey.GetName(), auth.EvaluatorID,
		since.UTC().Format(time.RFC3339Nano))
	var st workflows.WindowStats
	var lat []float64
	var token []byte
	var runs []*commonpb.WorkflowExecution
	for {
		resp, err := a.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: a.Namespace, Query: q, NextPageToken: token})
		if err != nil {
			return st, fmt.Errorf("list the runs of release %s: %w", rel, err)
		}
		for _, ex := range resp.GetExecutions() {
			st.Runs++
			if len(runs) < workflows.MaxCostRuns {
				runs = append(runs, ex.GetExecution())
			}
			if ex.GetStartTime() != nil && ex.GetCloseTime() != nil {
				lat = append(lat, float64(ex.GetCloseTime().AsTime().Sub(ex.GetStartTime().AsTime()).Microseconds())/1000)
			}
			var stop string
			if p := ex.GetSearchAttributes().GetIndexedFields()[workflows.StopReasonKey.GetName()]; p != nil {
				_ = converter.GetDefaultDataConverter().FromPayload(p, &stop)
			}
			switch wire.StopReason(stop) {
			case wire.SearchError, wire.AssessmentError, wire.GenerationError:
				st.Errors++
			case wire.Refused:
				st.Refused++
			case wire.InsufficientContext:
				st.Insufficient++
			case "":
				st.Errors++ // a run that failed or timed out without a stop
			}
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	if len(lat) > 0 {
		st.P95MS = percentile.NearestRank(lat, 95)
	}
	if costAt < 0 || st.Runs < costAt {
		return st, nil
	}
	for _, ex := range runs {
		var res wire.AnswerResult
		if err := a.Client.GetWorkflow(ctx, ex.GetWorkflowId(), ex.GetRunId()).Get(ctx, &res); err == nil {
			st.CostUSD += res.Trace.Usage.CostUSD
			st.CostRuns++
		}
	}
	return st, nil
}
