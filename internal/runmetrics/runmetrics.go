// Package runmetrics counts how answer runs end — stop reason, duration,
// tokens, cost and the route escalations they made — in Prometheus, once
// per run.
//
// The counting happens in a worker interceptor around AnswerWorkflow:
// when the workflow function returns while not replaying, the run has
// just ended on this worker, so replays (after a restart or a cache
// eviction) never count it again, however many times clients read the
// result. Like Temporal's own SDK metrics, a run whose final workflow task
// is retried on another worker after a crash can be counted twice; that
// is the only case.
package runmetrics

import (
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/wire"
)

// Recorder holds the run metrics.
type Recorder struct {
	runs     *prometheus.CounterVec
	duration *prometheus.HistogramVec
	tokens   *prometheus.CounterVec
	cost     prometheus.Counter
	escalate *prometheus.CounterVec
}

// New registers the run metrics on reg.
func New(reg prometheus.Registerer) (*Recorder, error) {
	r := &Recorder{
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "assay_runs_total",
			Help: "Answer runs that ended, by stop reason.",
		}, []string{"stop_reason"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "assay_run_duration_seconds",
			Help:    "Duration of answer runs inside the workflow (Trace.TotalMS), by stop reason.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"stop_reason"}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "assay_run_tokens_total",
			Help: "Model tokens used by answer runs, by direction (in, out).",
		}, []string{"direction"}),
		cost: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "assay_run_cost_usd_total",
			Help: "Model cost of answer runs in US dollars.",
		}),
		escalate: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "assay_route_escalations_total",
			Help: "Model calls routed to a fallback after a typed failure, by task and failure " +
				"(unavailable: the endpoint was down and llm.fallback: builtin took over).",
		}, []string{"task", "failure"}),
	}
	for _, c := range []prometheus.Collector{r.runs, r.duration, r.tokens, r.cost, r.escalate} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	// Every stop reason shows, at zero, before its first run.
	for _, s := range wire.StopReasons {
		r.runs.WithLabelValues(string(s))
	}
	return r, nil
}

// Observe counts one ended run.
func (r *Recorder) Observe(res wire.AnswerResult) {
	stop := string(res.StopReason)
	r.runs.WithLabelValues(stop).Inc()
	r.duration.WithLabelValues(stop).Observe(res.Trace.TotalMS / 1000)
	r.tokens.WithLabelValues("in").Add(float64(res.Trace.Usage.TokensIn))
	r.tokens.WithLabelValues("out").Add(float64(res.Trace.Usage.TokensOut))
	r.cost.Add(res.Trace.Usage.CostUSD)
	for _, rt := range res.Trace.Routes {
		if failure, ok := strings.CutPrefix(rt.Decision.Rule, "escalate."); ok {
			r.escalate.WithLabelValues(string(rt.Decision.Task), failure).Inc()
		}
	}
}

// Interceptor returns the worker interceptor that observes every
// AnswerWorkflow run as it ends.
func (r *Recorder) Interceptor() interceptor.WorkerInterceptor {
	return &workerInterceptor{r: r}
}

type workerInterceptor struct {
	interceptor.WorkerInterceptorBase
	r *Recorder
}

func (w *workerInterceptor) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	in := &inbound{r: w.r}
	in.Next = next
	return in
}

type inbound struct {
	interceptor.WorkflowInboundInterceptorBase
	r *Recorder
}

func (i *inbound) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	out, err := i.Next.ExecuteWorkflow(ctx, in)
	if err != nil || workflow.IsReplaying(ctx) {
		return out, err
	}
	if res, ok := out.(wire.AnswerResult); ok {
		i.r.Observe(res)
	}
	return out, err
}
