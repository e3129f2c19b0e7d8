package e2e

import (
	"context"
	"fmt"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/cli/clitest"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
	"github.com/assay-rag/assay/internal/tracing"
)

// TestTracingSpanTree: one question asked through `assay dev` with
// tracing on is one trace, from the gateway's request through
// StartWorkflow, RunWorkflow and the activities to the GenAI spans inside
// them, and carries no message content unless asked to.
func TestTracingSpanTree(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(tracing.Install(tp, false))
	s := startDev(t, t.TempDir())

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	q, err := s.client().Ask(ctx, api.QuestionRequest{Question: "How long is the X200 warranty?"}, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if q.Status != api.Completed {
		t.Fatalf("question status %s, want completed", q.Status)
	}

	// The worker ends its spans as the run ends, around the response.
	var spans []sdktrace.ReadOnlySpan
	var root sdktrace.ReadOnlySpan
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		spans, root = traceOf(rec.Ended(), "POST /v1/questions")
		if root != nil && has(spans, "RunWorkflow:AnswerWorkflow") && has(spans, "chat ") || time.Now().After(deadline) {
			break
		}
	}
	if root == nil {
		t.Fatalf("no span POST /v1/questions among %v", names(rec.Ended()))
	}
	t.Logf("trace %s: %d spans: %v", root.SpanContext().TraceID(), len(spans), names(spans))
	if len(spans) < 6 {
		t.Errorf("the question's trace has %d spans, want at least 6: %v", len(spans), names(spans))
	}
	for _, want := range []string{"StartWorkflow:AnswerWorkflow", "RunWorkflow:AnswerWorkflow", "RunActivity:Search", "retrieval bleve", "RunActivity:Assess", "RunActivity:Generate", "chat builtin:"} {
		if !has(spans, want) {
			t.Errorf("no span %q in the question's trace: %v", want, names(spans))
		}
	}
	// Every span but the request's has its parent in the trace.
	ids := map[trace.SpanID]bool{}
	for _, sp := range spans {
		ids[sp.SpanContext().SpanID()] = true
	}
	for _, sp := range spans {
		if sp != root && !ids[sp.Parent().SpanID()] {
			t.Errorf("span %q has a parent outside the trace", sp.Name())
		}
	}

	run := find(spans, "RunWorkflow:AnswerWorkflow")
	if got := attr(run, tracing.AttrStopReason); got != string(q.StopReason) {
		t.Errorf("RunWorkflow's %s = %q, want %q", tracing.AttrStopReason, got, q.StopReason)
	}
	ret := find(spans, "retrieval bleve")
	if attr(ret, "gen_ai.operation.name") != "retrieval" || attr(ret, "gen_ai.request.top_k") == "" || !strings.Contains(attr(ret, "gen_ai.retrieval.documents"), `"score"`) {
		t.Errorf("retrieval span attributes %v: want the operation, top_k and the documents' ids and scores", ret.Attributes())
	}
	gen := find(spans, "chat builtin:extractive")
	if gen == nil {
		t.Fatalf("no chat span of the builtin generator: %v", names(spans))
	}
	for _, k := range []attribute.Key{"gen_ai.provider.name", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", tracing.AttrRouteRule} {
		if attr(gen, k) == "" {
			t.Errorf("generate's chat span lacks %s: %v", k, gen.Attributes())
		}
	}
	for _, sp := range spans {
		for _, kv := range sp.Attributes() {
			if kv.Key == "gen_ai.input.messages" || kv.Key == "gen_ai.output.messages" || kv.Key == "gen_ai.retrieval.query.text" {
				t.Errorf("span %q records %s though content capture is off", sp.Name(), kv.Key)
			}
		}
	}

	// With content capture on, the question and the answer are recorded.
	rec2 := tracetest.NewSpanRecorder()
	restore := tracing.Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec2)), true)
	defer restore()
	q, err = s.client().Ask(ctx, api.QuestionRequest{Question: "How long is the X200 warranty?"}, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var gen2 sdktrace.ReadOnlySpan
	for deadline := time.Now().Add(10 * time.Second); gen2 == nil && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		gen2 = find(rec2.Ended(), "chat builtin:extractive")
	}
	if in := attr(gen2, "gen_ai.input.messages"); !strings.Contains(in, "X200 warranty") {
		t.Errorf("with content capture the generate span's input messages are %q, want the question", in)
	}
	if out := attr(gen2, "gen_ai.output.messages"); out == "" || !strings.Contains(out, `"role":"assistant"`) {
		t.Errorf("with content capture the generate span's output messages are %q, want the answer", out)
	}
}

// TestTracingConsoleDev: OTEL_TRACES_EXPORTER=console prints the spans
// of `assay dev`, whose embedded Temporal server (which refuses that
// value) still starts.
func TestTracingConsoleDev(t *testing.T) {
	bin := devservertest.Binary(t)
	t.Setenv(tracing.EnvExporter, "console") // the dev server child sees it too
	httpPort, temporalPort := stacktest.FreePort(t), stacktest.FreePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	stderr := &syncBuffer{}
	stop := clitest.Start(context.Background(), t, func(k string) string {
		if k == tracing.EnvExporter {
			return "console"
		}
		return ""
	}, stderr, "assay", "dev",
		"--data-dir", t.TempDir(),
		"--http-addr", fmt.Sprintf("127.0.0.1:%d", httpPort),
		"--temporal-port", strconv.Itoa(temporalPort),
		"--ui-port", "0",
		"--temporal-bin", bin,
		"--corpus", "../../testdata/hollin/corpus.jsonl")
	waitGateway(t, base, stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := &apiclient.Client{BaseURL: base}
	if _, err := c.Ask(ctx, api.QuestionRequest{Question: "How long is the X200 warranty?"}, 30*time.Second); err != nil {
		t.Fatalf("ask: %v\n%s", err, stderr.String())
	}
	stop()
	out := stderr.String()
	for _, want := range []string{`"Name":"POST /v1/questions"`, `"Name":"RunWorkflow:AnswerWorkflow"`, `"Name":"retrieval bleve"`} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("stderr:\n%s", tailLines(out, 40))
	}
}

// traceOf is the spans of the trace whose root is named root.
func traceOf(all []sdktrace.ReadOnlySpan, root string) ([]sdktrace.ReadOnlySpan, sdktrace.ReadOnlySpan) {
	r := find(all, root)
	if r == nil {
		return nil, nil
	}
	var out []sdktrace.ReadOnlySpan
	for _, sp := range all {
		if sp.SpanContext().TraceID() == r.SpanContext().TraceID() {
			out = append(out, sp)
		}
	}
	return out, r
}

// find is the first span whose name starts with prefix.
func find(spans []sdktrace.ReadOnlySpan, prefix string) sdktrace.ReadOnlySpan {
	for _, sp := range spans {
		if strings.HasPrefix(sp.Name(), prefix) {
			return sp
		}
	}
	return nil
}

func has(spans []sdktrace.ReadOnlySpan, prefix string) bool { return find(spans, prefix) != nil }

func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, sp := range spans {
		out = append(out, sp.Name())
	}
	slices.Sort(out)
	return out
}

func attr(sp sdktrace.ReadOnlySpan, k attribute.Key) string {
	if sp == nil {
		return ""
	}
	for _, kv := range sp.Attributes() {
		if kv.Key == k {
			return kv.Value.Emit()
		}
	}
	return ""
}

func tailLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
