package workflows

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/wire"
)

// Batch query names.
const (
	// QueryBatchStatus returns a BatchStatus: state, counts and aggregate.
	QueryBatchStatus = "batch_status"
	// QueryBatchItems takes (offset, limit int) and returns that page of
	// []BatchItem.
	QueryBatchItems = "batch_items"
)

// DefaultContinueAfter is how many questions one run of BatchWorkflow
// starts before continuing as new when the input does not say.
const DefaultContinueAfter = 500

// BatchQuestion is one question of a batch. ID is the client's own id for
// it, unique within the batch.
type BatchQuestion struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// Principal, when set, is who this question is asked for instead of
	// the batch's principal. Only a Temporal client can set it: it exists
	// for operator tools trusted to choose principals (the answer
	// evaluation asks each labelled question under its own groups). The
	// gateway never sets it — its batch questions decode into a type
	// without the field — so an API caller can never widen its groups.
	Principal *wire.Principal `json:"principal,omitempty"`
	// Signature signs Principal for the batch (SignBatch); a question
	// with its own principal runs only with it, where workers check.
	Signature *wire.Signature `json:"signature,omitempty"`
}

// BatchState is the state of a whole batch.
type BatchState string

// Batch states.
const (
	BatchRunning   BatchState = "running"
	BatchCompleted BatchState = "completed"
	BatchCancelled BatchState = "cancelled"
)

// BatchItem is the durable status of one question of a batch. It holds ids
// and numbers only; the answer stays in the child run's result, so the
// batch state stays small enough to carry through continue-as-new.
type BatchItem struct {
	ID string `json:"id"`
	// QuestionID is the child AnswerWorkflow's id, readable through the
	// questions API.
	QuestionID string               `json:"question_id"`
	Status     wire.BatchItemStatus `json:"status"`
	StopReason wire.StopReason      `json:"stop_reason,omitempty"`
	LatencyMS  float64              `json:"latency_ms,omitempty"`
	wire.Usage
	Error string `json:"error,omitempty"`
}

// BatchInput is the input of BatchWorkflow. Items, Next, Runs and
// StartedAt are the state one run hands to the next through
// continue-as-new; a new batch leaves them zero.
type BatchInput struct {
	BatchID string `json:"batch_id"`
	// Principal is the submitter's; every question runs as it, whatever
	// Template says, unless the question carries its own Principal.
	Principal wire.Principal  `json:"principal"`
	Questions []BatchQuestion `json:"questions"`
	// Template is the AnswerInput each question starts from (budget,
	// threshold, top-k, filters); RequestID, Question and Principal are
	// set per question.
	Template      wire.AnswerInput `json:"template"`
	Concurrency   int              `json:"concurrency"`
	ContinueAfter int              `json:"continue_after,omitempty"`
	// Signature is the gateway's signature of Principal for this batch
	// and its questions (SignBatch); each question's run carries it.
	Signature *wire.Signature `json:"signature,omitempty"`

	Items     []BatchItem `json:"items,omitempty"`
	Next      int         `json:"next,omitempty"`
	Runs      int         `json:"runs,omitempty"`
	StartedAt time.Time   `json:"started_at,omitzero"`
}

// BatchStatus is what QueryBatchStatus returns while a batch runs.
type BatchStatus struct {
	ID        string              `json:"id"`
	State     BatchState          `json:"state"`
	Runs      int                 `json:"runs"` // workflow runs so far, continue-as-new included
	StartedAt time.Time           `json:"started_at"`
	Aggregate wire.BatchAggregate `json:"aggregate"`
}

// BatchResult is the output of BatchWorkflow.
type BatchResult struct {
	Status BatchStatus `json:"status"`
	Items  []BatchItem `json:"items"`
}

// Aggregate sums up items.
func Aggregate(items []BatchItem) wire.BatchAggregate {
	agg := wire.BatchAggregate{Total: len(items), StopReasons: map[wire.StopReason]int{}}
	var lat []float64
	for _, it := range items {
		switch it.Status {
		case wire.ItemPending:
			agg.Pending++
		case wire.ItemRunning:
			agg.Running++
		case wire.ItemFailed:
			agg.Failed++
		case wire.ItemCancelled:
			agg.Cancelled++
		case wire.ItemDone:
			agg.Done++
			agg.StopReasons[it.StopReason]++
			lat = append(lat, it.LatencyMS)
			agg.Usage.Add(it.Usage)
		}
	}
	agg.LatencyP50MS = percentile.NearestRank(lat, 50)
	agg.LatencyP95MS = percentile.NearestRank(lat, 95)
	return agg
}

// ChildID is the workflow id of the i-th (0-based) question of batch id.
// It is derived, not random, so a replayed or continued batch names the
// same runs.
func ChildID(batchID string, i int) string {
	return fmt.Sprintf("%s-q%d", batchID, i+1)
}

// BatchDigest identifies a batch's questions (ids and texts, in order), so
// a replayed idempotency key can be told from a reused one, and a signed
// principal is bound to its batch. Workflow code calls it (the principal
// check), so it uses no fmt; the bytes are those of the
// "%d:%s%d:%s" it was first written with.
func BatchDigest(qs []BatchQuestion) string {
	h := sha256.New()
	for _, q := range qs {
		h.Write([]byte(strconv.Itoa(len(q.ID)) + ":" + q.ID + strconv.Itoa(len(q.Question)) + ":" + q.Question))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// BatchStartOptions are the options every BatchWorkflow start uses: the id
// conflict and reuse policies of StartOptions, a memo with the question
// count and digest, and the search attributes known at start. A batch has no
// execution timeout: its questions each have their own deadline.
func BatchStartOptions(id, taskQueue string, in BatchInput) client.StartWorkflowOptions {
	attrs := []temporal.SearchAttributeUpdate{
		StatusKey.ValueSet("running"),
		PrincipalKey.ValueSet(in.Principal.ID),
	}
	if in.Template.Release != "" {
		attrs = append(attrs, ReleaseKey.ValueSet(in.Template.Release))
	}
	return client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		Memo:                     map[string]any{"questions": len(in.Questions), "digest": BatchDigest(in.Questions), "template": wire.TemplateDigest(in.Template)},
		StaticSummary:            fmt.Sprintf("batch of %d questions", len(in.Questions)),
		TypedSearchAttributes:    temporal.NewSearchAttributes(attrs...),
	}
}

// childOptions derives a question's child options from StartOptions, so a
// question runs the same way whether the API or a batch started it. A
// cancelled batch asks its running questions to cancel and waits for them
// to record the cancelled stop.
func childOptions(id string, in wire.AnswerInput) workflow.ChildWorkflowOptions {
	so := StartOptions(id, "", in)
	return workflow.ChildWorkflowOptions{
		WorkflowID:               so.ID,
		WorkflowIDReusePolicy:    so.WorkflowIDReusePolicy,
		WorkflowExecutionTimeout: so.WorkflowExecutionTimeout,
		Memo:                     so.Memo,
		TypedSearchAttributes:    so.TypedSearchAttributes,
		StaticSummary:            so.StaticSummary,
		StaticDetails:            so.StaticDetails,
		ParentClosePolicy:        enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
		WaitForCancellation:      true,
	}
}

// BatchWorkflow answers a set of questions as child AnswerWorkflows, at
// most Concurrency at a time, all as the submitter's principal. Every
// question's status is workflow state, queryable while the batch runs
// (QueryBatchStatus, QueryBatchItems). After ContinueAfter questions a run
// stops starting new ones, waits for its running children and continues as
// new with the state carried in its input. Cancelling the batch cancels
// the running questions (they end with the cancelled stop) and marks the
// ones not started as cancelled; the batch then completes with state
// cancelled and the aggregate so far.
func BatchWorkflow(ctx workflow.Context, in BatchInput) (BatchResult, error) {
	if len(in.Questions) == 0 || (in.Items != nil && len(in.Items) != len(in.Questions)) {
		return BatchResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("batch %s: %d questions, %d items", in.BatchID, len(in.Questions), len(in.Items)),
			errs.Invalid.TemporalType(), nil)
	}
	if reason, ok, err := verifyPrincipal(ctx, 0, in.Principal, in.Signature, BatchDigest(in.Questions)); err != nil {
		return BatchResult{}, err
	} else if !ok {
		return BatchResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("batch %s: unauthorized: %s", in.BatchID, reason), errs.Unauthorized.TemporalType(), nil)
	}
	b := &batch{in: in, state: BatchRunning}
	if b.in.Items == nil {
		b.in.Items = make([]BatchItem, len(in.Questions))
		for i, q := range in.Questions {
			b.in.Items[i] = BatchItem{ID: q.ID, QuestionID: ChildID(in.BatchID, i), Status: wire.ItemPending}
		}
		b.in.StartedAt = workflow.Now(ctx)
	}
	b.in.Runs++
	if err := workflow.SetQueryHandler(ctx, QueryBatchStatus, func() (BatchStatus, error) { return b.status(), nil }); err != nil {
		return BatchResult{}, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryBatchItems, b.page); err != nil {
		return BatchResult{}, err
	}
	return b.run(ctx)
}

// batch is the state of one BatchWorkflow run.
type batch struct {
	in    BatchInput
	state BatchState
}

func (b *batch) run(ctx workflow.Context) (BatchResult, error) {
	conc := max(b.in.Concurrency, 1)
	limit := b.in.ContinueAfter
	if limit < 1 {
		limit = DefaultContinueAfter
	}
	sel := workflow.NewSelector(ctx)
	running, started := 0, 0
	for {
		for running < conc && b.in.Next < len(b.in.Items) && ctx.Err() == nil &&
			started < limit && !workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			i := b.in.Next
			b.in.Next++
			started++
			running++
			b.in.Items[i].Status = wire.ItemRunning
			cin := b.in.Template
			cin.RequestID = b.in.Items[i].QuestionID
			cin.Question = b.in.Questions[i].Question
			cin.Principal = b.in.Principal
			cin.Signature = b.in.Signature
			// A nil override keeps the behaviour batches recorded before
			// the field existed had, so no version marker is needed; nor
			// does the signature, nil in every batch recorded before it.
			if p := b.in.Questions[i].Principal; p != nil {
				cin.Principal, cin.Signature = *p, b.in.Questions[i].Signature
			}
			f := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, childOptions(cin.RequestID, cin)), AnswerWorkflow, cin)
			sel.AddFuture(f, func(f workflow.Future) {
				running--
				b.record(ctx, i, f)
			})
		}
		if running == 0 {
			break
		}
		sel.Select(ctx)
	}
	if ctx.Err() == nil && b.in.Next < len(b.in.Items) {
		return BatchResult{}, workflow.NewContinueAsNewError(ctx, BatchWorkflow, b.in)
	}
	b.state = BatchCompleted
	if ctx.Err() != nil {
		b.state = BatchCancelled
		for i := b.in.Next; i < len(b.in.Items); i++ {
			b.in.Items[i].Status = wire.ItemCancelled
		}
	}
	// Cancellation has cancelled ctx; the final attribute must still be set.
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	if err := workflow.UpsertTypedSearchAttributes(dctx, StatusKey.ValueSet(string(b.state))); err != nil {
		workflow.GetLogger(ctx).Warn("search attributes not updated", "error", err)
	}
	return BatchResult{Status: b.status(), Items: b.in.Items}, nil
}

// record stores the outcome of question i from its child's future.
func (b *batch) record(ctx workflow.Context, i int, f workflow.Future) {
	it := &b.in.Items[i]
	var res wire.AnswerResult
	err := f.Get(ctx, &res)
	switch {
	case err == nil:
		it.Status = wire.ItemDone
		it.StopReason = res.StopReason
		it.LatencyMS = res.Trace.TotalMS
		it.Usage = res.Trace.Usage
	case temporal.IsCanceledError(err):
		it.Status = wire.ItemCancelled
		it.StopReason = wire.Cancelled
	default:
		it.Status = wire.ItemFailed
		it.Error = "the run failed: " + publicError(err) // details are in the child's history
		workflow.GetLogger(ctx).Warn("batch question failed", "question", it.ID, "error", err)
	}
}

func (b *batch) status() BatchStatus {
	return BatchStatus{
		ID: b.in.BatchID, State: b.state, Runs: b.in.Runs,
		StartedAt: b.in.StartedAt, Aggregate: Aggregate(b.in.Items),
	}
}

// page returns items [offset, offset+limit).
func (b *batch) page(offset, limit int) ([]BatchItem, error) {
	if offset < 0 || limit < 1 {
		return nil, fmt.Errorf("want offset >= 0 and limit >= 1, got %d, %d", offset, limit)
	}
	if offset >= len(b.in.Items) {
		return []BatchItem{}, nil
	}
	return slices.Clone(b.in.Items[offset:min(offset+limit, len(b.in.Items))]), nil
}
