package tracing

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// Off by default: no exporter, none, or the SDK disabled.
func TestSetupOffByDefault(t *testing.T) {
	for _, e := range []func(string) string{
		env(),
		env(EnvExporter, "none"),
		env(EnvExporter, "console", EnvDisabled, "true"),
	} {
		shutdown, err := Setup(context.Background(), e, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		if Enabled() {
			t.Errorf("tracing on with %s=%q %s=%q", EnvExporter, e(EnvExporter), EnvDisabled, e(EnvDisabled))
		}
		if ics, _ := ClientInterceptors(); ics != nil {
			t.Errorf("client interceptors while off: %v", ics)
		}
		if WorkerInterceptors(Names{}) != nil {
			t.Error("worker interceptors while off")
		}
		_ = shutdown(context.Background())
	}
}

func TestSetupRejects(t *testing.T) {
	for _, tc := range []struct {
		env  func(string) string
		want string
	}{
		{env(EnvExporter, "zipkin"), `OTEL_TRACES_EXPORTER="zipkin": unsupported exporter`},
		{env(EnvExporter, "otlp", EnvProtocol, "http/json"), `OTEL_EXPORTER_OTLP_PROTOCOL="http/json": unsupported OTLP protocol`},
		{env(EnvExporter, "otlp", EnvTracesProtocol, "thrift"), `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="thrift"`},
	} {
		_, err := Setup(context.Background(), tc.env, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Setup(%s=%q) = %v, want an error containing %q", EnvExporter, tc.env(EnvExporter), err, tc.want)
		}
		if Enabled() {
			t.Error("tracing on after a failed Setup")
		}
	}
}

// console prints spans on the given writer as they end; shutdown turns
// tracing off again.
func TestSetupConsole(t *testing.T) {
	var out bytes.Buffer
	shutdown, err := Setup(context.Background(), env(EnvExporter, "console", EnvCaptureContent, "true"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if !Enabled() || !captureContent() {
		t.Fatalf("Enabled() = %v, captureContent() = %v; want both on", Enabled(), captureContent())
	}
	if ics, err := ClientInterceptors(); err != nil || len(ics) != 1 {
		t.Errorf("ClientInterceptors() = %v, %v; want Temporal's tracing interceptor", ics, err)
	}
	_, span := tracer().Start(context.Background(), "probe")
	span.End()
	if !strings.Contains(out.String(), `"Name":"probe"`) || !strings.Contains(out.String(), `"Value":"assay"`) {
		t.Errorf("console output %q lacks the span or the service name", out.String())
	}
	if err := shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if Enabled() {
		t.Error("tracing still on after shutdown")
	}
}

// An OTLP exporter is built without a collector; spans are sent later.
func TestSetupOTLP(t *testing.T) {
	for _, proto := range []string{"", "http/protobuf", "grpc"} {
		shutdown, err := Setup(context.Background(), env(EnvExporter, "otlp", EnvProtocol, proto), &bytes.Buffer{})
		if err != nil {
			t.Fatalf("protocol %q: %v", proto, err)
		}
		if !Enabled() {
			t.Errorf("protocol %q: tracing off", proto)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // nothing to flush; do not wait for a collector
		_ = shutdown(ctx)
	}
}

// otlp over HTTP sends the spans to OTEL_EXPORTER_OTLP_ENDPOINT by the
// time shutdown returns.
func TestSetupOTLPSends(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+string(b))
		mu.Unlock()
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL) // the exporter reads the process's environment
	shutdown, err := Setup(context.Background(), env(EnvExporter, "otlp"), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	_, span := tracer().Start(context.Background(), "probe-otlp")
	span.End()
	if err := shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.HasPrefix(got[0], "POST /v1/traces application/x-protobuf") || !strings.Contains(got[0], "probe-otlp") {
		t.Errorf("collector received %q, want one OTLP/HTTP export holding the span", got)
	}
}

func TestMessages(t *testing.T) {
	got := messages("assistant", "Two years [1].", "stop")
	want := `[{"role":"assistant","parts":[{"type":"text","content":"Two years [1]."}],"finish_reason":"stop"}]`
	if got != want {
		t.Errorf("messages = %s, want %s", got, want)
	}
}
