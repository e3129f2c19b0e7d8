package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// Temporal runs questions and batches as AnswerWorkflows and
// BatchWorkflows on a Temporal cluster.
type Temporal struct {
	Client    client.Client
	TaskQueue string
	// Converter reads the memos and histories the gateway decodes itself:
	// the client's data converter, which decrypts them when
	// temporal.payload_keys is set; nil is the SDK's default.
	Converter converter.DataConverter
	// Completions, when set, is installed on Client's connection, and a
	// worker of this process shares that client: Result then takes the
	// result of a run this process started and its worker completed from
	// there, without long-polling the history (completions.go).
	Completions *Completions
}

// converter is the data converter of memos and history events.
func (t *Temporal) converter() converter.DataConverter {
	if t.Converter == nil {
		return converter.GetDefaultDataConverter()
	}
	return t.Converter
}

var _ Engine = (*Temporal)(nil)

// Running implements Runs from Temporal's visibility store: the
// principal's running workflows of the kind's type. Visibility trails a
// start and a close: by a moment on a cluster on PostgreSQL, by up to
// about a second on Elasticsearch (its refresh interval) and on the
// embedded dev server (devserver's visibilityArgs; a run shorter than
// that is never listed as running). So runs started within that lag may
// pass a cap together, and a long run that just ended may hold its place
// for that long; inFlightCounts adds the runs this gateway admitted
// since its last count.
func (t *Temporal) Running(ctx context.Context, principal string, kind Kind) (int, error) {
	typ := workflows.AnswerWorkflowName
	if kind == KindBatch {
		typ = workflows.BatchWorkflowName
	}
	q := fmt.Sprintf("WorkflowType = %s AND %s = %s AND ExecutionStatus = 'Running'",
		visibilityString(typ), workflows.PrincipalKey.GetName(), visibilityString(principal))
	resp, err := t.Client.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: q})
	if err != nil {
		return 0, temporalErr("gateway.Running", err)
	}
	return int(resp.GetCount()), nil
}

// visibilityString quotes s as a string of Temporal's visibility query
// language.
func visibilityString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// Describe implements Runs. Workflows of other types are errs.NotFound:
// the API exposes only its own.
func (t *Temporal) Describe(ctx context.Context, id string) (Run, error) {
	const op = "gateway.Describe"
	d, err := t.Client.DescribeWorkflow(ctx, id, "")
	if err != nil {
		return Run{}, temporalErr(op, err)
	}
	run := Run{ID: id}
	switch d.WorkflowType.Name {
	case workflows.AnswerWorkflowName:
		run.Kind = KindQuestion
	case workflows.BatchWorkflowName:
		run.Kind = KindBatch
	default:
		return Run{}, errs.Errorf(op, errs.NotFound, "%s is a %s, not an assay run", id, d.WorkflowType.Name)
	}
	switch d.Status {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
		run.Status = api.Running
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		run.Status = api.Completed
	default:
		run.Status = api.Failed
	}
	run.Principal, _ = d.TypedSearchAttributes.GetKeyword(workflows.PrincipalKey)
	run.Release, _ = d.TypedSearchAttributes.GetKeyword(workflows.ReleaseKey)
	if p := d.Memo.GetFields()["question"]; p != nil {
		_ = t.converter().FromPayload(p, &run.Question)
	}
	if p := d.Memo.GetFields()["digest"]; p != nil {
		_ = t.converter().FromPayload(p, &run.Digest)
	}
	if p := d.Memo.GetFields()["template"]; p != nil {
		_ = t.converter().FromPayload(p, &run.Template)
	}
	return run, nil
}

// Cancel implements Runs.
func (t *Temporal) Cancel(ctx context.Context, id string) error {
	return temporalErr("gateway.Cancel", t.Client.CancelWorkflow(ctx, id, ""))
}

// Start implements Questions. The start asks for eager execution: when a
// worker on the task queue shares t.Client (assay dev) and has a free
// slot, the server hands the run's first workflow task back in its reply
// and that worker runs it at once, without a trip through matching.
// Without such a worker the option does nothing.
//
// A start Temporal refuses with "not yet" (search attributes the frontend
// has not learnt of, the namespace not there yet, the frontend
// unavailable or busy: workflows.SearchAttributesPending) is tried again
// for up to startRetryFor, which covers a new cluster's first seconds;
// starting an id twice starts one run. After that the refusal is
// errs.Unavailable: 503 with Retry-After.
func (t *Temporal) Start(ctx context.Context, id string, in wire.AnswerInput) (string, error) {
	opts := workflows.StartOptions(id, t.TaskQueue, in)
	opts.EnableEagerStart = true
	var runID string
	err := retryNotYet(ctx, func() error {
		run, err := t.Client.ExecuteWorkflow(ctx, opts, workflows.AnswerWorkflow, in)
		if err == nil && run != nil {
			runID = run.GetRunID()
		}
		return temporalErr("gateway.Start", err)
	})
	return runID, err
}

// startRetryFor bounds how long a start refused with "not yet" is retried.
const startRetryFor = 5 * time.Second

// retryNotYet calls start until it succeeds, fails with an error other
// than errs.Unavailable, or startRetryFor or ctx ends.
func retryNotYet(ctx context.Context, start func() error) error {
	deadline := time.Now().Add(startRetryFor)
	wait := 100 * time.Millisecond
	for {
		err := start()
		if errs.KindOf(err) != errs.Unavailable || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// SearchAttributesCheck is the readiness check "search_attributes": the
// frontend accepts every assay search attribute (the worker registers
// them; a frontend learns of them a few seconds later). Once they are
// accepted it does not ask again.
func (t *Temporal) SearchAttributesCheck(namespace string) Check {
	var ok atomic.Bool
	return Check{Name: "search_attributes", Check: func(ctx context.Context) error {
		if ok.Load() {
			return nil
		}
		if err := workflows.SearchAttributesAccepted(ctx, t.Client, namespace); err != nil {
			return temporalErr("gateway.SearchAttributes", err)
		}
		ok.Store(true)
		return nil
	}}
}

// Result implements Questions.
func (t *Temporal) Result(ctx context.Context, id, runID string) (wire.AnswerResult, api.Status, error) {
	var res wire.AnswerResult
	st, err := t.result(ctx, "gateway.Result", id, runID, &res)
	return res, st, err
}

// result waits for run id's result, following continue-as-new. A run that
// failed, was terminated, cancelled or timed out is Failed, not an error.
//
// It long-polls the run's history for its close event and decodes that
// event's result itself. The SDK's WorkflowRun.Get, given no run id, would
// first ask DescribeWorkflowExecution for one: a round trip more per
// question, and the server loading the run's state to answer it
// (docs/log/performance-scale.md, "Round 8"). With runID (the run Start
// began or found) the poll names that run, and the server skips looking
// up the id's current run (a store read a question, "Round 9"); with ""
// it reads the current run's history, which is the run the id names until
// it continues as new. A continued run's close event names the next run.
// A run this process started and its own worker completed is read from
// t.Completions instead, without a call to the server.
func (t *Temporal) result(ctx context.Context, op, id, runID string, out any) (api.Status, error) {
	if p, ok := t.Completions.wait(ctx, runID); ok {
		if err := t.converter().FromPayloads(p, out); err != nil {
			return "", errs.E(op, errs.Internal, fmt.Errorf("decode the result of %s: %w", id, err))
		}
		return api.Completed, nil
	}
	for {
		closed, err := t.closeEvent(ctx, id, runID)
		if err != nil {
			return "", temporalErr(op, err)
		}
		switch closed.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
			if err := t.converter().FromPayloads(closed.GetWorkflowExecutionCompletedEventAttributes().GetResult(), out); err != nil {
				return "", errs.E(op, errs.Internal, fmt.Errorf("decode the result of %s: %w", id, err))
			}
			return api.Completed, nil
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
			runID = closed.GetWorkflowExecutionContinuedAsNewEventAttributes().GetNewExecutionRunId()
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
			// A reset terminates the run and goes on in a new one, which
			// the id then names: read the id's current run, as a wait
			// without a run id does. When that is this run, it ends here.
			if runID == "" {
				return api.Failed, nil
			}
			runID = ""
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
			return api.Failed, nil
		default:
			return "", errs.Errorf(op, errs.Internal, "the history of %s ended without a close event (last: %s)", id, closed.GetEventType())
		}
	}
}

// closeEvent waits for the close event of run runID of workflow id (the
// current run when runID is empty).
func (t *Temporal) closeEvent(ctx context.Context, id, runID string) (*historypb.HistoryEvent, error) {
	it := t.Client.GetWorkflowHistory(ctx, id, runID, true, enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT)
	var last *historypb.HistoryEvent
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return nil, err
		}
		last = e
	}
	return last, nil
}

// Progress implements Questions.
func (t *Temporal) Progress(ctx context.Context, id string) (wire.Progress, error) {
	var p wire.Progress
	return p, t.query(ctx, "gateway.Progress", id, workflows.QueryProgress, &p)
}

// Trace implements Questions.
func (t *Temporal) Trace(ctx context.Context, id string) (wire.Trace, error) {
	var tr wire.Trace
	return tr, t.query(ctx, "gateway.Trace", id, workflows.QueryTrace, &tr)
}

// Events implements Questions by long-polling the run's history: each
// scheduled activity is a stage, the close event carries the result.
// Reading starts at the first event every time, because attempt numbers
// are counted from it; only events after `after` are emitted.
func (t *Temporal) Events(ctx context.Context, id string, after int64, emit func(Event) error) error {
	it := t.Client.GetWorkflowHistory(ctx, id, "", true, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	r := historyReader{dc: t.converter()}
	for it.HasNext() {
		he, err := it.Next()
		if err != nil {
			return temporalErr("gateway.Events", err)
		}
		for _, e := range r.read(he) {
			if e.ID <= after {
				continue
			}
			if err := emit(e); err != nil {
				return err
			}
		}
		if r.closed {
			return nil
		}
	}
	return nil
}

// StartBatch implements Batches; a start refused with "not yet" is
// retried as Start's.
func (t *Temporal) StartBatch(ctx context.Context, id string, in workflows.BatchInput) error {
	return retryNotYet(ctx, func() error {
		_, err := t.Client.ExecuteWorkflow(ctx, workflows.BatchStartOptions(id, t.TaskQueue, in), workflows.BatchWorkflow, in)
		return temporalErr("gateway.StartBatch", err)
	})
}

// BatchStatus implements Batches.
func (t *Temporal) BatchStatus(ctx context.Context, id string) (workflows.BatchStatus, error) {
	var st workflows.BatchStatus
	return st, t.query(ctx, "gateway.BatchStatus", id, workflows.QueryBatchStatus, &st)
}

// BatchItems implements Batches.
func (t *Temporal) BatchItems(ctx context.Context, id string, offset, limit int) ([]workflows.BatchItem, error) {
	var items []workflows.BatchItem
	return items, t.query(ctx, "gateway.BatchItems", id, workflows.QueryBatchItems, &items, offset, limit)
}

// BatchResult implements Batches.
func (t *Temporal) BatchResult(ctx context.Context, id string) (workflows.BatchResult, api.Status, error) {
	var res workflows.BatchResult
	st, err := t.result(ctx, "gateway.BatchResult", id, "", &res)
	return res, st, err
}

func (t *Temporal) query(ctx context.Context, op, id, name string, out any, args ...any) error {
	v, err := t.Client.QueryWorkflow(ctx, id, "", name, args...)
	if err != nil {
		return temporalErr(op, err)
	}
	if err := v.Get(out); err != nil {
		return errs.E(op, errs.Internal, err)
	}
	return nil
}

// temporalErr classifies Temporal client errors.
func temporalErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var notFound *serviceerror.NotFound
	var exceeded *serviceerror.DeadlineExceeded
	var invalid *serviceerror.InvalidArgument
	switch {
	case errors.As(err, &notFound):
		return errs.E(op, errs.NotFound, err)
	case workflows.SearchAttributesPending(err):
		// "Not yet": a frontend that has not learnt of the search
		// attributes a worker registered, a namespace not there yet, a
		// frontend unavailable or out of capacity (ResourceExhausted is
		// the cluster's limit, not the caller's: 503, not 429). A retry
		// soon may succeed.
		return errs.E(op, errs.Unavailable, err)
	case errors.As(err, &invalid):
		// Client input is validated before any Temporal call, so Temporal
		// rejecting an argument is a server fault, not the caller's.
		return errs.E(op, errs.Internal, err)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &exceeded):
		return errs.E(op, errs.Unavailable, err)
	}
	return errs.E(op, err)
}
