package config

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/payloadcodec"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// Validate reports every invalid field, each named by its YAML path.
func (c Config) Validate() error {
	var p problems
	c.validateServers(&p)
	c.validateModels(&p)
	c.validateLoop(&p)
	c.validateAuth(&p)
	return errors.Join(p...)
}

// problems collects invalid settings, each named by its YAML path. Its
// methods are the checks, each written once.
type problems []error

func (p *problems) add(path, format string, args ...any) {
	*p = append(*p, fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...)))
}

// inRange adds a problem when n is outside r.
func (p *problems) inRange(path string, r wire.Range, n int) {
	if err := r.Check(n); err != nil {
		p.add(path, "%v", err)
	}
}

// notEmpty adds a problem when s is empty.
func (p *problems) notEmpty(path, s string) {
	if s == "" {
		p.add(path, "must not be empty")
	}
}

// hostPort adds a problem when addr is not host:port.
func (p *problems) hostPort(path, addr string) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		p.add(path, "want host:port, got %q", addr)
	}
}

// port adds a problem when n is not a TCP port (0 picks a free one).
func (p *problems) port(path string, n int) {
	if n < 0 || n > 65535 {
		p.add(path, "want a port in 0..65535, got %d", n)
	}
}

// positive adds a problem when d is zero or negative.
func (p *problems) positive(path string, d time.Duration) {
	if d <= 0 {
		p.add(path, "must be positive")
	}
}

// notNegative adds a problem when n is negative.
func (p *problems) notNegative(path string, n float64) {
	if n < 0 {
		p.add(path, "must not be negative")
	}
}

// isHTTPURL reports whether s is an absolute http or https URL with a
// host: what every URL setting (a model endpoint, the Temporal UI) needs.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// validateServers checks where assay listens and what it connects to.
func (c Config) validateServers(p *problems) {
	p.notEmpty("data_dir", c.DataDir)
	c.validateHTTP(p)
	if c.Worker.MetricsAddr != "" {
		p.hostPort("worker.metrics_addr", c.Worker.MetricsAddr)
	}
	if c.Worker.Versioning {
		p.notEmpty("worker.deployment_name", c.Worker.DeploymentName)
	}
	if c.Worker.PprofAddr != "" {
		p.hostPort("worker.pprof_addr", c.Worker.PprofAddr)
	}
	switch strings.ToLower(c.Index.Vector) {
	case VectorHNSW, VectorSmallFlat, VectorFlat:
	default:
		p.add("index.vector", "want %s, %s or %s, got %q", VectorSmallFlat, VectorHNSW, VectorFlat, c.Index.Vector)
	}
	switch c.Index.Backend {
	case BackendBleve:
		if c.Index.ExactCandidates {
			// An error, not a warning, as for quota.max_cost_per_day_usd
			// without loop.max_cost_usd: a set key that cannot take effect.
			p.add("index.exact_candidates", "applies only to index.backend redisearch; the bleve backend's BM25 results are always exact: remove it (%s) or set index.backend: redisearch", EnvName("index.exact_candidates"))
		}
	case BackendRediSearch:
		if c.Redis.Addr == "" {
			p.add("redis.addr", "index.backend redisearch needs the Redis address (%s)", EnvName("redis.addr"))
		}
		if c.Index.Name == "" || strings.ContainsAny(c.Index.Name, " \t\n{}:") {
			p.add("index.name", "want a name without spaces, braces or colons, got %q", c.Index.Name)
		}
	default:
		p.add("index.backend", "want bleve or redisearch, got %q", c.Index.Backend)
	}
	if c.Redis.Addr != "" {
		p.hostPort("redis.addr", c.Redis.Addr)
	}
	p.hostPort("temporal.address", c.Temporal.Address)
	p.notEmpty("temporal.namespace", c.Temporal.Namespace)
	switch c.Temporal.Compression {
	case CompressionAuto, CompressionGzip, CompressionNone:
	default:
		p.add("temporal.compression", "want auto, gzip or none, got %q", c.Temporal.Compression)
	}
	c.validateWorker(p)
	p.notEmpty("temporal.task_queue", c.Temporal.TaskQueue)
	if (c.Temporal.TLSCertFile == "") != (c.Temporal.TLSKeyFile == "") {
		p.add("temporal.tls_key_file", "temporal.tls_cert_file and temporal.tls_key_file go together: set both or neither")
	}
	p.port("dev.temporal_port", c.Dev.TemporalPort)
	p.port("dev.ui_port", c.Dev.UIPort)
}

// validateHTTP checks the gateway's listener, limits and timeouts.
func (c Config) validateHTTP(p *problems) {
	h := c.HTTP
	p.hostPort("http.addr", h.Addr)
	if h.MaxBodyBytes < 1024 {
		p.add("http.max_body_bytes", "must be at least 1024, got %d", h.MaxBodyBytes)
	}
	p.notNegative("http.max_wait", float64(h.MaxWait))
	if h.TemporalUIURL != "" && !isHTTPURL(h.TemporalUIURL) {
		p.add("http.temporal_ui_url", "want an http(s) URL like http://127.0.0.1:8233, got %q", h.TemporalUIURL)
	}
	p.positive("http.read_timeout", h.ReadTimeout)
	if h.WriteTimeout <= h.MaxWait {
		p.add("http.write_timeout", "must exceed http.max_wait (%s), got %s", h.MaxWait, h.WriteTimeout)
	}
	p.positive("http.idle_timeout", h.IdleTimeout)
	for i, o := range h.AllowedOrigins {
		u, err := url.Parse(strings.TrimSuffix(o, "/"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			p.add(fmt.Sprintf("http.allowed_origins[%d]", i), "want scheme://host[:port] like https://portal.example, got %q", o)
		}
	}
	for i, host := range h.AllowedHosts {
		if host == "" || strings.ContainsAny(host, ":/ ") {
			p.add(fmt.Sprintf("http.allowed_hosts[%d]", i), "want a host name without port or scheme, got %q", host)
		}
	}
	for i, proxy := range h.TrustedProxies {
		if net.ParseIP(proxy) == nil {
			if _, _, err := net.ParseCIDR(proxy); err != nil {
				p.add(fmt.Sprintf("http.trusted_proxies[%d]", i), "want an IP address or CIDR, got %q", proxy)
			}
		}
	}
}

// validateWorker checks the worker's pollers, slots and cache.
func (c Config) validateWorker(p *problems) {
	for _, w := range []struct {
		name string
		n    int
	}{
		{"worker.workflow_pollers", c.Worker.WorkflowPollers},
		{"worker.activity_pollers", c.Worker.ActivityPollers},
		{"worker.max_workflow_tasks", c.Worker.MaxWorkflowTasks},
		{"worker.max_activities", c.Worker.MaxActivities},
		{"worker.sticky_cache", c.Worker.StickyCache},
	} {
		if w.n < 0 || w.n > 100000 {
			p.add(w.name, "want 0 (the SDK's default) .. 100000, got %d", w.n)
		}
	}
	if c.Worker.WorkflowPollers == 1 {
		p.add("worker.workflow_pollers", "want 0 (the SDK's default) or at least 2: the worker polls its sticky queue besides the task queue")
	}
}

// validateModels checks the model endpoint, prices and the embedder.
func (c Config) validateModels(p *problems) {
	if c.LLM.BaseURL != "" {
		if !isHTTPURL(c.LLM.BaseURL) {
			p.add("llm.base_url", "want an http(s) URL, got %q", c.LLM.BaseURL)
		}
		if c.LLM.SmallModel == "" && c.LLM.LargeModel == "" {
			p.add("llm.small_model", "name at least one of llm.small_model and llm.large_model when llm.base_url is set")
		}
	}
	switch c.Embed.Provider {
	case EmbedBuiltin, EmbedBuiltinIDF, EmbedNone:
	case EmbedOpenAI:
		if url, _ := c.EmbedEndpoint(); !isHTTPURL(url) {
			p.add("embed.base_url", "the openai embedder needs an http(s) URL (embed.base_url or llm.base_url), got %q", url)
		}
		if c.Embed.Model == "" {
			p.add("embed.model", "the openai embedder needs a model")
		}
		if c.Embed.Dim < 1 {
			p.add("embed.dim", "the openai embedder needs the model's vector length")
		}
	default:
		p.add("embed.provider", "want builtin, builtin-idf, openai or none, got %q", c.Embed.Provider)
	}
	p.notNegative("embed.dim", float64(c.Embed.Dim))
	switch c.LLM.Fallback {
	case "", LLMFallbackBuiltin:
	default:
		p.add("llm.fallback", "want builtin or empty, got %q", c.LLM.Fallback)
	}
	p.positive("llm.timeout", c.LLM.Timeout)
	p.notNegative("llm.max_retries", float64(c.LLM.MaxRetries))
	for _, model := range slices.Sorted(maps.Keys(c.LLM.Prices)) {
		price := c.LLM.Prices[model]
		if price.InputPerMTok < 0 || price.OutputPerMTok < 0 {
			p.add("llm.prices."+model, "prices must not be negative")
		}
	}
}

// validateLoop checks a question's budgets and the batch limits.
func (c Config) validateLoop(p *problems) {
	p.inRange("loop.max_attempts", wire.AttemptsRange, c.Loop.MaxAttempts)
	if c.Loop.Threshold < 0 || c.Loop.Threshold > 1 {
		p.add("loop.threshold", "want 0..1, got %g", c.Loop.Threshold)
	}
	p.notNegative("loop.max_tokens", float64(c.Loop.MaxTokens))
	p.notNegative("loop.max_cost_usd", c.Loop.MaxCostUSD)
	p.positive("loop.deadline", c.Loop.Deadline)
	p.inRange("loop.top_k", wire.TopKRange, c.Loop.TopK)
	if g := c.Loop.Generator; g != "" && !slices.Contains(router.BuiltinGenerateModels(), g) {
		p.add("loop.generator", "want %s, got %q", router.BuiltinGenerateModelsText(" (the default)"), g)
	}
	if r := c.Loop.Rewriter; r != "" && r != router.BuiltinRewriteModel && r != router.BuiltinRewriteModelV4 {
		p.add("loop.rewriter", "want %s (the default) or %s, got %q", router.BuiltinRewriteModel, router.BuiltinRewriteModelV4, r)
	}
	if r := c.Loop.Reranker; r != "" && !slices.Contains(rerank.Models(), r) {
		p.add("loop.reranker", "want %s (the default) or %s, got %q", rerank.BuiltinID, rerank.V4ID, r)
	}
	p.inRange("batch.concurrency", wire.ConcurrencyRange, c.Batch.Concurrency)
	if c.Batch.ContinueAfter < 1 {
		p.add("batch.continue_after", "must be at least 1, got %d", c.Batch.ContinueAfter)
	}
	p.inRange("batch.max_questions", wire.BatchQuestionsRange, c.Batch.MaxQuestions)
}

// validateAuth checks the API keys.
func (c Config) validateAuth(p *problems) {
	validateKeys(p, c.Auth.Keys)
	if _, err := c.PrincipalSigner(); err != nil {
		p.add("auth.principal_keys", "%s", errs.Reason(err))
	}
	if _, err := c.Temporal.PayloadCodec(); err != nil {
		field := payloadcodec.Field // the entry at fault, e.g. temporal.payload_keys[1]
		if e := (*errs.Error)(nil); errors.As(err, &e) && e.Field != "" {
			field = e.Field
		}
		p.add(field, "%s", errs.Reason(err))
	}
	q := c.Quota
	if q.MaxQuestionsInFlight < 0 {
		p.add("quota.max_questions_in_flight", "must not be negative (0 is unlimited), got %d", q.MaxQuestionsInFlight)
	}
	if q.MaxBatchesInFlight < 0 {
		p.add("quota.max_batches_in_flight", "must not be negative (0 is unlimited), got %d", q.MaxBatchesInFlight)
	}
	p.notNegative("quota.max_cost_per_day_usd", q.MaxCostPerDayUSD)
	if q.MaxCostPerDayUSD > 0 && c.Loop.MaxCostUSD <= 0 {
		p.add("quota.max_cost_per_day_usd", "needs loop.max_cost_usd above 0: each run reserves its cost budget before it starts")
	}
}
