package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/worker"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/gateway"
)

// Root is the application root that the verbs and the tests share: one
// command's configuration and loggers, and the parts built from them on
// first use (the Temporal client, the index, the worker's activities, the
// worker, the gateway, a local Temporal dev server), in the manner of
// cli/cli's cmdutil.Factory. Set the exported fields before asking for a
// part; Close stops and closes whatever was built, newest first.
type Root struct {
	Config config.Config
	Log    *slog.Logger
	// SDKLog is the Temporal SDK's logger; keep it at warning level: the
	// SDK logs every poll at info.
	SDKLog *slog.Logger
	// BuildIndex lets Index build the index from index.corpus when it is
	// missing, was built from another corpus or with other settings.
	BuildIndex bool

	tokens tokenTransport // nil: no answer tokens
	client client.Client
	// completions follow the runs client starts for the gateway and this
	// process's worker completes (gateway.Completions).
	completions *gateway.Completions
	index       *live.Index
	acts        *activities.Activities
	tel         *telemetry
	closers     []func() error
	// codecEndpoint is the gateway's /codec, which StartStack gives the
	// dev server's Web UI; empty: none.
	codecEndpoint string
}

// tokenTransport carries a streaming model's answer tokens from workers
// to gateways: the in-process hub or Redis pub/sub, which serve both ends.
type tokenTransport interface {
	activities.TokenPublisher
	gateway.Tokens
}

// NewRoot is the root of a program run with cfg, logging to log (the SDK
// too).
func NewRoot(cfg config.Config, log *slog.Logger) *Root {
	return &Root{Config: cfg, Log: log, SDKLog: log}
}

// newRoot loads a verb's configuration (file, environment, the flags the
// user set) and logs at info on stderr, the SDK at warning.
func newRoot(e env, f *flags) (*Root, error) {
	cfg, err := loadConfig(e, f)
	if err != nil {
		return nil, err
	}
	return &Root{Config: cfg, Log: newLogger(e, slog.LevelInfo), SDKLog: newLogger(e, slog.LevelWarn)}, nil
}

// withRoot parses a verb's flags (no positional arguments), builds the
// root they configure, runs fn on it and closes it.
func withRoot(e env, f *flags, args []string, fn func(*Root) error) error {
	if err := f.parse(args, 0); err != nil {
		return err
	}
	r, err := newRoot(e, f)
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r)
}

// onClose adds fn to what Close runs.
func (r *Root) onClose(fn func() error) { r.closers = append(r.closers, fn) }

// Close stops and closes every part built, newest first, and logs what
// failed. It is safe on a partly built root and more than once.
func (r *Root) Close() {
	var err error
	for i := len(r.closers) - 1; i >= 0; i-- {
		err = errors.Join(err, r.closers[i]())
	}
	r.closers = nil
	if err != nil {
		r.Log.Warn("stopping", "error", err)
	}
}

// Client is the client of the Temporal at temporal.address, dialled once.
func (r *Root) Client(ctx context.Context) (client.Client, error) {
	if r.client == nil {
		r.completions = gateway.NewCompletions()
		c, err := dialTemporal(ctx, r.Config, r.SDKLog, r.completions.Interceptor())
		if err != nil {
			return nil, err
		}
		r.client = c
		r.onClose(func() error { c.Close(); return nil })
	}
	return r.client, nil
}

// Index is the configured index, opened once (built first when
// BuildIndex is set and it needs building); it follows rebuilds.
func (r *Root) Index(ctx context.Context) (*live.Index, error) {
	if r.index == nil {
		ix, err := live.Open(ctx, r.Config, r.Log, r.BuildIndex)
		if err != nil {
			return nil, err
		}
		r.index = ix
		r.onClose(ix.Close)
		r.Log.Info("index", "serving", ix.Version(), "chunks", ix.Len())
	}
	return r.index, nil
}

// Activities are the worker's activities over Index, publishing answer
// tokens to the root's transport, built once.
func (r *Root) Activities(ctx context.Context) (*activities.Activities, error) {
	if r.acts == nil {
		ix, err := r.Index(ctx)
		if err != nil {
			return nil, err
		}
		var pub activities.TokenPublisher // stays a nil interface without a transport
		if r.tokens != nil {
			pub = r.tokens
		}
		if r.acts, err = buildActivities(ix, r.Config, pub, r.Log); err != nil {
			return nil, err
		}
		if err := r.serveReleases(ctx, r.acts, ix); err != nil {
			r.acts = nil
			return nil, err
		}
	}
	return r.acts, nil
}

// StartWorker starts a worker with Activities on Client's task queue,
// with the given interceptors. Close stops it.
func (r *Root) StartWorker(ctx context.Context, ics ...interceptor.WorkerInterceptor) (worker.Worker, error) {
	acts, err := r.Activities(ctx)
	if err != nil {
		return nil, err
	}
	c, err := r.Client(ctx)
	if err != nil {
		return nil, err
	}
	w := newWorker(c, r.Config, acts, traceWorker(r.Config, ics)...)
	if err := r.registerReleases(ctx, w, c); err != nil {
		return nil, err
	}
	if err := w.Start(); err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	r.onClose(func() error { w.Stop(); return nil })
	return w, nil
}

// Telemetry is the process's Prometheus registry and run recorder, made
// once.
func (r *Root) Telemetry() (*telemetry, error) {
	if r.tel == nil {
		tel, err := newTelemetry()
		if err != nil {
			return nil, err
		}
		r.tel = tel
	}
	return r.tel, nil
}

// Gateway builds the HTTP API over Client, with the process's telemetry
// and the root's token transport. chunks, when not nil, serves the
// passages of runs; extra readiness checks join the Temporal and worker
// checks.
func (r *Root) Gateway(ctx context.Context, chunks gateway.Chunks, extra ...gateway.Check) (*gateway.Server, error) {
	c, err := r.Client(ctx)
	if err != nil {
		return nil, err
	}
	tel, err := r.Telemetry()
	if err != nil {
		return nil, err
	}
	var tok gateway.Tokens // stays a nil interface without a transport
	if r.tokens != nil {
		tok = r.tokens
	}
	return newGateway(c, r.completions, r.Config, r.Log, tel, tok, chunks, extra...)
}

// useRedisTokens makes Redis pub/sub the token transport when redis.addr
// is set (a standalone worker or gateway: role); see redisTokens.
func (r *Root) useRedisTokens(ctx context.Context, role string) error {
	tok, err := redisTokens(ctx, r.Config, r.Log, role)
	if err != nil {
		return err
	}
	if tok != nil { // a nil *tokens.Redis must stay a nil interface
		r.tokens = tok
		r.onClose(tok.Close)
	}
	return nil
}
