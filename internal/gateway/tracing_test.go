package gateway

import (
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/assay-rag/assay/internal/tracing"
)

// With tracing on, a request's span continues the caller's trace
// (traceparent) and names the request id and the principal; the probes
// are not traced. With tracing off, nothing is recorded.
func TestTracedRequests(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	h := newHarness(t)
	const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

	h.call("GET", "/v1/questions/nope", keyPublic, "", "traceparent", traceparent)
	if n := len(rec.Ended()); n != 0 {
		t.Fatalf("tracing off: %d spans recorded", n)
	}

	restore := tracing.Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)), false)
	defer restore()
	h.call("GET", "/healthz", "", "")
	r := h.call("GET", "/v1/questions/nope", keyPublic, "", "traceparent", traceparent, HeaderRequestID, "req-1")
	spans := rec.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want the one request's (not /healthz's)", len(spans))
	}
	sp := spans[0]
	if sp.Name() != "GET /v1/questions/:id" {
		t.Errorf("span name %q", sp.Name())
	}
	if got := sp.SpanContext().TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace id %s, want the caller's", got)
	}
	if got := sp.Parent().SpanID().String(); got != "00f067aa0ba902b7" {
		t.Errorf("parent span %s, want the caller's", got)
	}
	attrs := map[string]string{}
	for _, kv := range sp.Attributes() {
		attrs[string(kv.Key)] = kv.Value.Emit()
	}
	if attrs[string(tracing.AttrRequestID)] != "req-1" || attrs[string(tracing.AttrPrincipal)] == "" || attrs[string(tracing.AttrPrincipal)] != r.Header.Get(HeaderPrincipal) || attrs["http.response.status_code"] != "404" {
		t.Errorf("span attributes %v: want the request id, the principal and the status", attrs)
	}
}
