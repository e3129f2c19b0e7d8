package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync/atomic"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/redis/go-redis/v9"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/gateway"
	"github.com/assay-rag/assay/internal/rollout"
	"github.com/assay-rag/assay/internal/runmetrics"
	"github.com/assay-rag/assay/internal/webui"
)

// telemetry is the Prometheus registry of one process and the run
// recorder its worker (if any) feeds.
type telemetry struct {
	reg  *prometheus.Registry
	runs *runmetrics.Recorder
}

func newTelemetry() (*telemetry, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, err
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, err
	}
	runs, err := runmetrics.New(reg)
	if err != nil {
		return nil, err
	}
	return &telemetry{reg: reg, runs: runs}, nil
}

// newKeyring builds the gateway's keyring from auth.keys, auth.keys_file
// and ASSAY_AUTH_KEYS. It fails closed: with no keys it is an error unless
// auth.allow_anonymous is set.
func newKeyring(cfg config.Config, log *slog.Logger) (*auth.Keyring, error) {
	cfgKeys, err := cfg.APIKeys()
	if err != nil {
		return nil, err
	}
	if len(cfgKeys) == 0 && !cfg.Auth.AllowAnonymous {
		return nil, errors.New("auth: no API keys configured (auth.keys, auth.keys_file / ASSAY_AUTH_KEYS_FILE, or ASSAY_AUTH_KEYS); " +
			"the gateway refuses to serve everyone anonymously unless auth.allow_anonymous is true (ASSAY_AUTH_ALLOW_ANONYMOUS=true)")
	}
	keys := make([]auth.Key, len(cfgKeys))
	for i, k := range cfgKeys {
		keys[i] = auth.Key{Name: k.Name, SHA256: k.SHA256, Groups: k.Groups, RatePerMinute: k.RatePerMinute}
	}
	keyring, err := auth.NewKeyring(keys)
	if err != nil {
		return nil, err
	}
	if keyring.Anonymous() {
		log.Warn("no API keys configured and auth.allow_anonymous is set: every caller is the anonymous principal and sees public documents only")
	} else {
		log.Info("API keys loaded", "keys", keyring.Len())
	}
	return keyring, nil
}

// newGateway builds the HTTP API over Temporal, with the web page. tel is
// the process's telemetry (nil makes one); completions, when not nil,
// hand it the results of runs this process's worker completes; tok, when
// not nil, feeds token events; chunks, when not nil, serves the passages
// of runs; extra readiness checks join the Temporal and worker checks.
func newGateway(c client.Client, completions *gateway.Completions, cfg config.Config, log *slog.Logger, tel *telemetry, tok gateway.Tokens, chunks gateway.Chunks, extra ...gateway.Check) (*gateway.Server, error) {
	gin.SetMode(gin.ReleaseMode)
	keyring, err := newKeyring(cfg, log)
	if err != nil {
		return nil, err
	}
	if tel == nil {
		if tel, err = newTelemetry(); err != nil {
			return nil, err
		}
	}
	signer, err := cfg.PrincipalSigner()
	if err != nil {
		return nil, err
	}
	codec, err := cfg.Temporal.PayloadCodec()
	if err != nil {
		return nil, err
	}
	engine := &gateway.Temporal{Client: c, TaskQueue: cfg.Temporal.TaskQueue, Converter: codec.DataConverter(), Completions: completions}
	pinner := releasePinner(cfg)
	var gwCodec converter.PayloadCodec // stays a nil interface without keys: no /codec
	if codec != nil {
		gwCodec = codec
	}
	return gateway.New(gateway.Options{
		Engine:   engine,
		Keyring:  keyring,
		Template: cfg.Loop.Template(),
		Releases: pinner,
		Batch: gateway.BatchLimits{
			Concurrency:   cfg.Batch.Concurrency,
			ContinueAfter: cfg.Batch.ContinueAfter,
			MaxQuestions:  cfg.Batch.MaxQuestions,
		},
		MaxBodyBytes:   cfg.HTTP.MaxBodyBytes,
		TrustedProxies: cfg.HTTP.TrustedProxies,
		MaxWait:        cfg.HTTP.MaxWait,
		Ready:          append([]gateway.Check{temporalCheck(c), workerCheck(c, cfg.Temporal.TaskQueue), engine.SearchAttributesCheck(cfg.Temporal.Namespace)}, extra...),
		Registry:       tel.reg,
		Logger:         log,
		Tokens:         tok,
		Chunks:         chunks,
		Page:           webui.Handler(webui.Config{TemporalUIURL: cfg.HTTP.TemporalUIURL, Namespace: cfg.Temporal.Namespace}),
		ListenAddr:     cfg.HTTP.Addr,
		AllowedHosts:   cfg.HTTP.AllowedHosts,
		AllowedOrigins: cfg.HTTP.AllowedOrigins,
		Quota:          gateway.Quota(cfg.Quota),
		MetricsKey:     cfg.HTTP.MetricsKey.Reveal(),
		Signer:         signer,
		Codec:          gwCodec,
		CodecOrigin:    webOrigin(cfg.HTTP.TemporalUIURL),
		CodecGroup:     cfg.HTTP.CodecGroup,
		ReleaseBoard:   &rollout.Board{Store: pinner.Store, Client: c},
		ReleasesGroup:  cfg.HTTP.ReleasesGroup,
	})
}

// webOrigin is the origin (scheme://host[:port]) of a web address, the
// Temporal Web UI's; "" when it has none.
func webOrigin(address string) string {
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// temporalCheck: the frontend answers health checks.
func temporalCheck(c client.Client) gateway.Check {
	return gateway.Check{Name: "temporal", Check: func(ctx context.Context) error {
		if _, err := c.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
			return fmt.Errorf("temporal unreachable: %w", err)
		}
		return nil
	}}
}

// workerCheck: some worker polls the task queue, so started runs will
// run. Temporal forgets a poller a few minutes after it stops, so this
// lags a dead worker by that much.
func workerCheck(c client.Client, queue string) gateway.Check {
	return gateway.Check{Name: "worker", Check: func(ctx context.Context) error {
		d, err := c.DescribeTaskQueue(ctx, queue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
		if err != nil {
			return fmt.Errorf("describe task queue %s: %w", queue, err)
		}
		if len(d.GetPollers()) == 0 {
			return fmt.Errorf("no worker polls task queue %s", queue)
		}
		return nil
	}}
}

// indexCheck: the in-process index is open, not empty and the newest
// version (a rebuilt one is swapped in first; /readyz info names it). Only a process
// that holds the index (assay dev) has this check; a standalone gateway
// relies on the worker check.
// sharedIndexCheck: a standalone gateway in front of workers that share a
// RediSearch index checks that the index exists and names the version the
// workers serve.
func sharedIndexCheck(rdb *redis.Client, name string) gateway.Check {
	var last atomic.Value
	last.Store("")
	return gateway.Check{Name: "index", Check: func(ctx context.Context) error {
		v, err := redisearch.Current(ctx, rdb, name)
		last.Store(v)
		return err
	}, Info: func() string { return last.Load().(string) }}
}

func indexCheck(ix *live.Index) gateway.Check {
	return gateway.Check{Name: "index", Check: func(ctx context.Context) error {
		_, err := ix.Ready(ctx)
		return err
	}, Info: ix.Version}
}
