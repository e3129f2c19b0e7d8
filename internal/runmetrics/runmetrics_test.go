package runmetrics

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// answer stands in for AnswerWorkflow: it ends with the stop reason asked.
func answer(_ workflow.Context, in wire.AnswerInput) (wire.AnswerResult, error) {
	return wire.AnswerResult{StopReason: wire.StopReason(in.Question), Trace: wire.Trace{
		TotalMS: 250, Usage: wire.Usage{TokensIn: 100, TokensOut: 20, CostUSD: 0.01},
		Routes: []wire.RouteRecord{
			{Decision: router.Decision{Task: router.Assess, Rule: "task.small"}, Outcome: "assay.unavailable"},
			{Decision: router.Decision{Task: router.Assess, Rule: "escalate.unavailable"}, Outcome: "ok"},
			{Decision: router.Decision{Task: router.Generate, Rule: "task.small"}, Outcome: "ok"},
		},
	}}, nil
}

// notAnswer returns something else; it must not be counted.
func notAnswer(_ workflow.Context) (string, error) { return "x", nil }

func TestInterceptorCountsRuns(t *testing.T) {
	reg := prometheus.NewRegistry()
	r, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	var s testsuite.WorkflowTestSuite
	for _, stop := range []string{"answered", "answered", "insufficient_context"} {
		env := s.NewTestWorkflowEnvironment()
		env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{r.Interceptor()}})
		env.RegisterWorkflowWithOptions(answer, workflow.RegisterOptions{Name: "AnswerWorkflow"})
		env.ExecuteWorkflow("AnswerWorkflow", wire.AnswerInput{Question: stop})
		if err := env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
	}
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{r.Interceptor()}})
	env.RegisterWorkflow(notAnswer)
	env.ExecuteWorkflow(notAnswer)

	tests := []struct {
		name string
		c    prometheus.Collector
		want float64
	}{
		{"runs answered", r.runs.WithLabelValues("answered"), 2},
		{"runs insufficient_context", r.runs.WithLabelValues("insufficient_context"), 1},
		{"runs cancelled", r.runs.WithLabelValues("cancelled"), 0},
		{"tokens in", r.tokens.WithLabelValues("in"), 300},
		{"tokens out", r.tokens.WithLabelValues("out"), 60},
		{"cost", r.cost, 0.03},
		{"assess fell back (unavailable)", r.escalate.WithLabelValues("assess", "unavailable"), 3},
		{"generate did not", r.escalate.WithLabelValues("generate", "unavailable"), 0},
	}
	for _, tt := range tests {
		if got := testutil.ToFloat64(tt.c); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("%s = %g, want %g", tt.name, got, tt.want)
		}
	}
	if n := testutil.CollectAndCount(r.duration); n != 2 {
		t.Errorf("duration series = %d, want 2 (answered, insufficient_context)", n)
	}
}
