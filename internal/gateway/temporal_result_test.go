package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"github.com/assay-rag/assay/internal/errs"
)

// rpcCounter counts the gRPC methods a client calls, by their last path
// element ("DescribeWorkflowExecution"), and keeps the run ids the history
// polls named.
type rpcCounter struct {
	mu       sync.Mutex
	n        map[string]int
	pollRuns []string
}

func (c *rpcCounter) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	c.mu.Lock()
	c.n[method[strings.LastIndex(method, "/")+1:]]++
	if r, ok := req.(*workflowservice.GetWorkflowExecutionHistoryRequest); ok {
		c.pollRuns = append(c.pollRuns, r.GetExecution().GetRunId())
	}
	c.mu.Unlock()
	return invoker(ctx, method, req, reply, cc, opts...)
}

func (c *rpcCounter) runs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.pollRuns)
}

func (c *rpcCounter) get(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method]
}

func (c *rpcCounter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = map[string]int{}
	c.pollRuns = nil
}

// resultWorkflow returns "done: "+in, fails when in is "fail", continues
// as new once when in is "continue", and when in is "block" waits for the
// signal "go" and returns "done: "+its value.
func resultWorkflow(ctx workflow.Context, in string) (string, error) {
	switch in {
	case "block":
		var v string
		workflow.GetSignalChannel(ctx, "go").Receive(ctx, &v)
		return "done: " + v, nil
	case "fail":
		return "", errors.New("failed on purpose")
	case "continue":
		return "", workflow.NewContinueAsNewError(ctx, resultWorkflow, "continued")
	}
	return "done: " + in, nil
}

// devClient starts a dev server for the test and returns a client of it
// with the given interceptors on its connection; both end with the test.
func devClient(t *testing.T, ctx context.Context, unary ...grpc.UnaryClientInterceptor) client.Client {
	t.Helper()
	bin := devservertest.Binary(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	srv, err := devserver.Start(ctx, devserver.Options{Bin: bin, DataDir: t.TempDir(), Port: port})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(10 * time.Second) })
	c, err := client.DialContext(ctx, client.Options{
		HostPort:          srv.Address(),
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(unary...)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestResultReadsTheCloseEvent runs workflows on a dev server and reads
// their results through Temporal.result: a completed run's value, a
// failed run as Failed, a run that continued as new followed to its
// successor's value, an unknown id as NotFound. Each result is one
// history long poll (per run): no DescribeWorkflowExecution, which the
// SDK's WorkflowRun.Get sends first to learn the run id.
func TestResultReadsTheCloseEvent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rpcs := &rpcCounter{n: map[string]int{}}
	c := devClient(t, ctx, rpcs.intercept)
	const queue = "result-test"
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflow(resultWorkflow)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	eng := &Temporal{Client: c, TaskQueue: queue}

	for _, tc := range []struct {
		in     string
		status api.Status
		want   string
		polls  int // history long polls: one per run read
	}{
		{"x", api.Completed, "done: x", 1},
		{"fail", api.Failed, "", 1},
		{"continue", api.Completed, "done: continued", 2},
	} {
		id := "result-" + tc.in
		if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, resultWorkflow, tc.in); err != nil {
			t.Fatal(err)
		}
		rpcs.reset()
		var got string
		st, err := eng.result(ctx, "test", id, "", &got)
		if err != nil || st != tc.status || got != tc.want {
			t.Errorf("%s: result = %q, %s, %v; want %q, %s", tc.in, got, st, err, tc.want, tc.status)
		}
		if n := rpcs.get("DescribeWorkflowExecution"); n != 0 {
			t.Errorf("%s: %d DescribeWorkflowExecution calls, want none", tc.in, n)
		}
		if n := rpcs.get("GetWorkflowExecutionHistory"); n != tc.polls {
			t.Errorf("%s: %d history polls, want %d", tc.in, n, tc.polls)
		}
	}

	var got string
	if _, err := eng.result(ctx, "test", "result-no-such-run", "", &got); errs.KindOf(err) != errs.NotFound {
		t.Errorf("unknown id: error %v (%s), want NotFound", err, errs.KindOf(err))
	}

	// Given the run id Start returned, the poll names that run (the
	// server then skips looking up the id's current run) and reads that
	// run's result even when the id has a newer run; a continued run is
	// followed from it.
	for _, tc := range []struct{ in, want string }{{"first", "done: first"}, {"continue", "done: continued"}} {
		id := "result-run-" + tc.in
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, resultWorkflow, tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE}, resultWorkflow, "second"); err != nil {
			t.Fatal(err)
		}
		rpcs.reset()
		got = ""
		if st, err := eng.result(ctx, "test", id, run.GetRunID(), &got); err != nil || st != api.Completed || got != tc.want {
			t.Errorf("%s with its run id: result = %q, %s, %v; want %q", tc.in, got, st, err, tc.want)
		}
		if runs := rpcs.runs(); len(runs) == 0 || runs[0] != run.GetRunID() {
			t.Errorf("%s: the history polls named runs %q, want %q first", tc.in, runs, run.GetRunID())
		}
	}

	// A run reset while the gateway waits on it is terminated and goes on
	// in a new run: the wait reads the new run's result, as a wait without
	// a run id (the id's current run) did.
	id := "result-reset"
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, resultWorkflow, "block")
	if err != nil {
		t.Fatal(err)
	}
	for { // the first workflow task completed: the run waits for its signal
		d, err := c.DescribeWorkflowExecution(ctx, id, run.GetRunID())
		if err != nil {
			t.Fatal(err)
		}
		if d.GetWorkflowExecutionInfo().GetHistoryLength() >= 4 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	type waited struct {
		got string
		st  api.Status
		err error
	}
	done := make(chan waited, 1)
	go func() {
		var w waited
		w.st, w.err = eng.result(ctx, "test", id, run.GetRunID(), &w.got)
		done <- w
	}()
	reset, err := c.ResetWorkflowExecution(ctx, &workflowservice.ResetWorkflowExecutionRequest{
		Namespace:                 "default",
		WorkflowExecution:         &commonpb.WorkflowExecution{WorkflowId: id, RunId: run.GetRunID()},
		Reason:                    "test",
		WorkflowTaskFinishEventId: 4,
		RequestId:                 "result-reset-1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, id, reset.GetRunId(), "go", "after the reset"); err != nil {
		t.Fatal(err)
	}
	if w := <-done; w.err != nil || w.st != api.Completed || w.got != "done: after the reset" {
		t.Errorf("reset run: result = %q, %s, %v; want %q, completed", w.got, w.st, w.err, "done: after the reset")
	}
}

// signalledWorkflow runs a local activity that sleeps for d, then
// returns how many "poke" signals it has received by then.
func signalledWorkflow(ctx workflow.Context, d time.Duration) (string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteLocalActivity(ctx, func(context.Context) error { time.Sleep(d); return nil }).Get(ctx, nil); err != nil {
		return "", err
	}
	n, ch := 0, workflow.GetSignalChannel(ctx, "poke")
	for ch.ReceiveAsync(nil) {
		n++
	}
	return fmt.Sprintf("signals: %d", n), nil
}

// TestResultFromTheWorkersCompletion: on a dev server, with Completions on
// the connection a worker shares with the gateway (assay dev), the result
// of a run started eagerly and completed by that worker is the one its
// close event records, read without a history poll; a run that fails or
// continues as new is read from the history, as without Completions.
func TestResultFromTheWorkersCompletion(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rpcs := &rpcCounter{n: map[string]int{}}
	completions := NewCompletions()
	c := devClient(t, ctx, rpcs.intercept, completions.Interceptor())
	const queue = "completions-test"
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflow(resultWorkflow)
	w.RegisterWorkflow(signalledWorkflow)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	eng := &Temporal{Client: c, TaskQueue: queue, Completions: completions}
	history := &Temporal{Client: c, TaskQueue: queue}

	for _, tc := range []struct {
		in     string
		status api.Status
		want   string
		polls  int
	}{
		{"x", api.Completed, "done: x", 0},
		{"fail", api.Failed, "", 1},
		{"continue", api.Completed, "done: continued", 2},
	} {
		id := "completions-" + tc.in
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue, EnableEagerStart: true}, resultWorkflow, tc.in)
		if err != nil {
			t.Fatal(err)
		}
		rpcs.reset()
		var got string
		st, err := eng.result(ctx, "test", id, run.GetRunID(), &got)
		if err != nil || st != tc.status || got != tc.want {
			t.Errorf("%s: result = %q, %s, %v; want %q, %s", tc.in, got, st, err, tc.want, tc.status)
		}
		if n := rpcs.get("GetWorkflowExecutionHistory"); n != tc.polls {
			t.Errorf("%s: %d history polls, want %d", tc.in, n, tc.polls)
		}
		var recorded string
		if st2, err := history.result(ctx, "test", id, run.GetRunID(), &recorded); err != nil || st2 != st || recorded != got {
			t.Errorf("%s: the history has %q, %s, %v; Completions gave %q, %s", tc.in, recorded, st2, err, got, st)
		}
	}
	// A signal that arrives while the worker holds the task that would
	// complete the run makes the server refuse that completion
	// (UnhandledCommand); the run completes in a later task, with a result
	// that counts the signal. The result is that one, never the refused.
	id := "completions-signalled"
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue, EnableEagerStart: true}, signalledWorkflow, 1500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		if err := c.SignalWorkflow(ctx, id, run.GetRunID(), "poke", nil); err != nil {
			t.Errorf("signal: %v", err)
		}
	}()
	var got, recorded string
	if st, err := eng.result(ctx, "test", id, run.GetRunID(), &got); err != nil || st != api.Completed || got != "signals: 1" {
		t.Errorf("signalled: result = %q, %s, %v; want %q", got, st, err, "signals: 1")
	}
	if _, err := history.result(ctx, "test", id, run.GetRunID(), &recorded); err != nil || recorded != got {
		t.Errorf("signalled: the history has %q (%v), Completions gave %q", recorded, err, got)
	}
	completions.mu.Lock()
	defer completions.mu.Unlock()
	if len(completions.runs) != 0 || len(completions.tokens) != 0 {
		t.Errorf("left behind: runs %v, tokens %v", completions.runs, completions.tokens)
	}
}
