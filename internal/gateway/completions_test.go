package gateway

import (
	"context"
	"errors"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
)

// call runs req through c's interceptor with an invoker that fills reply
// with resp (or fails with err).
func call(t *testing.T, c *Completions, req, reply any, fill func(), err error) error {
	t.Helper()
	return c.Interceptor()(context.Background(), "/m", req, reply, nil, func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error {
		if fill != nil {
			fill()
		}
		return err
	})
}

func start(t *testing.T, c *Completions, run, token string, eager bool) {
	t.Helper()
	resp := &workflowservice.StartWorkflowExecutionResponse{}
	if err := call(t, c, &workflowservice.StartWorkflowExecutionRequest{}, resp, func() {
		resp.RunId, resp.Started = run, true
		if eager {
			resp.EagerWorkflowTask = &workflowservice.PollWorkflowTaskQueueResponse{TaskToken: []byte(token)}
		}
	}, nil); err != nil {
		t.Fatal(err)
	}
}

func complete(t *testing.T, c *Completions, token string, cmds []*commandpb.Command, next string, err error) {
	t.Helper()
	resp := &workflowservice.RespondWorkflowTaskCompletedResponse{}
	got := call(t, c, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: []byte(token), Commands: cmds}, resp, func() {
		if next != "" {
			resp.WorkflowTask = &workflowservice.PollWorkflowTaskQueueResponse{TaskToken: []byte(next)}
		}
	}, err)
	if !errors.Is(got, err) {
		t.Fatalf("the interceptor returned %v, want the invoker's %v", got, err)
	}
}

func completeCmd(data string) []*commandpb.Command {
	return []*commandpb.Command{
		{CommandType: enumspb.COMMAND_TYPE_RECORD_MARKER},
		{CommandType: enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, Attributes: &commandpb.Command_CompleteWorkflowExecutionCommandAttributes{
			CompleteWorkflowExecutionCommandAttributes: &commandpb.CompleteWorkflowExecutionCommandAttributes{
				Result: &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(data)}}}}}},
	}
}

// waitQuick is wait with a short bound, reporting how long it took.
func waitQuick(c *Completions, run string) (*commonpb.Payloads, bool, time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	t0 := time.Now()
	p, ok := c.wait(ctx, run)
	return p, ok, time.Since(t0)
}

func TestCompletions(t *testing.T) {
	t.Run("completed by this process's worker", func(t *testing.T) {
		c := NewCompletions()
		start(t, c, "r1", "tok1", true)
		complete(t, c, "tok1", completeCmd(`"done"`), "", nil)
		p, ok, _ := waitQuick(c, "r1")
		if !ok || string(p.GetPayloads()[0].GetData()) != `"done"` {
			t.Fatalf("wait = %v, %v; want the completion's result", p, ok)
		}
		if len(c.runs) != 0 || len(c.tokens) != 0 {
			t.Fatalf("left behind: runs %v, tokens %v", c.runs, c.tokens)
		}
	})
	t.Run("waiting before the completion", func(t *testing.T) {
		c := NewCompletions()
		start(t, c, "r1", "tok1", true)
		go func() {
			time.Sleep(50 * time.Millisecond)
			complete(t, c, "tok1", completeCmd(`"late"`), "", nil)
		}()
		p, ok, took := waitQuick(c, "r1")
		if !ok || string(p.GetPayloads()[0].GetData()) != `"late"` || took > time.Second {
			t.Fatalf("wait = %v, %v after %s; want the result at once", p, ok, took)
		}
	})
	t.Run("a local activity's next task keeps the run followed", func(t *testing.T) {
		c := NewCompletions()
		start(t, c, "r1", "tok1", true)
		complete(t, c, "tok1", nil, "tok2", nil)
		complete(t, c, "tok2", completeCmd(`"two tasks"`), "", nil)
		if p, ok, _ := waitQuick(c, "r1"); !ok || string(p.GetPayloads()[0].GetData()) != `"two tasks"` {
			t.Fatalf("wait = %v, %v", p, ok)
		}
	})
	// Every other outcome sends Result to the history at once.
	for name, f := range map[string]func(c *Completions){
		"not started eagerly": func(c *Completions) { start(t, c, "r1", "", false) },
		"the run waits for an activity": func(c *Completions) {
			start(t, c, "r1", "tok1", true)
			complete(t, c, "tok1", []*commandpb.Command{{CommandType: enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK}}, "", nil)
		},
		"the server refused the completion": func(c *Completions) {
			start(t, c, "r1", "tok1", true)
			complete(t, c, "tok1", completeCmd(`"refused"`), "", serviceerror.NewInvalidArgument("UnhandledCommand"))
		},
		"the run failed": func(c *Completions) {
			start(t, c, "r1", "tok1", true)
			complete(t, c, "tok1", []*commandpb.Command{{CommandType: enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION}}, "", nil)
		},
		"the task failed": func(c *Completions) {
			start(t, c, "r1", "tok1", true)
			if err := call(t, c, &workflowservice.RespondWorkflowTaskFailedRequest{TaskToken: []byte("tok1")}, &workflowservice.RespondWorkflowTaskFailedResponse{}, nil, nil); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := NewCompletions()
			f(c)
			if p, ok, took := waitQuick(c, "r1"); ok || p != nil || took > time.Second {
				t.Fatalf("wait = %v, %v after %s; want the history asked at once", p, ok, took)
			}
		})
	}
	t.Run("uncollected runs are forgotten", func(t *testing.T) {
		c := NewCompletions()
		now := time.Now()
		c.now = func() time.Time { return now }
		start(t, c, "old", "tok-old", true)
		now = now.Add(completionsKeep + time.Second)
		start(t, c, "new", "tok-new", true)
		if _, ok := c.runs["old"]; ok || len(c.runs) != 1 || len(c.tokens) != 1 {
			t.Fatalf("runs %v, tokens %v; want only the new run", c.runs, c.tokens)
		}
	})
	t.Run("uncollected results are dropped", func(t *testing.T) {
		c := NewCompletions()
		c.collect = 20 * time.Millisecond
		start(t, c, "r1", "tok1", true)
		complete(t, c, "tok1", completeCmd(`"nobody asks"`), "", nil)
		for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			c.mu.Lock()
			n := len(c.runs)
			c.mu.Unlock()
			if n == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("a delivered result nobody collected is still held after %s: runs %v", 2*time.Second, c.runs)
			}
		}
		if p, ok, _ := waitQuick(c, "r1"); ok || p != nil {
			t.Fatalf("wait = %v, %v after the drop; want the history asked", p, ok)
		}
		// A result collected in time is not touched by its drop.
		start(t, c, "r2", "tok2", true)
		complete(t, c, "tok2", completeCmd(`"collected"`), "", nil)
		if p, ok, _ := waitQuick(c, "r2"); !ok || string(p.GetPayloads()[0].GetData()) != `"collected"` {
			t.Fatalf("wait = %v, %v", p, ok)
		}
	})
	t.Run("nil", func(t *testing.T) {
		var c *Completions
		if _, ok := c.wait(context.Background(), "r1"); ok {
			t.Fatal("a nil registry delivered")
		}
	})
}
