package workflows

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/internal/wire"
)

// fakeAnswers stands in for AnswerWorkflow in batch tests: each question
// takes a simulated minute, ends with the stop reason its text names
// ("... stop:insufficient_context"), fails when it says "fail", and turns
// cancellation into the cancelled stop as AnswerWorkflow does. It records
// what the batch asked of it.
type fakeAnswers struct {
	running, maxRunning int
	calls               []wire.AnswerInput
}

func (f *fakeAnswers) run(ctx workflow.Context, in wire.AnswerInput) (wire.AnswerResult, error) {
	f.calls = append(f.calls, in)
	f.running++
	f.maxRunning = max(f.maxRunning, f.running)
	defer func() { f.running-- }()
	if err := workflow.Sleep(ctx, time.Minute); err != nil {
		if temporal.IsCanceledError(err) {
			return wire.AnswerResult{RequestID: in.RequestID, StopReason: wire.Cancelled}, nil
		}
		return wire.AnswerResult{}, err
	}
	if strings.Contains(in.Question, "fail") {
		return wire.AnswerResult{}, temporal.NewNonRetryableApplicationError("boom", "test", nil)
	}
	stop := wire.Answered
	if _, s, ok := strings.Cut(in.Question, "stop:"); ok {
		stop = wire.StopReason(s)
	}
	n := len(f.calls)
	return wire.AnswerResult{RequestID: in.RequestID, StopReason: stop, Trace: wire.Trace{
		TotalMS: float64(10 * n), Usage: wire.Usage{TokensIn: 100, TokensOut: 10, CostUSD: 0.001},
	}}, nil
}

func newBatchEnv(t *testing.T, f *fakeAnswers) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(BatchWorkflow, workflow.RegisterOptions{Name: BatchWorkflowName})
	env.RegisterWorkflowWithOptions(f.run, workflow.RegisterOptions{Name: AnswerWorkflowName})
	env.RegisterActivity(&activities.Activities{}) // VerifyPrincipal, with signing off
	return env
}

func questions(texts ...string) []BatchQuestion {
	qs := make([]BatchQuestion, len(texts))
	for i, t := range texts {
		qs[i] = BatchQuestion{ID: fmt.Sprintf("c%d", i+1), Question: t}
	}
	return qs
}

var batchPrincipal = wire.Principal{ID: "brook-street", Groups: []string{"public", "partners"}}

func batchInput(qs []BatchQuestion, conc, continueAfter int) BatchInput {
	return BatchInput{
		BatchID:   "b1",
		Principal: batchPrincipal,
		Questions: qs,
		Template: wire.AnswerInput{
			// A template principal must never win over the submitter's.
			Principal: wire.Principal{ID: "intruder", Groups: []string{"staff"}},
			Budget:    wire.Budget{MaxAttempts: 3, Deadline: time.Minute},
			Threshold: 0.5, TopK: 5,
		},
		Concurrency:   conc,
		ContinueAfter: continueAfter,
	}
}

func TestBatchAnswersEveryQuestion(t *testing.T) {
	f := &fakeAnswers{}
	env := newBatchEnv(t, f)
	in := batchInput(questions("a", "b stop:insufficient_context", "c", "d fail", "e", "f stop:repeated_query", "g"), 3, 0)
	env.ExecuteWorkflow(BatchWorkflow, in)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("BatchWorkflow error: %v", err)
	}
	var res BatchResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if len(f.calls) != 7 {
		t.Errorf("%d child runs, want 7", len(f.calls))
	}
	if f.maxRunning != 3 {
		t.Errorf("at most %d questions ran at once, want exactly the concurrency 3", f.maxRunning)
	}
	for _, c := range f.calls {
		if !cmp.Equal(c.Principal, batchPrincipal) {
			t.Errorf("question %s ran as %+v, want the submitter %+v", c.RequestID, c.Principal, batchPrincipal)
		}
		if c.Budget.MaxAttempts != 3 || c.TopK != 5 || !strings.HasPrefix(c.RequestID, "b1-q") {
			t.Errorf("child input %+v does not follow the template", c)
		}
	}
	agg := res.Status.Aggregate
	wantStops := map[wire.StopReason]int{wire.Answered: 4, wire.InsufficientContext: 1, wire.RepeatedQuery: 1}
	if diff := cmp.Diff(wantStops, agg.StopReasons); diff != "" {
		t.Errorf("stop reasons (-want +got):\n%s", diff)
	}
	if agg.Total != 7 || agg.Done != 6 || agg.Failed != 1 || agg.Pending != 0 || agg.Running != 0 {
		t.Errorf("aggregate counts = %+v, want 7 total, 6 done, 1 failed", agg)
	}
	if agg.TokensIn != 600 || agg.TokensOut != 60 {
		t.Errorf("tokens = %d/%d, want 600/60", agg.TokensIn, agg.TokensOut)
	}
	if res.Status.State != BatchCompleted || res.Status.Runs != 1 {
		t.Errorf("state %s after %d runs, want completed after 1", res.Status.State, res.Status.Runs)
	}
	for i, it := range res.Items {
		if it.ID != fmt.Sprintf("c%d", i+1) || it.QuestionID != ChildID("b1", i) {
			t.Errorf("item %d = %+v; want client id c%d and question id %s", i, it, i+1, ChildID("b1", i))
		}
	}
	if it := res.Items[3]; it.Status != wire.ItemFailed || !strings.Contains(it.Error, "the run failed") || strings.Contains(it.Error, "RunID") {
		t.Errorf("failing question: %+v, want status failed with a public error (no run ids)", it)
	}
}

// runToCompletion executes a batch, following continue-as-new through new
// environments as the server would, and returns the final result and the
// number of runs.
func runToCompletion(t *testing.T, f *fakeAnswers, in BatchInput) (BatchResult, int) {
	t.Helper()
	for runs := 1; runs < 100; runs++ {
		env := newBatchEnv(t, f)
		env.ExecuteWorkflow(BatchWorkflow, in)
		err := env.GetWorkflowError()
		var can *workflow.ContinueAsNewError
		if errors.As(err, &can) {
			if can.WorkflowType.Name != BatchWorkflowName {
				t.Fatalf("continued as %s, want BatchWorkflow", can.WorkflowType.Name)
			}
			in = BatchInput{}
			if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &in); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("run %d: %v", runs, err)
		}
		var res BatchResult
		if err := env.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
		return res, runs
	}
	t.Fatal("batch never completed")
	return BatchResult{}, 0
}

func TestBatchContinuesAsNew(t *testing.T) {
	f := &fakeAnswers{}
	in := batchInput(questions("a", "b", "c", "d", "e", "f", "g"), 2, 3)
	res, runs := runToCompletion(t, f, in)
	if runs != 3 || res.Status.Runs != 3 {
		t.Errorf("7 questions, 3 per run: %d runs (status says %d), want 3", runs, res.Status.Runs)
	}
	if len(f.calls) != 7 {
		t.Errorf("%d child runs, want 7 (none repeated across runs)", len(f.calls))
	}
	seen := map[string]bool{}
	for _, c := range f.calls {
		if seen[c.RequestID] {
			t.Errorf("question %s started twice", c.RequestID)
		}
		seen[c.RequestID] = true
	}
	if agg := res.Status.Aggregate; agg.Done != 7 || agg.StopReasons[wire.Answered] != 7 {
		t.Errorf("aggregate after continue-as-new = %+v, want 7 answered", agg)
	}
	if res.Status.StartedAt.IsZero() {
		t.Errorf("StartedAt lost across continue-as-new")
	}
}

func TestBatchCancel(t *testing.T) {
	f := &fakeAnswers{}
	env := newBatchEnv(t, f)
	env.RegisterDelayedCallback(env.CancelWorkflow, 30*time.Second)
	env.ExecuteWorkflow(BatchWorkflow, batchInput(questions("a", "b", "c", "d", "e", "f"), 2, 0))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("cancelled batch error: %v; want it to complete with state cancelled", err)
	}
	var res BatchResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status.State != BatchCancelled {
		t.Errorf("state = %s, want cancelled", res.Status.State)
	}
	if len(f.calls) != 2 {
		t.Errorf("%d child runs, want the 2 started before the cancel", len(f.calls))
	}
	want := []wire.BatchItemStatus{wire.ItemDone, wire.ItemDone, wire.ItemCancelled, wire.ItemCancelled, wire.ItemCancelled, wire.ItemCancelled}
	for i, it := range res.Items {
		if it.Status != want[i] {
			t.Errorf("item %d status %s, want %s", i, it.Status, want[i])
		}
		if i < 2 && it.StopReason != wire.Cancelled {
			t.Errorf("running item %d ended with %s, want the cancelled stop", i, it.StopReason)
		}
	}
	if agg := res.Status.Aggregate; agg.StopReasons[wire.Cancelled] != 2 || agg.Cancelled != 4 {
		t.Errorf("aggregate = %+v, want 2 cancelled stops and 4 cancelled before start", agg)
	}
}

func TestBatchQueriesWhileRunning(t *testing.T) {
	f := &fakeAnswers{}
	env := newBatchEnv(t, f)
	var status BatchStatus
	var items []BatchItem
	var qerr error
	// At 90s the first two questions are done and the next two running.
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryBatchStatus)
		if err != nil {
			qerr = err
			return
		}
		qerr = v.Get(&status)
		v, err = env.QueryWorkflow(QueryBatchItems, 1, 2)
		if err != nil {
			qerr = err
			return
		}
		qerr = v.Get(&items)
	}, 90*time.Second)
	env.ExecuteWorkflow(BatchWorkflow, batchInput(questions("a", "b", "c", "d", "e"), 2, 0))
	if qerr != nil {
		t.Fatalf("query: %v", qerr)
	}
	agg := status.Aggregate
	if status.State != BatchRunning || agg.Done != 2 || agg.Running != 2 || agg.Pending != 1 {
		t.Errorf("status at 90s = %s %+v; want running with 2 done, 2 running, 1 pending", status.State, agg)
	}
	if len(items) != 2 || items[0].ID != "c2" || items[0].Status != wire.ItemDone || items[1].Status != wire.ItemRunning {
		t.Errorf("items page (1, 2) = %+v; want c2 done, c3 running", items)
	}
}

func TestBatchRejectsEmpty(t *testing.T) {
	env := newBatchEnv(t, &fakeAnswers{})
	env.ExecuteWorkflow(BatchWorkflow, batchInput(nil, 2, 0))
	if err := env.GetWorkflowError(); err == nil {
		t.Fatal("empty batch: no error")
	}
}

func TestAggregate(t *testing.T) {
	done := func(ms float64, stop wire.StopReason) BatchItem {
		return BatchItem{Status: wire.ItemDone, StopReason: stop, LatencyMS: ms, Usage: wire.Usage{TokensIn: 1, CostUSD: 0.5}}
	}
	var twenty []BatchItem
	for i := 20; i >= 1; i-- {
		twenty = append(twenty, done(float64(i), wire.Answered))
	}
	tests := []struct {
		name  string
		items []BatchItem
		want  wire.BatchAggregate
	}{
		{"empty", nil, wire.BatchAggregate{StopReasons: map[wire.StopReason]int{}}},
		{"one", []BatchItem{done(7, wire.Answered)}, wire.BatchAggregate{Total: 1, Done: 1,
			StopReasons: map[wire.StopReason]int{wire.Answered: 1}, LatencyP50MS: 7, LatencyP95MS: 7, Usage: wire.Usage{TokensIn: 1, CostUSD: 0.5}}},
		// Nearest rank over 1..20: p50 is the 10th value, p95 the 19th.
		{"twenty", twenty, wire.BatchAggregate{Total: 20, Done: 20,
			StopReasons: map[wire.StopReason]int{wire.Answered: 20}, LatencyP50MS: 10, LatencyP95MS: 19, Usage: wire.Usage{TokensIn: 20, CostUSD: 10}}},
		{"mixed states", []BatchItem{done(5, wire.RepeatedQuery), {Status: wire.ItemPending}, {Status: wire.ItemRunning},
			{Status: wire.ItemFailed}, {Status: wire.ItemCancelled}},
			wire.BatchAggregate{Total: 5, Done: 1, Pending: 1, Running: 1, Failed: 1, Cancelled: 1,
				StopReasons: map[wire.StopReason]int{wire.RepeatedQuery: 1}, LatencyP50MS: 5, LatencyP95MS: 5, Usage: wire.Usage{TokensIn: 1, CostUSD: 0.5}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Aggregate(tt.items)); diff != "" {
			t.Errorf("Aggregate(%s) mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestBatchReplay replays BatchWorkflow histories recorded on a dev
// server (testdata/batch: a first run that continued as new, the run that
// completed, and a batch cancelled while its questions ran) against the
// current code. A failure means a change would break batches in flight.
func TestBatchReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "batch", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("found %d recorded batch histories, want 3", len(files))
	}
	logger := tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(BatchWorkflow, workflow.RegisterOptions{Name: BatchWorkflowName})
			if err := r.ReplayWorkflowHistoryFromJSONFile(logger, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}

// TestBatchQuestionPrincipal: a question's own principal (set only by
// trusted Temporal clients such as the evaluator) wins over the batch's;
// questions without one run as the batch's principal.
func TestBatchQuestionPrincipal(t *testing.T) {
	f := &fakeAnswers{}
	env := newBatchEnv(t, f)
	staff := wire.Principal{ID: "eval:staff", Groups: []string{"public", "staff"}}
	qs := questions("a", "b")
	qs[1].Principal = &staff
	env.ExecuteWorkflow(BatchWorkflow, batchInput(qs, 1, 0))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("BatchWorkflow error: %v", err)
	}
	if len(f.calls) != 2 {
		t.Fatalf("%d child runs, want 2", len(f.calls))
	}
	if got := f.calls[0].Principal; !cmp.Equal(got, batchPrincipal) {
		t.Errorf("question without a principal ran as %+v, want the batch's %+v", got, batchPrincipal)
	}
	if got := f.calls[1].Principal; !cmp.Equal(got, staff) {
		t.Errorf("question with its own principal ran as %+v, want %+v", got, staff)
	}
}
