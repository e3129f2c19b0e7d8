package gateway

import (
	"context"
	"errors"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/workflows"
)

// TemporalQuestions runs questions as AnswerWorkflows on Temporal.
type TemporalQuestions struct {
	Client    client.Client
	TaskQueue string
}

var _ Questions = (*TemporalQuestions)(nil)

// Start implements Questions.
func (t *TemporalQuestions) Start(ctx context.Context, id string, in workflows.AnswerInput) error {
	_, err := t.Client.ExecuteWorkflow(ctx, workflows.StartOptions(id, t.TaskQueue, in), workflows.AnswerWorkflow, in)
	return temporalErr("gateway.Start", err)
}

// Result implements Questions.
func (t *TemporalQuestions) Result(ctx context.Context, id string) (Status, *workflows.AnswerResult, error) {
	desc, err := t.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return "", nil, temporalErr("gateway.Result", err)
	}
	switch desc.GetWorkflowExecutionInfo().GetStatus() {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
		return Running, nil, nil
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		var res workflows.AnswerResult
		if err := t.Client.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
			return "", nil, temporalErr("gateway.Result", err)
		}
		return Completed, &res, nil
	default:
		return Failed, nil, nil
	}
}

// temporalErr classifies Temporal client errors.
func temporalErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var notFound *serviceerror.NotFound
	var unavailable *serviceerror.Unavailable
	var exceeded *serviceerror.DeadlineExceeded
	switch {
	case errors.As(err, &notFound):
		return errs.E(op, errs.NotFound, err)
	case errors.As(err, &unavailable), errors.Is(err, context.DeadlineExceeded), errors.As(err, &exceeded):
		return errs.E(op, errs.Unavailable, err)
	}
	return errs.E(op, err)
}
