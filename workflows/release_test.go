package workflows

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/wire"
)

// fakeRollout stands in for package rollout's activities: gate results
// per release, canary windows in turn, and the states set.
type fakeRollout struct {
	gate    map[string]GateSummary
	windows []WindowOutput
	states  []string
}

func (f *fakeRollout) gateRun(_ context.Context, in GateInput) (GateSummary, error) {
	return f.gate[in.Release], nil
}

func (f *fakeRollout) state(_ context.Context, in ReleaseStateInput) error {
	f.states = append(f.states, in.State+":"+itoa(in.Share))
	return nil
}

func (f *fakeRollout) window(_ context.Context, _ WindowInput) (WindowOutput, error) {
	w := f.windows[0]
	if len(f.windows) > 1 {
		f.windows = f.windows[1:]
	}
	return w, nil
}

func itoa(n int) string { return fmt.Sprintf("%03d", n) }

func newReleaseEnv(f *fakeRollout) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(ReleaseWorkflow, workflow.RegisterOptions{Name: ReleaseWorkflowName})
	env.RegisterActivityWithOptions(f.gateRun, activity.RegisterOptions{Name: ReleaseGateActivity})
	env.RegisterActivityWithOptions(f.state, activity.RegisterOptions{Name: ReleaseStateActivity})
	env.RegisterActivityWithOptions(f.window, activity.RegisterOptions{Name: ReleaseWindowActivity})
	return env
}

func releaseInput() ReleaseInput {
	return ReleaseInput{
		Release: "cand", Stable: "stable", Questions: []string{`{"id": "q1", "question": "x", "relevant": []}`},
		Steps: []int{5, 50, 100}, StepRuns: 10, Poll: time.Second, StepTimeout: time.Hour,
		Thresholds: DefaultReleaseThresholds(),
	}
}

var goodGate = GateSummary{RightSourceCited: 0.9, Refusal: 1, CitationValidity: 1, P95MS: 100}

func runRelease(t *testing.T, f *fakeRollout, in ReleaseInput, signals ...func(*testsuite.TestWorkflowEnvironment)) ReleaseProgress {
	t.Helper()
	env := newReleaseEnv(f)
	for _, s := range signals {
		s(env)
	}
	env.ExecuteWorkflow(ReleaseWorkflowName, in)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow: completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	var p ReleaseProgress
	if err := env.GetWorkflowResult(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReleaseGateRejects(t *testing.T) {
	bad := goodGate
	bad.RightSourceCited = 0.5
	f := &fakeRollout{gate: map[string]GateSummary{"cand": bad, "stable": goodGate}}
	p := runRelease(t, f, releaseInput())
	if p.State != stateRejected || !strings.Contains(p.Reason, "right_source_cited 0.50 < stable 0.90 - right_source_drop 0.05") {
		t.Fatalf("progress %+v, want rejected naming right_source_cited", p)
	}
	if want := []string{"gating:000", "rejected:000"}; !slices.Equal(f.states, want) {
		t.Fatalf("states %v, want %v: a rejected candidate takes no traffic", f.states, want)
	}
}

func TestReleaseGateLeakRejects(t *testing.T) {
	leaky := goodGate
	leaky.Leaks = 1
	f := &fakeRollout{gate: map[string]GateSummary{"cand": leaky, "stable": goodGate}}
	if p := runRelease(t, f, releaseInput()); p.State != stateRejected || !strings.Contains(p.Reason, "leaks 1 > max_leaks 0") {
		t.Fatalf("progress %+v, want rejected for a leak", p)
	}
}

func TestReleasePromotesThroughEveryStep(t *testing.T) {
	ok := WindowOutput{Candidate: WindowStats{Runs: 10, Insufficient: 1, P95MS: 90}, Stable: WindowStats{Runs: 40, Insufficient: 4, P95MS: 100}}
	few := WindowOutput{Candidate: WindowStats{Runs: 3}, Stable: WindowStats{Runs: 20}}
	f := &fakeRollout{gate: map[string]GateSummary{"cand": goodGate, "stable": goodGate}, windows: []WindowOutput{few, ok, ok, ok}}
	p := runRelease(t, f, releaseInput())
	if p.State != statePromoted || len(p.Steps) != 3 {
		t.Fatalf("progress %+v, want promoted after 3 steps", p)
	}
	if want := []string{"gating:000", "canary:005", "canary:050", "canary:100", "promoted:100"}; !slices.Equal(f.states, want) {
		t.Fatalf("states %v, want %v", f.states, want)
	}
}

func TestReleaseCanaryRollsBack(t *testing.T) {
	bad := WindowOutput{Candidate: WindowStats{Runs: 10, Insufficient: 6}, Stable: WindowStats{Runs: 190, Insufficient: 10}}
	f := &fakeRollout{gate: map[string]GateSummary{"cand": goodGate, "stable": goodGate}, windows: []WindowOutput{bad}}
	p := runRelease(t, f, releaseInput())
	if p.State != stateRolledBack || !strings.Contains(p.Reason, "canary at 5%: insufficient_context rate 0.60 (6 of 10) > stable 0.05 (10 of 190) + 0.10") {
		t.Fatalf("progress %+v, want rolled back at the first step naming insufficient_context", p)
	}
	if want := []string{"gating:000", "canary:005", "rolled_back:000"}; !slices.Equal(f.states, want) {
		t.Fatalf("states %v, want %v", f.states, want)
	}
}

func TestReleaseAbortAndApprove(t *testing.T) {
	few := WindowOutput{Candidate: WindowStats{Runs: 1}, Stable: WindowStats{Runs: 20}}
	f := &fakeRollout{gate: map[string]GateSummary{"cand": goodGate, "stable": goodGate}, windows: []WindowOutput{few}}
	in := releaseInput()
	in.Approve = true
	p := runRelease(t, f, in, func(env *testsuite.TestWorkflowEnvironment) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalApprove, nil) }, time.Minute)
		env.RegisterDelayedCallback(func() {
			var st ReleaseProgress
			v, err := env.QueryWorkflow(QueryReleaseStatus)
			if err != nil || v.Get(&st) != nil || st.State != stateCanary || st.Share != 5 {
				t.Errorf("status query at 10 minutes: %+v, %v; want canary at 5%%", st, err)
			}
			env.SignalWorkflow(SignalAbort, nil)
		}, 10*time.Minute)
	})
	if p.State != stateRolledBack || p.Reason != "aborted by the operator" {
		t.Fatalf("progress %+v, want rolled back by the operator", p)
	}
}

func TestWindowVerdictChecksP95AndCost(t *testing.T) {
	th := DefaultReleaseThresholds()
	slow := WindowOutput{Candidate: WindowStats{Runs: 10, P95MS: 5000}, Stable: WindowStats{Runs: 10, P95MS: 1000}}
	if ok, reason := WindowVerdict(slow, th); ok || !strings.Contains(reason, "p95 5000 ms > stable 1000 ms") {
		t.Fatalf("slow candidate: %v %q", ok, reason)
	}
	dear := WindowOutput{Candidate: WindowStats{Runs: 10, CostUSD: 1, CostRuns: 10}, Stable: WindowStats{Runs: 10, CostUSD: 0.1, CostRuns: 10}}
	if ok, reason := WindowVerdict(dear, th); ok || !strings.Contains(reason, "cost per question") {
		t.Fatalf("dear candidate: %v %q", ok, reason)
	}
}

// TestReleaseReplay replays recorded ReleaseWorkflow histories
// (testdata/release, written by the end-to-end release tests with
// ASSAY_RECORD_HISTORIES=dir): a gate rejection, a canary rollback, a
// promotion through the canary, and one across a restart of the stack.
func TestReleaseReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "release", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("%d recorded ReleaseWorkflow histories in testdata/release, want 4", len(files))
	}
	logger := tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(ReleaseWorkflow, workflow.RegisterOptions{Name: ReleaseWorkflowName})
			if err := r.ReplayWorkflowHistoryFromJSONFile(logger, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}

// TestStaticDetailsNameTheRelease: the Web UI's static details of a run
// name its release, and of a run without one say nothing of releases.
func TestStaticDetailsNameTheRelease(t *testing.T) {
	in := wire.AnswerInput{Principal: wire.Principal{ID: "p"}, Release: "fixed"}
	if got := StaticDetails(in); !strings.Contains(got, "**release** `fixed`") {
		t.Errorf("StaticDetails = %q, want the release", got)
	}
	in.Release = ""
	if got := StaticDetails(in); strings.Contains(got, "release") {
		t.Errorf("StaticDetails = %q names a release", got)
	}
}
