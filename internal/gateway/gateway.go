// Package gateway is assay's HTTP API, on Gin: authenticated clients submit
// questions and batches, follow their progress and read results.
//
// Every request gets a request id (X-Request-Id in and out), an slog access
// line and Prometheus counts. /v1 routes need an API key unless the
// keyring is empty, which its caller must choose (assay dev without keys,
// or auth.allow_anonymous); the principal, and so the ACL groups, come
// only from the key. Bad input gets a 4xx naming the field; domain error
// kinds map to HTTP statuses in one table (errors.go). The API is
// described by the OpenAPI document served at /openapi.json, which a test
// keeps in step with the routes and the response shapes.
//
// The request and response bodies are package api's; package apiclient is
// the Go client.
//
// Runs are Temporal workflows behind small interfaces the gateway owns
// (Runs, Questions, Batches); Temporal implements them all.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/converter"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// Kind says which workflow a run is.
type Kind string

// Run kinds.
const (
	KindQuestion Kind = "question"
	KindBatch    Kind = "batch"
)

// Run is what the gateway needs to know about any run before it touches
// it: what it is, whose it is and whether it is still going.
type Run struct {
	ID        string
	Kind      Kind
	Status    api.Status
	Principal string // the id of the principal it runs as
	Question  string // questions only: the question asked
	Digest    string // batches only: workflows.BatchDigest of its questions
	// Template is workflows.TemplateDigest of the run's budget and
	// filters; empty for runs started before it was recorded.
	Template string
	// Release is the release the run is pinned to (AssayRelease); empty
	// for none.
	Release string
}

// Runs describes and cancels runs of either kind.
type Runs interface {
	// Describe returns the run id; an unknown id is an errs.NotFound error.
	Describe(ctx context.Context, id string) (Run, error)
	// Cancel asks a running run to cancel.
	Cancel(ctx context.Context, id string) error
	// Running counts principal's runs of kind that are running now
	// (answer runs include batches' questions), for the in-flight quotas.
	Running(ctx context.Context, principal string, kind Kind) (int, error)
}

// Questions starts and reads answer runs.
type Questions interface {
	// Start starts the answer run id. Starting an id that exists is not
	// an error and does not start a second run. It returns the run id of
	// the run it started or found ("" when the engine does not know it),
	// for Result.
	Start(ctx context.Context, id string, in wire.AnswerInput) (runID string, err error)
	// Result waits until run id has ended and returns its result and
	// Completed, or Failed (and no result) when the workflow failed
	// rather than ended with a stop reason. It returns an error if ctx
	// ends first. runID, when not "", is the run Start returned, which
	// saves Temporal looking up the id's current run; "" reads the
	// current run.
	Result(ctx context.Context, id, runID string) (wire.AnswerResult, api.Status, error)
	// Progress and Trace ask a running run where it is.
	Progress(ctx context.Context, id string) (wire.Progress, error)
	Trace(ctx context.Context, id string) (wire.Trace, error)
	// Events calls emit with run id's events in order, skipping those
	// with an id at or below after, until the closing event or until ctx
	// ends or emit fails.
	Events(ctx context.Context, id string, after int64, emit func(Event) error) error
}

// Batches starts and reads batch runs.
type Batches interface {
	// StartBatch starts batch id; like Start, it never starts twice.
	StartBatch(ctx context.Context, id string, in workflows.BatchInput) error
	// BatchStatus asks a running batch for its status.
	BatchStatus(ctx context.Context, id string) (workflows.BatchStatus, error)
	// BatchItems asks a running batch for a page of its items.
	BatchItems(ctx context.Context, id string, offset, limit int) ([]workflows.BatchItem, error)
	// BatchResult waits until batch id has ended and returns its result,
	// like Result.
	BatchResult(ctx context.Context, id string) (workflows.BatchResult, api.Status, error)
}

// Releases is what the gateway reads of releases (release.Pinner): which
// one a new run is pinned to, and the loop defaults each answers with.
type Releases interface {
	// Pin names the release a new run with workflowID is pinned to; ""
	// when none was ever promoted (the run uses what the workers serve).
	Pin(ctx context.Context, workflowID string) (string, error)
	// Defaults is the AnswerInput runs on release name start from, its
	// recorded loop defaults (budget, threshold, top-k); ok is false
	// when it records none.
	Defaults(ctx context.Context, name string) (in wire.AnswerInput, ok bool, err error)
}

// ReleaseBoard reads what GET /v1/releases shows.
type ReleaseBoard interface {
	Releases(ctx context.Context) (api.Releases, error)
}

// Engine runs questions and batches; *Temporal is the one in use.
type Engine interface {
	Runs
	Questions
	Batches
}

// BatchLimits bound and shape batches.
type BatchLimits struct {
	Concurrency   int // questions of one batch running at once
	ContinueAfter int // questions per workflow run before continue-as-new
	MaxQuestions  int // questions per batch
}

// Options configure a Server.
type Options struct {
	Engine Engine
	// Keyring authenticates callers; required. An empty keyring (anonymous
	// access) must be chosen explicitly.
	Keyring *auth.Keyring
	// Template is the AnswerInput every run starts from (budget,
	// threshold, top-k; config.Loop.Template builds it) unless its
	// release records loop defaults of its own; requests may lower the
	// budget, never raise it.
	Template wire.AnswerInput
	// Releases, when set, pins every new run to a release, recorded in
	// its input, whose loop defaults it starts from; nil leaves runs
	// unpinned.
	Releases Releases
	Batch    BatchLimits
	// MaxBodyBytes bounds request bodies; default 1 MiB.
	MaxBodyBytes int64
	// MaxWait bounds ?wait= on POST /v1/questions; default 60s.
	MaxWait time.Duration
	// Ready lists the readiness checks of /readyz.
	Ready []Check
	// Registry receives the gateway's metrics and is what /metrics
	// serves; nil means a fresh registry.
	Registry *prometheus.Registry
	Logger   *slog.Logger
	// Now is the clock of rate limiting; nil means time.Now.
	Now func() time.Time
	// Heartbeat is the interval of SSE keep-alive comments; default 15s.
	Heartbeat time.Duration
	// TrustedProxies (IPs or CIDRs) may set X-Forwarded-For; empty trusts
	// none, so the logged client address is the connection's peer.
	TrustedProxies []string
	// Tokens, when set, feeds token events into the event streams of
	// running questions; nil sends none.
	Tokens Tokens
	// Chunks, when set, is the chunk store GET /v1/questions/{id}/sources
	// reads passages from; without it that route answers 503.
	Chunks Chunks
	// Page, when set, is the web page (package webui), served at GET /
	// and GET /ui/*.
	Page http.Handler
	// ListenAddr is the address the gateway listens on. On a loopback
	// address it answers only loopback Host names and AllowedHosts (DNS
	// rebinding; see boundary.go).
	ListenAddr string
	// AllowedHosts are Host names (no port) the gateway answers besides
	// loopback ones; when set, every gateway checks Host.
	AllowedHosts []string
	// AllowedOrigins are the browser origins (scheme://host[:port]) of
	// other sites whose pages may call the API; they get CORS. Empty:
	// only the gateway's own page, and no CORS.
	AllowedOrigins []string
	// Quota bounds each principal's runs in flight and daily cost.
	Quota Quota
	// MetricsKey, when set, is a bearer token that may read /metrics (a
	// scraper's). Any API key may too; an anonymous gateway's /metrics
	// needs none.
	MetricsKey string
	// Signer signs the principal of every run the gateway starts, for the
	// workers to check (auth.principal_keys); nil signs nothing.
	Signer *auth.Signer
	// Codec, when set, is served as Temporal's remote payload codec at
	// /codec/encode and /codec/decode (codec.go); nil serves no /codec.
	Codec converter.PayloadCodec
	// CodecOrigin is the Temporal Web UI's origin (scheme://host[:port]),
	// the one other site whose pages may call /codec; empty: none.
	CodecOrigin string
	// CodecGroup, when set, is the group a caller needs to use /codec;
	// empty: any authenticated caller.
	CodecGroup string
	// ReleaseBoard, when set, serves GET /v1/releases (rollout.Board);
	// nil answers it 503.
	ReleaseBoard ReleaseBoard
	// ReleasesGroup is the group a caller needs to read GET /v1/releases:
	// operator data (every release, canary rates over every caller's
	// runs). Empty: nobody may.
	ReleasesGroup string
}

// Server is the HTTP API.
type Server struct {
	opts      Options
	engine    *gin.Engine
	metrics   *httpMetrics
	hostCheck bool // answer only loopback and allowed Host names
	costs     costLedger
	inFlight  inFlightCounts
	ready     readyCache
}

// New builds the API. Callers set Gin's mode before calling it.
func New(opts Options) (*Server, error) {
	if opts.Engine == nil {
		return nil, errors.New("gateway: Options.Engine is required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxBodyBytes == 0 {
		opts.MaxBodyBytes = wire.DefaultMaxBodyBytes
	}
	if opts.MaxWait == 0 {
		opts.MaxWait = wire.DefaultMaxWait
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Heartbeat == 0 {
		opts.Heartbeat = 15 * time.Second
	}
	if opts.Batch.Concurrency < 1 {
		opts.Batch.Concurrency = wire.DefaultConcurrency
	}
	if opts.Batch.MaxQuestions < 1 {
		opts.Batch.MaxQuestions = wire.DefaultMaxQuestions
	}
	if opts.Keyring == nil {
		// Fail closed: anonymous access is an empty keyring the caller
		// chose (auth.allow_anonymous), never a forgotten option.
		return nil, errors.New("gateway: Options.Keyring is required (an empty keyring serves every caller as the anonymous principal)")
	}
	if opts.Registry == nil {
		opts.Registry = prometheus.NewRegistry()
	}
	m, err := newHTTPMetrics(opts.Registry)
	if err != nil {
		return nil, err
	}
	if opts.AllowedOrigins, err = checkOrigins(opts.AllowedOrigins); err != nil {
		return nil, err
	}
	for i, h := range opts.AllowedHosts {
		opts.AllowedHosts[i] = strings.ToLower(strings.TrimSpace(h))
	}
	s := &Server{opts: opts, engine: gin.New(), metrics: m,
		hostCheck: ListensOnLoopback(opts.ListenAddr) || len(opts.AllowedHosts) > 0}
	// Gin trusts every proxy unless told otherwise; nil trusts none.
	if err := s.engine.SetTrustedProxies(opts.TrustedProxies); err != nil {
		return nil, fmt.Errorf("gateway: trusted proxies: %w", err)
	}
	s.routes()
	return s, nil
}

// routes registers every route. The OpenAPI test checks this list against
// openapi.json both ways.
func (s *Server) routes() {
	e := s.engine
	e.HandleMethodNotAllowed = true
	e.ContextWithFallback = true
	e.Use(s.requestID, s.traced(), annotate, s.accessLog, s.observe, s.recoverJSON, s.checkHost, s.preflight)
	e.NoRoute(func(c *gin.Context) {
		writeError(c, errs.Errorf("gateway", errs.NotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
	})
	e.NoMethod(func(c *gin.Context) {
		c.AbortWithStatusJSON(http.StatusMethodNotAllowed, api.ErrorBody{Error: api.ErrorDetail{
			Code: "method_not_allowed", Message: c.Request.Method + " is not allowed on " + c.Request.URL.Path,
			RequestID: c.GetString(ctxRequestID),
		}})
	})

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metricsAuth, metricsHandler(s.opts.Registry))
	e.GET("/openapi.json", serveOpenAPI)
	if s.opts.Page != nil {
		page := gin.WrapH(s.opts.Page)
		e.GET("/", page)
		e.GET("/ui/*path", page)
	}

	v1 := e.Group("/v1", s.sameOrigin, jsonBody, s.authenticate, s.rateLimit)
	v1.POST("/questions", s.postQuestion)
	v1.GET("/questions/:id", s.getQuestion)
	v1.DELETE("/questions/:id", s.deleteQuestion)
	v1.GET("/questions/:id/trace", s.getTrace)
	v1.GET("/questions/:id/events", s.getEvents)
	v1.GET("/questions/:id/sources", s.getSources)
	v1.POST("/batches", s.postBatch)
	v1.GET("/batches/:id", s.getBatch)
	v1.DELETE("/batches/:id", s.deleteBatch)
	v1.GET("/batches/:id/results", s.getBatchResults)
	v1.POST("/chat/completions", s.postChat)
	v1.GET("/models", s.getModels)
	v1.GET("/releases", s.releasesGroup, s.getReleases)
	s.codecRoutes()
}

// Handler returns the http.Handler to serve.
func (s *Server) Handler() http.Handler { return s.engine }
