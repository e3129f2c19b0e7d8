package tracing

import (
	"context"
	"encoding/json"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	otelcontrib "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// assay's own span attributes, beside the GenAI conventions'.
const (
	AttrRouteRule  = attribute.Key("assay.route.rule")
	AttrRouteClass = attribute.Key("assay.route.class")
	AttrStopReason = attribute.Key("assay.stop_reason")
	AttrStopDetail = attribute.Key("assay.stop_detail")
	AttrAttempts   = attribute.Key("assay.attempts")
	AttrRequestID  = attribute.Key("assay.request_id")
	AttrPrincipal  = attribute.Key("assay.principal")
	AttrRun        = attribute.Key("assay.run")
)

// Provider names of the GenAI spans: the builtin models, and an
// OpenAI-compatible model endpoint.
const (
	ProviderBuiltin = "assay.builtin"
	ProviderOpenAI  = "openai"
)

// ClientInterceptors are the Temporal client's interceptors: Temporal's
// tracing interceptor when tracing is on (none when off). Given to
// client.Options, it also traces every worker built on that client:
// StartWorkflow, RunWorkflow, StartActivity and RunActivity spans, local
// activities included, the trace context riding in Temporal headers.
func ClientInterceptors() ([]interceptor.ClientInterceptor, error) {
	if !Enabled() {
		return nil, nil
	}
	ic, err := otelcontrib.NewTracingInterceptor(otelcontrib.TracerOptions{
		Tracer:               tracer(),
		DisableQueryTracing:  true, // the gateway polls progress queries; they would bury the run
		DisableSignalTracing: false,
	})
	if err != nil {
		return nil, err
	}
	return []interceptor.ClientInterceptor{ic}, nil
}

// Names are what the GenAI spans call the worker's index.
type Names struct {
	// Index names the index searched (gen_ai.data_source.id).
	Index string
}

// WorkerInterceptors are the worker's own interceptors when tracing is on
// (none when off): a `retrieval {index}` span inside every Search and a
// `chat {model}` span inside every Assess and Generate, and the stop
// reason on the RunWorkflow span of AnswerWorkflow. They go after the
// client's tracing interceptor, inside its spans.
func WorkerInterceptors(n Names) []interceptor.WorkerInterceptor {
	if !Enabled() {
		return nil
	}
	return []interceptor.WorkerInterceptor{&genAI{names: n}}
}

type genAI struct {
	interceptor.WorkerInterceptorBase
	names Names
}

func (g *genAI) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &genAIActivity{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, names: g.names}
}

func (g *genAI) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &stopReason{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}}
}

type genAIActivity struct {
	interceptor.ActivityInboundInterceptorBase
	names Names
}

func (a *genAIActivity) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	arg := func() any {
		if len(in.Args) == 0 {
			return nil
		}
		return in.Args[0]
	}
	switch v := arg().(type) {
	case wire.SearchInput:
		return a.retrieval(ctx, in, v)
	case wire.AssessInput:
		return a.chat(ctx, in, v.Route, v.Question, func(out any, span trace.Span) {
			if o, ok := out.(wire.AssessOutput); ok {
				spent(span, o.Usage)
				if captureContent() {
					span.SetAttributes(semconv.GenAIOutputMessagesKey.String(messages("assistant", o.Assessment.Reason, "")))
				}
			}
		})
	case wire.GenerateInput:
		return a.chat(ctx, in, v.Route, v.Question, func(out any, span trace.Span) {
			if o, ok := out.(wire.GenerateOutput); ok {
				ans := o.Answer
				spent(span, ans.Spent())
				if ans.FinishReason != "" {
					span.SetAttributes(semconv.GenAIResponseFinishReasons(ans.FinishReason))
				}
				if captureContent() {
					span.SetAttributes(semconv.GenAIOutputMessagesKey.String(messages("assistant", ans.Text, ans.FinishReason)))
				}
			}
		})
	}
	return a.Next.ExecuteActivity(ctx, in)
}

// retrieval wraps a search in a `retrieval {index}` span with the k asked
// for and the chunk ids and scores returned.
func (a *genAIActivity) retrieval(ctx context.Context, in *interceptor.ExecuteActivityInput, s wire.SearchInput) (any, error) {
	ctx, span := tracer().Start(ctx, "retrieval "+a.names.Index, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		semconv.GenAIOperationNameRetrieval,
		semconv.GenAIDataSourceID(a.names.Index),
		semconv.GenAIRequestTopK(float64(s.K)),
	))
	defer span.End()
	if captureContent() {
		span.SetAttributes(semconv.GenAIRetrievalQueryTextKey.String(s.Query))
	}
	out, err := a.Next.ExecuteActivity(ctx, in)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
		return out, err
	}
	if o, ok := out.(wire.SearchOutput); ok {
		type doc struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
		}
		docs := make([]doc, len(o.Hits))
		ids := make([]string, len(o.Hits))
		scores := make([]float64, len(o.Hits))
		for i, h := range o.Hits {
			docs[i] = doc{h.ChunkID, h.Score}
			ids[i], scores[i] = h.ChunkID, h.Score
		}
		b, _ := json.Marshal(docs)
		span.SetAttributes(
			semconv.GenAIRetrievalDocumentsKey.String(string(b)),
			attribute.StringSlice("assay.retrieval.ids", ids),
			attribute.Float64Slice("assay.retrieval.scores", scores),
		)
	}
	return out, nil
}

// chat wraps a model call routed by d in a `chat {model}` span with the
// provider, the route's rule and what done reads from the result (tokens,
// finish reason).
func (a *genAIActivity) chat(ctx context.Context, in *interceptor.ExecuteActivityInput, d router.Decision, question string, done func(any, trace.Span)) (any, error) {
	provider := ProviderOpenAI
	if d.IsBuiltin() {
		provider = ProviderBuiltin
	}
	ctx, span := tracer().Start(ctx, "chat "+d.Model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		semconv.GenAIOperationNameChat,
		semconv.GenAIProviderNameKey.String(provider),
		semconv.GenAIRequestModel(d.Model),
		AttrRouteRule.String(d.Rule),
		AttrRouteClass.String(string(d.Route)),
		attribute.String("assay.task", string(d.Task)),
	))
	defer span.End()
	if captureContent() {
		span.SetAttributes(semconv.GenAIInputMessagesKey.String(messages("user", question, "")))
	}
	out, err := a.Next.ExecuteActivity(ctx, in)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
		return out, err
	}
	done(out, span)
	return out, nil
}

// spent records a model call's model and tokens.
func spent(span trace.Span, s wire.Spent) {
	if s.Model != "" {
		span.SetAttributes(semconv.GenAIResponseModel(s.Model))
	}
	span.SetAttributes(semconv.GenAIUsageInputTokens(s.TokensIn), semconv.GenAIUsageOutputTokens(s.TokensOut))
}

// messages is one message in the GenAI conventions' JSON form.
func messages(role, text, finish string) string {
	type part struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	m := struct {
		Role         string `json:"role"`
		Parts        []part `json:"parts"`
		FinishReason string `json:"finish_reason,omitempty"`
	}{role, []part{{"text", text}}, finish}
	b, _ := json.Marshal([]any{m})
	return string(b)
}

// stopReason puts an AnswerWorkflow's stop reason on its RunWorkflow span.
type stopReason struct {
	interceptor.WorkflowInboundInterceptorBase
}

func (s *stopReason) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	out, err := s.Next.ExecuteWorkflow(ctx, in)
	if res, ok := out.(wire.AnswerResult); ok {
		if span, ok := otelcontrib.SpanFromWorkflowContext(ctx); ok {
			span.SetAttributes(
				AttrStopReason.String(string(res.StopReason)),
				AttrStopDetail.String(strings.TrimSpace(res.Trace.StopDetail)),
				AttrAttempts.Int(len(res.Trace.Attempts)),
				AttrRequestID.String(res.RequestID),
			)
		}
	}
	return out, err
}
