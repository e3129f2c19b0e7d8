package devserver

import (
	"context"
	"slices"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/devserver/devservertest"
)

// The visibility settings are what the Round 8 measurements rely on.
func TestVisibilityArgs(t *testing.T) {
	for _, want := range []string{
		"history.visibilityProcessorMaxPollRPS=1",
		"history.visibilityTaskBatchSize=1000",
	} {
		i := slices.Index(visibilityArgs, want)
		if i < 1 || visibilityArgs[i-1] != "--dynamic-config-value" {
			t.Errorf("visibilityArgs lack --dynamic-config-value %s: %v", want, visibilityArgs)
		}
	}
}

var visStatus = temporal.NewSearchAttributeKeyKeyword("VisTestStatus")

// visWorkflow runs for d, then sets VisTestStatus, as AnswerWorkflow sets
// its attributes when it finishes.
func visWorkflow(ctx workflow.Context, d time.Duration) error {
	if d > 0 {
		if err := workflow.Sleep(ctx, d); err != nil {
			return err
		}
	}
	return workflow.UpsertTypedSearchAttributes(ctx, visStatus.ValueSet("completed"))
}

// visClientWorker dials srv and starts a worker running visWorkflow on
// queue.
func visClientWorker(ctx context.Context, t *testing.T, srv *Server, queue string) (client.Client, worker.Worker) {
	t.Helper()
	c, err := client.DialContext(ctx, client.Options{HostPort: srv.Address()})
	if err != nil {
		t.Fatal(err)
	}
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflow(visWorkflow)
	if err := w.Start(); err != nil {
		c.Close()
		t.Fatal(err)
	}
	return c, w
}

// TestVisibilityWithReadsOncePerSecond: with visibilityArgs the dev
// server's visibility still shows what an operator filters on, a second
// or so late: short runs listed as completed with the attributes they set
// when they finished, and a run that lasts seconds listed as running while
// it runs.
func TestVisibilityWithReadsOncePerSecond(t *testing.T) {
	bin := devservertest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := Start(ctx, Options{Bin: bin, DataDir: t.TempDir(), Port: freePort(t),
		SearchAttributes: map[string]enumspb.IndexedValueType{visStatus.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(10 * time.Second)
	const queue = "visibility-test"
	c, w := visClientWorker(ctx, t, srv, queue)
	defer c.Close()
	defer w.Stop()

	count := func(q string) int64 {
		resp, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetCount()
	}
	// waitFor polls the count of q until it is want, for at most limit.
	waitFor := func(what, q string, want int64, limit time.Duration) {
		t.Helper()
		deadline := time.Now().Add(limit)
		for {
			n := count(q)
			if n == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d runs after %s, want %d", what, n, limit, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	const short = 5
	for i := range short {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "vis-short-" + string(rune('a'+i)), TaskQueue: queue}, visWorkflow, time.Duration(0))
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	waitFor("short runs listed as completed with their attribute",
		"WorkflowType = 'visWorkflow' AND ExecutionStatus = 'Completed' AND VisTestStatus = 'completed'", short, 5*time.Second)

	started := time.Now()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "vis-long", TaskQueue: queue}, visWorkflow, 6*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	waitFor("a 6 s run listed as running", "WorkflowType = 'visWorkflow' AND ExecutionStatus = 'Running'", 1, 3*time.Second)
	if time.Since(started) > 5*time.Second {
		t.Fatalf("the running run was seen only %s after its start", time.Since(started))
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	waitFor("the long run listed as completed", "WorkflowType = 'visWorkflow' AND ExecutionStatus = 'Completed' AND VisTestStatus = 'completed'", short+1, 5*time.Second)
}
