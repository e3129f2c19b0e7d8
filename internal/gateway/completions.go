package gateway

import (
	"context"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
)

// Completions lets a gateway learn a run's result from the worker in its
// own process instead of long-polling the run's history for its close
// event (assay dev: one process, one client for both). It is a gRPC client
// interceptor on the connection the two share, and it follows only the
// runs that connection started with eager execution, whose first workflow
// task the server handed back with the start:
//
//   - the start's reply names the run and its workflow task's token;
//   - the worker's RespondWorkflowTaskCompleted for that token carries the
//     run's commands; when the server accepts it (an error-free reply) and
//     they complete the run, the result payloads are exactly those of the
//     run's close event (the server refuses a completion it does not apply:
//     UnhandledCommand, a stale task); when the reply hands the worker the
//     run's next workflow task (a local activity outlasting a task), the run
//     stays followed under the new token;
//   - anything else (the task failed, the run closes otherwise, waits for
//     an activity or a timer, or the reply is an error) ends the following,
//     and a waiting Result long-polls the history as before.
//
// So a result delivered here is one the server has recorded: no weaker
// durability than reading it from the history. The saving is the long
// poll itself, a history read of the run's last event batch on the server
// per question (about a tenth of the dev server's CPU a question,
// docs/log/performance-scale.md "Round 11: the Temporal side").
type Completions struct {
	mu     sync.Mutex
	runs   map[string]*followed // by run id
	tokens map[string]string    // workflow task token → run id
	order  []followedAt         // runs by the time they were followed, for eviction
	now    func() time.Time
	// collect is how long a delivered result waits for its Result
	// (completionsCollect).
	collect time.Duration
}

// followed is a run Completions follows.
type followed struct {
	done   chan struct{} // closed when the outcome is known
	result *commonpb.Payloads
	closed bool // completed with result; false with done closed: ask the history
}

type followedAt struct {
	run string
	at  time.Time
}

// completionsKeep bounds how long a followed run's outcome waits for a
// Result to collect it (a question asked without wait= is read later
// through its id alone, which long-polls).
const completionsKeep = 2 * time.Minute

// completionsCollect bounds how long a delivered result is kept for a
// Result to collect it. The gateway asks for a run's result by its run id
// right after starting it (a question with wait=, a chat completion), so
// a result still uncollected after this is one nobody asks for this way
// (a question without wait=, a streamed chat): without the bound, every
// such result stayed until a later start evicted it after
// completionsKeep, and an idle process kept the last burst's for good.
const completionsCollect = 10 * time.Second

// completionsMaxWait bounds how long Result waits here before it also asks
// the history: a worker that never answers a task it holds (hung) is
// covered by the server's task timeout, after which this process's
// worker's reply is refused and the following ends; this is the backstop.
const completionsMaxWait = 30 * time.Second

// NewCompletions returns an empty registry; install Interceptor on the
// client's connection.
func NewCompletions() *Completions {
	return &Completions{runs: map[string]*followed{}, tokens: map[string]string{}, now: time.Now, collect: completionsCollect}
}

// Interceptor is the gRPC unary client interceptor that follows runs.
func (c *Completions) Interceptor() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		switch r := req.(type) {
		case *workflowservice.StartWorkflowExecutionRequest:
			if resp, ok := reply.(*workflowservice.StartWorkflowExecutionResponse); ok && err == nil {
				if t := resp.GetEagerWorkflowTask(); t != nil && resp.GetStarted() {
					c.follow(resp.GetRunId(), t.GetTaskToken())
				}
			}
		case *workflowservice.RespondWorkflowTaskCompletedRequest:
			resp, _ := reply.(*workflowservice.RespondWorkflowTaskCompletedResponse)
			c.completed(r, resp, err)
		case *workflowservice.RespondWorkflowTaskFailedRequest:
			c.end(c.untoken(r.GetTaskToken()))
		}
		return err
	}
}

// follow starts following run, whose workflow task token is token.
func (c *Completions) follow(run string, token []byte) {
	if run == "" || len(token) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for len(c.order) > 0 && now.Sub(c.order[0].at) > completionsKeep {
		if f := c.runs[c.order[0].run]; f != nil {
			c.endLocked(c.order[0].run, f)
			delete(c.runs, c.order[0].run)
		}
		c.order = c.order[1:]
	}
	if _, ok := c.runs[run]; ok {
		return
	}
	c.runs[run] = &followed{done: make(chan struct{})}
	c.tokens[string(token)] = run
	c.order = append(c.order, followedAt{run, now})
}

// untoken forgets token and returns the run it was for, or "".
func (c *Completions) untoken(token []byte) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	run := c.tokens[string(token)]
	delete(c.tokens, string(token))
	return run
}

// completed reads a workflow task's completion and its reply.
func (c *Completions) completed(req *workflowservice.RespondWorkflowTaskCompletedRequest, resp *workflowservice.RespondWorkflowTaskCompletedResponse, err error) {
	run := c.untoken(req.GetTaskToken())
	if run == "" {
		return
	}
	if err != nil {
		c.end(run)
		return
	}
	for _, cmd := range req.GetCommands() {
		switch cmd.GetCommandType() {
		case enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION:
			c.deliver(run, cmd.GetCompleteWorkflowExecutionCommandAttributes().GetResult())
			return
		case enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION, enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION,
			enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
			c.end(run)
			return
		}
	}
	if t := resp.GetWorkflowTask(); t != nil && len(t.GetTaskToken()) > 0 {
		c.mu.Lock()
		if f := c.runs[run]; f != nil && !isDone(f) {
			c.tokens[string(t.GetTaskToken())] = run
		}
		c.mu.Unlock()
		return
	}
	c.end(run) // the run goes on in a task this process may not get
}

// deliver records run's result.
func (c *Completions) deliver(run string, result *commonpb.Payloads) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.runs[run]; f != nil && !isDone(f) {
		f.result, f.closed = result, true
		close(f.done)
		time.AfterFunc(c.collect, func() { c.drop(run, f) })
	}
}

// drop forgets run's delivered result f if no Result has collected it.
func (c *Completions) drop(run string, f *followed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs[run] == f {
		delete(c.runs, run)
	}
}

// end stops following run: its outcome is to be read from the history.
func (c *Completions) end(run string) {
	if run == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.runs[run]; f != nil {
		c.endLocked(run, f)
	}
}

func (c *Completions) endLocked(run string, f *followed) {
	if !isDone(f) {
		close(f.done)
	}
	for tok, r := range c.tokens {
		if r == run {
			delete(c.tokens, tok)
		}
	}
}

func isDone(f *followed) bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

// wait returns run's result when this process's worker completed it (and
// forgets the run); ok is false when the run is not followed, its outcome
// is to be read from the history, or ctx or completionsMaxWait ends first.
func (c *Completions) wait(ctx context.Context, run string) (result *commonpb.Payloads, ok bool) {
	if c == nil || run == "" {
		return nil, false
	}
	c.mu.Lock()
	f := c.runs[run]
	c.mu.Unlock()
	if f == nil {
		return nil, false
	}
	timer := time.NewTimer(completionsMaxWait)
	defer timer.Stop()
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, false
	case <-timer.C:
		return nil, false
	}
	c.mu.Lock()
	delete(c.runs, run)
	c.mu.Unlock()
	return f.result, f.closed
}
