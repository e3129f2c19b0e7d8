// Package tracing is assay's OpenTelemetry tracing: off by default,
// configured by the standard OTEL_* environment variables, it follows one
// question from the gateway's HTTP request through Temporal's
// StartWorkflow, RunWorkflow and each activity (Temporal's tracing
// interceptor, go.temporal.io/sdk/contrib/opentelemetry) to the retrieval
// and model calls inside the activities, which get spans named by the
// OpenTelemetry GenAI semantic conventions (`retrieval {index}`,
// `chat {model}`).
//
// Setup reads the environment once per process:
//
//	OTEL_TRACES_EXPORTER    otlp, console (spans as JSON on stderr) or none;
//	                        unset means none: tracing is off
//	OTEL_SDK_DISABLED=true  off, whatever the exporter
//	OTEL_EXPORTER_OTLP_PROTOCOL (or _TRACES_PROTOCOL)
//	                        http/protobuf (default) or grpc
//	OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT, ... (read by the
//	                        OTLP exporters), OTEL_SERVICE_NAME (default
//	                        assay), OTEL_RESOURCE_ATTRIBUTES,
//	                        OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*
//	OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true
//	                        also record the question, the queries and the
//	                        answer text on the GenAI spans (off: ids,
//	                        scores, models and token counts only)
package tracing

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// The environment variables Setup reads itself; the exporters and the
// SDK read the rest.
const (
	EnvExporter       = "OTEL_TRACES_EXPORTER"
	EnvDisabled       = "OTEL_SDK_DISABLED"
	EnvProtocol       = "OTEL_EXPORTER_OTLP_PROTOCOL"
	EnvTracesProtocol = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	EnvCaptureContent = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
)

// ServiceName is the service.name of assay's spans unless
// OTEL_SERVICE_NAME says otherwise.
const ServiceName = "assay"

// instrumentation is the name of assay's tracer.
const instrumentation = "github.com/assay-rag/assay"

// state is what Install set: the process's tracing, shared by the gateway,
// the Temporal client and the worker. Off until Install.
var state struct {
	sync.RWMutex
	on      bool
	content bool
	tp      trace.TracerProvider
}

// Enabled reports whether tracing is on in this process.
func Enabled() bool {
	state.RLock()
	defer state.RUnlock()
	return state.on
}

// captureContent reports whether spans may carry message content.
func captureContent() bool {
	state.RLock()
	defer state.RUnlock()
	return state.content
}

// tracer is assay's tracer on the installed provider.
func tracer() trace.Tracer {
	state.RLock()
	defer state.RUnlock()
	if state.tp == nil {
		return otel.GetTracerProvider().Tracer(instrumentation)
	}
	return state.tp.Tracer(instrumentation)
}

// Install turns tracing on with tp (the W3C trace context and baggage
// propagate it) and content capture as given, until the returned restore
// puts back what was there before. Setup calls it; tests call it with a
// provider over an in-memory recorder.
func Install(tp trace.TracerProvider, content bool) (restore func()) {
	state.Lock()
	prevOn, prevContent, prevTP := state.on, state.content, state.tp
	prevGlobal, prevProp := otel.GetTracerProvider(), otel.GetTextMapPropagator()
	state.on, state.content, state.tp = true, content, tp
	state.Unlock()
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return func() {
		state.Lock()
		state.on, state.content, state.tp = prevOn, prevContent, prevTP
		state.Unlock()
		otel.SetTracerProvider(prevGlobal)
		otel.SetTextMapPropagator(prevProp)
	}
}

// Setup turns tracing on when the environment (getenv) asks for an
// exporter, writing console spans to stderr. shutdown flushes and stops
// the exporter and turns tracing off again; it is a no-op when tracing
// stayed off.
func Setup(ctx context.Context, getenv func(string) string, stderr io.Writer) (shutdown func(context.Context) error, err error) {
	noop := func(context.Context) error { return nil }
	if strings.EqualFold(strings.TrimSpace(getenv(EnvDisabled)), "true") {
		return noop, nil
	}
	var exporters []sdktrace.SpanExporter
	for _, name := range strings.Split(getenv(EnvExporter), ",") {
		switch name = strings.ToLower(strings.TrimSpace(name)); name {
		case "", "none":
		case "console":
			exp, err := stdouttrace.New(stdouttrace.WithWriter(stderr))
			if err != nil {
				return nil, fmt.Errorf("%s=console: %w", EnvExporter, err)
			}
			exporters = append(exporters, exp)
		case "otlp":
			exp, err := otlpExporter(ctx, getenv)
			if err != nil {
				return nil, err
			}
			exporters = append(exporters, exp)
		default:
			return nil, fmt.Errorf("%s=%q: unsupported exporter (want otlp, console or none)", EnvExporter, name)
		}
	}
	if len(exporters) == 0 {
		return noop, nil
	}
	res, err := resource.Merge(
		resource.NewSchemaless(semconv.ServiceName(ServiceName)),
		resource.Environment(), // OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
	)
	if err != nil {
		return nil, fmt.Errorf("tracing resource: %w", err)
	}
	opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	for _, exp := range exporters {
		if _, console := exp.(*stdouttrace.Exporter); console {
			// Spans print as they end: a console is read live.
			opts = append(opts, sdktrace.WithSyncer(exp))
		} else {
			opts = append(opts, sdktrace.WithBatcher(exp))
		}
	}
	tp := sdktrace.NewTracerProvider(opts...)
	restore := Install(tp, strings.EqualFold(strings.TrimSpace(getenv(EnvCaptureContent)), "true"))
	return func(ctx context.Context) error {
		restore()
		return tp.Shutdown(ctx)
	}, nil
}

// otlpExporter is the OTLP exporter of the configured protocol; the
// exporter reads its endpoint, headers and timeouts from the environment.
func otlpExporter(ctx context.Context, getenv func(string) string) (sdktrace.SpanExporter, error) {
	proto, from := getenv(EnvTracesProtocol), EnvTracesProtocol
	if proto == "" {
		proto, from = getenv(EnvProtocol), EnvProtocol
	}
	var (
		exp sdktrace.SpanExporter
		err error
	)
	switch strings.TrimSpace(proto) {
	case "", "http/protobuf":
		exp, err = otlptracehttp.New(ctx)
	case "grpc":
		exp, err = otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("%s=%q: unsupported OTLP protocol (want http/protobuf or grpc)", from, proto)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s=otlp", EnvExporter), err)
	}
	return exp, nil
}
