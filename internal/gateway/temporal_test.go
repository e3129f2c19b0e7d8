package gateway

import (
	"context"
	"net/http"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// TestTemporalErrNotYet: Temporal's "not yet" refusals are 503 (with
// Retry-After, see writeError), never 500; other refusals keep their
// status.
func TestTemporalErrNotYet(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"search attribute not mapped yet", serviceerror.NewInvalidArgument("Namespace default has no mapping defined for search attribute AssayPrincipal"), 503},
		{"search attribute unknown to a query", serviceerror.NewInvalidArgument("invalid query: column name 'AssayStatus' is not a valid search attribute"), 503},
		{"namespace not there yet", serviceerror.NewNamespaceNotFound("default"), 503},
		{"frontend unavailable", serviceerror.NewUnavailable("connection refused"), 503},
		{"cluster out of capacity", serviceerror.NewResourceExhausted(0, "namespace rate limit exceeded"), 503},
		{"deadline", context.DeadlineExceeded, 503},
		{"other invalid argument", serviceerror.NewInvalidArgument("WorkflowId is not set"), 500},
		{"run not found", serviceerror.NewNotFound("workflow not found"), 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := temporalErr("test", tc.err)
			kind := errs.KindOf(err)
			if kind == errs.Other {
				kind = errs.Internal
			}
			if got := statusOf[kind]; got != tc.want {
				t.Errorf("%v: status %d (%s), want %d", tc.err, got, kind, tc.want)
			}
		})
	}
}

// startClient fails ExecuteWorkflow with errs in turn, then succeeds.
type startClient struct {
	client.Client
	errs  []error
	calls int
}

func (c *startClient) ExecuteWorkflow(context.Context, client.StartWorkflowOptions, any, ...any) (client.WorkflowRun, error) {
	c.calls++
	if len(c.errs) > 0 {
		err := c.errs[0]
		c.errs = c.errs[1:]
		return nil, err
	}
	return nil, nil
}

// TestStartRetriesNotYet: a start refused because the frontend has not
// learnt of the search attributes yet is tried again and succeeds; one
// refused for another reason is not retried.
func TestStartRetriesNotYet(t *testing.T) {
	in := wire.AnswerInput{Question: "q", Budget: wire.Budget{Deadline: time.Minute}}
	c := &startClient{errs: []error{
		serviceerror.NewInvalidArgument("Namespace default has no mapping defined for search attribute AssayPrincipal"),
		serviceerror.NewUnavailable("frontend starting"),
	}}
	tm := &Temporal{Client: c, TaskQueue: "assay"}
	if _, err := tm.Start(context.Background(), "id-1", in); err != nil {
		t.Fatalf("Start: %v, want success on the third try", err)
	}
	if c.calls != 3 {
		t.Errorf("ExecuteWorkflow called %d times, want 3", c.calls)
	}

	c = &startClient{errs: []error{serviceerror.NewInvalidArgument("WorkflowId is not set")}}
	tm.Client = c
	if _, err := tm.Start(context.Background(), "id-2", in); errs.KindOf(err) != errs.Internal {
		t.Errorf("Start: %v (%s), want an internal error", err, errs.KindOf(err))
	}
	if c.calls != 1 {
		t.Errorf("ExecuteWorkflow called %d times, want 1", c.calls)
	}

	// A caller that gives up ends the retries: still 503, not 500.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	down := serviceerror.NewUnavailable("down")
	c = &startClient{errs: []error{down, down, down, down, down, down, down, down}}
	tm.Client = c
	if _, err := tm.Start(ctx, "id-3", in); statusOf[errs.KindOf(err)] != http.StatusServiceUnavailable {
		t.Errorf("Start: %v (%s), want unavailable", err, errs.KindOf(err))
	}
}
