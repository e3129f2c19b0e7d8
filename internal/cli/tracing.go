package cli

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/interceptor"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/tracing"
)

// withTracing runs fn with OpenTelemetry tracing set up from the
// environment (package tracing: off unless OTEL_TRACES_EXPORTER names an
// exporter), then flushes the spans, waiting at most 5s for a collector.
func withTracing(ctx context.Context, e env, fn func() error) error {
	shutdown, err := tracing.Setup(ctx, e.getenv, e.stderr)
	if err != nil {
		return err
	}
	err = fn()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if serr := shutdown(sctx); serr != nil {
		err = errors.Join(err, errors.New("tracing: flush spans: "+serr.Error()))
	}
	return err
}

// traceWorker adds the worker's tracing interceptors to ics when tracing
// is on: GenAI spans named after cfg's index.
func traceWorker(cfg config.Config, ics []interceptor.WorkerInterceptor) []interceptor.WorkerInterceptor {
	return append(ics, tracing.WorkerInterceptors(tracing.Names{Index: indexName(cfg.Index)})...)
}

// indexName names the index in traces: the backend, and the RediSearch
// index's name.
func indexName(ix config.Index) string {
	switch ix.Backend {
	case config.BackendRediSearch:
		name := ix.Name
		if name == "" {
			name = "assay"
		}
		return "redisearch:" + name
	case "":
		return config.BackendBleve
	}
	return ix.Backend
}
