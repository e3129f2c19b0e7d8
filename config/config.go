// Package config holds assay's settings and the one place they are read.
//
// Precedence, lowest first: Default(), a YAML file, the environment
// (ASSAY_<SECTION>_<KEY>, derived from the YAML path: http.addr is
// ASSAY_HTTP_ADDR), then the flags the user actually set. Load applies them
// in that order; Validate reports every bad field at once. A Config never
// prints its secrets: Secret values render as "[redacted]".
//
// The files: config.go the types (one per YAML section), defaults.go
// Default, load.go Load and the environment and flag layers, validate.go
// Validate, keys.go the API keys, secrets.go Secret, tls.go the TLS to
// Temporal. A field's flag tag names the command-line flag that sets it,
// where there is one. example.yaml, every key with its environment
// variable, flag and default, is generated from these types and their
// comments (make config-example); a test keeps it current.
package config

import (
	"fmt"
	"path/filepath"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// EnvPrefix starts every environment variable assay reads.
const EnvPrefix = "ASSAY_"

// Config is the whole configuration of an assay process.
type Config struct {
	// DataDir holds the local Temporal database and the index.
	DataDir  string   `yaml:"data_dir" flag:"data-dir"`
	HTTP     HTTP     `yaml:"http"`
	Temporal Temporal `yaml:"temporal"`
	Dev      Dev      `yaml:"dev"`
	Index    Index    `yaml:"index"`
	Embed    Embed    `yaml:"embed"`
	LLM      LLM      `yaml:"llm"`
	Loop     Loop     `yaml:"loop"`
	Batch    Batch    `yaml:"batch"`
	Auth     Auth     `yaml:"auth"`
	Quota    Quota    `yaml:"quota"`
	Worker   Worker   `yaml:"worker"`
	Redis    Redis    `yaml:"redis"`
}

// Redis is the server that carries answer tokens from a streaming model,
// published by workers, to the gateways' event streams (pub/sub; nothing
// of it is stored), and, with index.backend redisearch, holds the shared
// retrieval index. With Addr empty a standalone worker and gateway stream
// no tokens; `assay dev` needs no Redis unless its index lives there.
type Redis struct {
	// Addr is host:port, e.g. redis:6379.
	Addr     string `yaml:"addr" flag:"redis-addr"`
	Password Secret `yaml:"password"`
}

// Worker configures the worker of `assay worker` and `assay dev`.
type Worker struct {
	// MetricsAddr serves a standalone worker's Prometheus /metrics (runs by
	// stop reason, tokens, cost) when set, e.g. 0.0.0.0:9090.
	MetricsAddr string `yaml:"metrics_addr" flag:"metrics-addr"`
	// PprofAddr, when set, serves Go's profiler (net/http/pprof, under
	// /debug/pprof/) for `assay dev` and `assay worker` on this address,
	// e.g. 127.0.0.1:6060. Off by default; a debugging aid: it has no
	// authentication, so keep it on a loopback address.
	PprofAddr string `yaml:"pprof_addr" flag:"pprof-addr"`
	// WorkflowPollers and ActivityPollers are how many long polls the
	// worker keeps open per task queue; 0 is the SDK's default (2 each).
	// The SDK needs at least 2 workflow pollers (one for its sticky queue).
	WorkflowPollers int `yaml:"workflow_pollers"`
	ActivityPollers int `yaml:"activity_pollers"`
	// MaxWorkflowTasks and MaxActivities bound the workflow tasks and
	// activities the worker runs at once; 0 is the SDK's default (1000
	// each).
	MaxWorkflowTasks int `yaml:"max_workflow_tasks"`
	MaxActivities    int `yaml:"max_activities"`
	// LocalActivities runs the stages that need no network — search over
	// an in-process index, and assessments and answers on the builtin
	// route — as local activities inside the workflow task, not as
	// activity tasks through the server (docs/performance.md). Default true.
	LocalActivities bool `yaml:"local_activities"`
	// LocalRedisSearch also runs Search as a local activity when its one
	// dependency is Redis (the redisearch backend with a builtin
	// embedder): a few Redis round trips, retried by the worker, with a
	// per-attempt timeout shorter than the workflow task's (docs/loop.md,
	// "Local activities: what changes"). It needs local_activities.
	// Default true. A searcher that calls an embedding endpoint always
	// runs Search as an activity.
	LocalRedisSearch bool `yaml:"local_redis_search"`
	// StickyCache is how many workflow executions the worker keeps in
	// memory between their tasks, so a task need not replay the history;
	// 0 is the SDK's default (10000). It is process-wide.
	StickyCache int `yaml:"sticky_cache"`
	// Versioning opts the worker into Temporal Worker Versioning: it
	// polls as build BuildID of worker deployment DeploymentName, answer
	// and batch runs stay on the build they started on (Pinned) and
	// release runs move to the current build (AutoUpgrade). A versioned
	// worker takes new runs only once its build is the deployment's
	// current (or ramping) version: `temporal worker deployment
	// set-current-version` (docs/releases.md); `assay dev` makes its own
	// build current. Default false: workers are unversioned.
	Versioning bool `yaml:"versioning" flag:"versioning"`
	// DeploymentName is the worker deployment's name; default "assay".
	DeploymentName string `yaml:"deployment_name" flag:"deployment-name"`
	// BuildID names this worker's code within the deployment; empty is
	// the binary's version (`make build` links it in), or its VCS
	// revision when it was built without one.
	BuildID string `yaml:"build_id" flag:"build-id"`
}

// HTTP configures the gateway.
type HTTP struct {
	Addr         string        `yaml:"addr" flag:"http-addr"`
	MaxBodyBytes int64         `yaml:"max_body_bytes"`
	MaxWait      time.Duration `yaml:"max_wait"` // upper bound of ?wait=
	// TemporalUIURL is the Temporal Web UI's base address, for the web
	// page's links to runs (http://host:8233); `assay dev` sets it to its
	// own UI. Empty: no links.
	TemporalUIURL string `yaml:"temporal_ui_url"`
	// ReadTimeout bounds reading a whole request, body included.
	ReadTimeout time.Duration `yaml:"read_timeout"`
	// WriteTimeout bounds a request from the end of its headers to the
	// end of its response; it must exceed max_wait. Event streams (SSE)
	// are exempt: they clear it and keep themselves alive.
	WriteTimeout time.Duration `yaml:"write_timeout"`
	// IdleTimeout closes keep-alive connections idle this long.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// TrustedProxies lists the proxies (IPs or CIDRs) whose
	// X-Forwarded-For the gateway believes for the client address it
	// logs. Empty: none; the client is the connection's peer.
	TrustedProxies []string `yaml:"trusted_proxies"`
	// AllowedOrigins are the browser origins (scheme://host[:port]) of
	// other websites whose pages may call the API, e.g. an intranet
	// portal; they, and only they, get CORS. Empty (the default): only
	// the gateway's own page; a cross-site request is refused with 403.
	AllowedOrigins []string `yaml:"allowed_origins"`
	// AllowedHosts are Host names (without port) the gateway answers
	// besides loopback ones. A gateway listening on a loopback address
	// answers only localhost names and these (against DNS rebinding);
	// with any set, every gateway checks Host. Behind a proxy that
	// rewrites Host, list the name it sends.
	AllowedHosts []string `yaml:"allowed_hosts"`
	// MetricsKey, when set, is the bearer token /metrics needs
	// (Authorization: Bearer KEY), for a Prometheus scraper. Without it
	// /metrics needs one of the API keys, or nothing when the gateway
	// is anonymous.
	MetricsKey Secret `yaml:"metrics_key"`
	// CodecGroup, when set, is the group an API key needs to use the
	// gateway's codec endpoint (/codec, with temporal.payload_keys),
	// which decrypts any run's history: e.g. operators. Empty: any API
	// key (anyone, on an anonymous gateway).
	CodecGroup string `yaml:"codec_group"`
	// ReleasesGroup is the group an API key needs to read the releases
	// (GET /v1/releases and the web page's Releases view): operator
	// data, every release's reason and the canary's rates over every
	// caller's runs. Empty: nobody. An anonymous gateway's callers are in
	// group public only.
	ReleasesGroup string `yaml:"releases_group"`
}

// Quota bounds what one principal (one API key, or the anonymous
// caller) may have the gateway run. Every question counts against the
// key's auth.keys[].rate_per_minute, each question of a batch included.
// A request over a quota gets 429 with Retry-After and a body naming the
// quota.
type Quota struct {
	// MaxQuestionsInFlight bounds a principal's answer runs running at
	// once, the questions of its batches included; 0 is unlimited.
	MaxQuestionsInFlight int `yaml:"max_questions_in_flight"`
	// MaxBatchesInFlight bounds a principal's batches running at once;
	// 0 is unlimited.
	MaxBatchesInFlight int `yaml:"max_batches_in_flight"`
	// MaxCostPerDayUSD, when above 0, is what a principal's runs may
	// cost per UTC day. Each run reserves its whole cost budget
	// (loop.max_cost_usd, or the request's lower one) before it starts,
	// so the day's spend cannot pass it; the reservations are kept by
	// each gateway process. Needs loop.max_cost_usd above 0.
	MaxCostPerDayUSD float64 `yaml:"max_cost_per_day_usd"`
}

// Dev configures the local Temporal dev server that `assay dev` starts.
type Dev struct {
	TemporalBin  string `yaml:"temporal_bin" flag:"temporal-bin"`
	TemporalPort int    `yaml:"temporal_port" flag:"temporal-port"`
	UIPort       int    `yaml:"ui_port" flag:"ui-port"`
	// KeepVisibilityIndexes leaves every index of the dev server's
	// visibility table as the Temporal CLI made it. By default `assay dev`
	// drops, once the server is up, the indexes no query of assay or the
	// Web UI uses (internal/devserver, indexes.go): less CPU a question,
	// slower ad hoc queries on the dropped columns (HistoryLength and the
	// like), which then scan. Set it when you query those, or to rule the
	// trim out.
	KeepVisibilityIndexes bool `yaml:"keep_visibility_indexes"`
}

// Index backends Index.Backend may name.
const (
	BackendBleve      = "bleve"      // embedded, one directory per worker
	BackendRediSearch = "redisearch" // one shared index in Redis (redis.addr)
)

// Index says where the corpus comes from and where its index lives.
type Index struct {
	// Corpus is the file the index is built from, and rebuilt from when
	// it changes. Empty (the default): open the existing index only, and
	// fail when there is none. Only `assay dev` falls back on the sample
	// corpus.
	Corpus string `yaml:"corpus" flag:"corpus"`
	// Dir defaults to <data_dir>/index (bleve backend).
	Dir string `yaml:"dir" flag:"index-dir"`
	// Backend is bleve (the embedded default) or redisearch: one index
	// in the Redis at redis.addr that every worker shares.
	Backend string `yaml:"backend" flag:"backend"`
	// Name is the RediSearch index name (an alias over versioned
	// indexes); default "assay".
	Name string `yaml:"name" flag:"name"`
	// RequireACL makes a document without an acl field an error instead
	// of public. On by default, for `assay index`, `assay worker` and
	// `assay dev` alike (the sample corpus gives every document an acl);
	// set it to false only for a corpus meant to be wholly public, such
	// as a BEIR data set. A present but empty acl is an error either way.
	RequireACL bool `yaml:"require_acl"`
	// ExactCandidates (redisearch backend only) makes the BM25 leg read
	// every query term's postings for its candidates. Off by default: in
	// a query of 4 or more terms, the commonest (held by more than 1% and
	// 1,000 of the caller's visible chunks, carrying at most 30% of the
	// query's weight) only add to the score of chunks that hold a rarer
	// term, which reads far fewer postings (docs/log/performance-scale.md,
	// "RediSearch: rare terms match, common terms only score"). Setting
	// it with the bleve backend, whose BM25 results are always exact, is
	// a configuration error.
	ExactCandidates bool `yaml:"exact_candidates"`
	// Vector (redisearch backend only) is the vector layout of every
	// RediSearch build the service makes (`assay index`, `assay dev`'s and
	// a release's own builds): hnsw+small-flat (the default since round
	// 43: the HNSW graph, and a FLAT index of the vectors of each ACL
	// group under an eighth of the chunks, so a small group's callers scan
	// its vectors exactly instead of the engine's brute force through the
	// graph; a second copy of those groups' vectors, +2.16 GiB of Redis at
	// 500k chunks in 100 teams), hnsw (the graph alone) or flat (one exact
	// index, for small corpora). An index already built keeps its layout
	// until it is rebuilt.
	Vector string `yaml:"vector" flag:"vector"`
}

// Vector layouts Index.Vector may name (any case).
const (
	VectorHNSW      = "hnsw"
	VectorSmallFlat = "hnsw+small-flat"
	VectorFlat      = "flat"
)

// ACLPolicy says in one line what index.require_acl means for the corpus
// being indexed, for the startup lines of `assay dev` and the worker.
func (ix Index) ACLPolicy() string {
	if ix.RequireACL {
		return "every document must name its groups (index.require_acl; [public] for public ones)"
	}
	return "a document without an acl field is PUBLIC (index.require_acl is off)"
}

// Embedders Embed.Provider may name.
const (
	EmbedBuiltin    = "builtin"     // hashed word and character n-grams, offline
	EmbedBuiltinIDF = "builtin-idf" // the same weighted by corpus IDF
	EmbedOpenAI     = "openai"      // any OpenAI-compatible /v1/embeddings
	EmbedNone       = "none"        // BM25 only
)

// Embed selects the embedder an index is built with and queries are
// embedded by. The worker, `assay dev`, `assay index` and `assay search`
// all read it, so an index and its queries always agree.
type Embed struct {
	Provider string `yaml:"provider" flag:"embedder"`
	// BaseURL, APIKey: the embeddings endpoint for the openai provider;
	// empty takes llm.base_url and llm.api_key.
	BaseURL string `yaml:"base_url" flag:"embed-url"`
	APIKey  Secret `yaml:"api_key"`
	Model   string `yaml:"model" flag:"embed-model"`
	// Dim is the vector length: the builtins' (0 is their default) or the
	// model's (required for openai).
	Dim int `yaml:"dim" flag:"embed-dim"`
}

// EmbedEndpoint returns the embeddings base URL and key, defaulting to the
// chat endpoint's.
func (c Config) EmbedEndpoint() (string, Secret) {
	url, key := c.Embed.BaseURL, c.Embed.APIKey
	if url == "" {
		url = c.LLM.BaseURL
	}
	if key == "" {
		key = c.LLM.APIKey
	}
	return url, key
}

// LLM configures the OpenAI-compatible model endpoint. With BaseURL empty,
// assay uses its builtin models and needs no endpoint at all.
type LLM struct {
	BaseURL    string        `yaml:"base_url"`
	APIKey     Secret        `yaml:"api_key"`
	SmallModel string        `yaml:"small_model"`
	LargeModel string        `yaml:"large_model"`
	Timeout    time.Duration `yaml:"timeout"`
	MaxRetries int           `yaml:"max_retries"`
	// Prices price tokens by model, for cost budgets and traces. A model
	// without a price costs 0 and traces say it is unpriced.
	Prices map[string]Price `yaml:"prices"`
	// Fallback, when "builtin", serves a stage with the builtin model once
	// the endpoint proved unavailable (unreachable, 5xx, rate limited or
	// timed out after its retries) instead of ending the run with the
	// stage's error. Empty (the default) keeps the error.
	Fallback string `yaml:"fallback"`
}

// LLMFallbackBuiltin is the llm.fallback value that falls back to the
// builtin models.
const LLMFallbackBuiltin = "builtin"

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64 `yaml:"input_per_mtok"`
	OutputPerMTok float64 `yaml:"output_per_mtok"`
}

// Loop holds the default budgets of one question. Requests may lower them.
type Loop struct {
	MaxAttempts int           `yaml:"max_attempts"`
	Threshold   float64       `yaml:"threshold"`
	MaxTokens   int           `yaml:"max_tokens"`
	MaxCostUSD  float64       `yaml:"max_cost_usd"`
	Deadline    time.Duration `yaml:"deadline"`
	TopK        int           `yaml:"top_k"`
	// Thesaurus is a WordNet 3.0 database directory (Debian's
	// wordnet-base installs one in /usr/share/wordnet) the builtin
	// rewriter uses to put question words into the words the asker's
	// documents use (the translate strategy). Empty, the default: none.
	Thesaurus string `yaml:"thesaurus"`
	// Generator is the builtin extractive generator's model id:
	// builtin:extractive-v41 (empty, the default) or the previous
	// builtin:extractive-v40, builtin:extractive-v39, builtin:extractive-v38, builtin:extractive-v37, builtin:extractive-v35, builtin:extractive-v34, builtin:extractive-v33, builtin:extractive-v32, builtin:extractive-v31, builtin:extractive-v30, builtin:extractive-v29, builtin:extractive-v28, builtin:extractive-v27, builtin:extractive-v26, builtin:extractive-v25, builtin:extractive-v24, builtin:extractive-v23, builtin:extractive-v22, builtin:extractive-v21, builtin:extractive-v20, builtin:extractive-v19, builtin:extractive-v18, builtin:extractive-v17, builtin:extractive-v16, builtin:extractive-v15, builtin:extractive-v14, builtin:extractive-v13, builtin:extractive-v12, builtin:extractive-v11, builtin:extractive-v10, builtin:extractive-v9, builtin:extractive-v8 or
	// builtin:extractive-v7. Runs, traces and
	// releases record which.
	Generator string `yaml:"generator"`
	// Rewriter is the builtin rewriter's model id: builtin:strategies-v5
	// (empty, the default) or the previous builtin:strategies-v4. Traces
	// record which (every proposal's model, the rewrite route).
	Rewriter string `yaml:"rewriter"`
	// Reranker is the builtin reranker's model id (the hybrid+rerank
	// mode of every search: the loop's, `assay search`, `assay eval
	// retrieval`): builtin:features-v3 (empty, the default) or
	// builtin:features-v4, which adds an answer-type feature (see
	// docs/retrieval.md). Traces record which (the rerank stage's note),
	// releases its weights.
	Reranker string `yaml:"reranker"`
	// Expand, with a thesaurus, searches every attempt's query with, beside
	// each of its words no document the asker may see uses, the words the
	// translate strategy would put for it (internal/assess/expand.go); the
	// assessor still judges the question's own words. With the builtin
	// assessor's ExpandMerge (builtin:coverage-v42) the query as sent is
	// searched too, and its hits come first, in their order, with at most
	// two chunks only the expanded query found below them (one more
	// search for a query the expansion adds to; internal/assess/merged.go).
	// On by default (round 38): without a thesaurus nothing is added and
	// every search runs as typed. Traces name the words added (the expand
	// stage's note).
	Expand bool `yaml:"expand"`
}

// GeneratorModel is the builtin generator's model id (see Generator).
func (l Loop) GeneratorModel() string {
	if l.Generator == "" {
		return router.BuiltinGenerateModel
	}
	return l.Generator
}

// Template is the AnswerInput every run starts from: the budget, the
// threshold and top-k. It is the one place the loop settings become a
// budget; a caller sets the question and principal and may lower the
// budget.
func (l Loop) Template() wire.AnswerInput {
	return wire.AnswerInput{
		Budget: wire.Budget{
			MaxAttempts: l.MaxAttempts,
			MaxTokens:   l.MaxTokens,
			MaxCostUSD:  l.MaxCostUSD,
			Deadline:    l.Deadline,
		},
		Threshold: l.Threshold,
		TopK:      l.TopK,
	}
}

// Batch configures BatchWorkflow.
type Batch struct {
	// Concurrency bounds the questions of one batch that run at once.
	Concurrency int `yaml:"concurrency"`
	// ContinueAfter is how many questions one run of a batch workflow
	// starts before it continues as new, keeping each history short.
	ContinueAfter int `yaml:"continue_after"`
	// MaxQuestions bounds the questions in one batch.
	MaxQuestions int `yaml:"max_questions"`
}

// Auth lists the API keys the gateway accepts. A gateway with no keys
// refuses to start unless AllowAnonymous is set; then every caller is the
// anonymous principal, which sees public documents only. `assay dev` sets
// AllowAnonymous when it has no keys, and says so.
type Auth struct {
	Keys []Key `yaml:"keys"`
	// KeysFile names a YAML or JSON file holding more keys in the same
	// shape as this section ({"keys": [{"name", "sha256", "groups",
	// "rate_per_minute"}]}), e.g. a mounted secret. Its keys join Keys;
	// the gateway reads it at start-up (see Config.APIKeys).
	KeysFile string `yaml:"keys_file"`
	// AllowAnonymous lets a gateway without keys serve every caller as
	// the anonymous principal. Off by default: no keys, no gateway.
	AllowAnonymous bool `yaml:"allow_anonymous"`
	// PrincipalKeys signs the principal (and its groups) a gateway puts
	// in each run it starts, and lets workers refuse a run whose
	// principal is unsigned or altered (stop unauthorized): reaching
	// Temporal is then not enough to read as any group. "ID:SECRET"
	// entries, comma-separated, secrets of 32 bytes or more (assay key
	// new makes one); the first signs, every one verifies, so a key is
	// rotated by putting the new one first and dropping the old once its
	// runs are done. Gateways, workers and `assay eval answers` against
	// them need the same keys. Empty (the default, `assay dev` included):
	// no signing, and workers run any principal.
	PrincipalKeys Secret `yaml:"principal_keys"`
}

// PrincipalSigner is the signer of auth.principal_keys; nil when none
// are set.
func (c Config) PrincipalSigner() (*auth.Signer, error) {
	return auth.ParseSigningKeys(c.Auth.PrincipalKeys.Reveal())
}

// IndexDir is the index directory, defaulting to <data_dir>/index.
func (c Config) IndexDir() string {
	if c.Index.Dir != "" {
		return c.Index.Dir
	}
	return filepath.Join(c.DataDir, "index")
}

// String renders the configuration as YAML with secrets redacted.
func (c Config) String() string {
	out, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Sprintf("config: %v", err)
	}
	return string(out)
}
