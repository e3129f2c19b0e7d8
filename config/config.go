// Package config holds assay's settings and the one place they are read.
//
// Precedence, lowest first: Default(), a YAML file, the environment
// (ASSAY_<SECTION>_<KEY>, derived from the YAML path: http.addr is
// ASSAY_HTTP_ADDR), then the flags the user actually set. Load applies them
// in that order; Validate reports every bad field at once. A Config never
// prints its secrets: Secret values render as "[redacted]".
package config

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	neturl "net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/assay-rag/assay/internal/wire"
)

// EnvPrefix starts every environment variable assay reads.
const EnvPrefix = "ASSAY_"

// Config is the whole configuration of an assay process.
type Config struct {
	// DataDir holds the local Temporal database and the index.
	DataDir  string   `yaml:"data_dir"`
	HTTP     HTTP     `yaml:"http"`
	Temporal Temporal `yaml:"temporal"`
	Dev      Dev      `yaml:"dev"`
	Index    Index    `yaml:"index"`
	Embed    Embed    `yaml:"embed"`
	LLM      LLM      `yaml:"llm"`
	Loop     Loop     `yaml:"loop"`
	Batch    Batch    `yaml:"batch"`
	Auth     Auth     `yaml:"auth"`
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
	Addr     string `yaml:"addr"`
	Password Secret `yaml:"password"`
}

// Worker configures the worker of `assay worker` and `assay dev`.
type Worker struct {
	// MetricsAddr serves a standalone worker's Prometheus /metrics (runs by
	// stop reason, tokens, cost) when set, e.g. 0.0.0.0:9090.
	MetricsAddr string `yaml:"metrics_addr"`
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
	// StickyCache is how many workflow executions the worker keeps in
	// memory between their tasks, so a task need not replay the history;
	// 0 is the SDK's default (10000). It is process-wide.
	StickyCache int `yaml:"sticky_cache"`
}

// HTTP configures the gateway.
type HTTP struct {
	Addr         string        `yaml:"addr"`
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
}

// Temporal says where the Temporal frontend is and which queue assay uses.
type Temporal struct {
	Address   string `yaml:"address"`
	Namespace string `yaml:"namespace"`
	TaskQueue string `yaml:"task_queue"`
	// Compression of gRPC requests to Temporal: gzip, none, or auto (the
	// default): none when Address is a loopback address, where gzip costs
	// CPU on both ends and saves nothing, gzip otherwise.
	Compression string `yaml:"compression"`
	// TLS to the frontend. TLSCertFile and TLSKeyFile (PEM) are this
	// process's client certificate, for a frontend that requires mutual
	// TLS; TLSCAFile (PEM) is the CA the frontend's certificate must
	// chain to (empty: the system roots); TLSServerName overrides the
	// name checked against it. With none set the connection is plain.
	TLSCertFile   string `yaml:"tls_cert_file"`
	TLSKeyFile    string `yaml:"tls_key_file"`
	TLSCAFile     string `yaml:"tls_ca_file"`
	TLSServerName string `yaml:"tls_server_name"`
}

// TLSConfig builds the TLS configuration of the connection to the
// frontend from the tls_* files, or returns nil when none is set.
func (t Temporal) TLSConfig() (*tls.Config, error) {
	if t.TLSCertFile == "" && t.TLSKeyFile == "" && t.TLSCAFile == "" && t.TLSServerName == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.TLSServerName}
	if t.TLSCertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.TLSCertFile, t.TLSKeyFile)
		if err != nil {
			return nil, fmt.Errorf("temporal.tls_cert_file, temporal.tls_key_file: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if t.TLSCAFile != "" {
		pem, err := os.ReadFile(t.TLSCAFile)
		if err != nil {
			return nil, fmt.Errorf("temporal.tls_ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("temporal.tls_ca_file %s: no PEM certificate in it", t.TLSCAFile)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// Temporal.Compression values.
const (
	CompressionAuto = "auto"
	CompressionGzip = "gzip"
	CompressionNone = "none"
)

// Gzip reports whether requests to Temporal are gzip-compressed.
func (t Temporal) Gzip() bool {
	switch t.Compression {
	case CompressionGzip:
		return true
	case CompressionNone:
		return false
	}
	host, _, err := net.SplitHostPort(t.Address)
	if err != nil {
		return true
	}
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// Dev configures the local Temporal dev server that `assay dev` starts.
type Dev struct {
	TemporalBin  string `yaml:"temporal_bin"`
	TemporalPort int    `yaml:"temporal_port"`
	UIPort       int    `yaml:"ui_port"`
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
	Corpus string `yaml:"corpus"`
	// Dir defaults to <data_dir>/index (bleve backend).
	Dir string `yaml:"dir"`
	// Backend is bleve (the embedded default) or redisearch: one index
	// in the Redis at redis.addr that every worker shares.
	Backend string `yaml:"backend"`
	// Name is the RediSearch index name (an alias over versioned
	// indexes); default "assay".
	Name string `yaml:"name"`
	// RequireACL makes a document without an acl field an error instead
	// of public. Off for the sample and BEIR corpora (which have no ACLs);
	// turn it on for production corpora. A present but empty acl is an
	// error either way.
	RequireACL bool `yaml:"require_acl"`
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
	Provider string `yaml:"provider"`
	// BaseURL, APIKey: the embeddings endpoint for the openai provider;
	// empty takes llm.base_url and llm.api_key.
	BaseURL string `yaml:"base_url"`
	APIKey  Secret `yaml:"api_key"`
	Model   string `yaml:"model"`
	// Dim is the vector length: the builtins' (0 is their default) or the
	// model's (required for openai).
	Dim int `yaml:"dim"`
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
}

// KeysEnv holds keys inline, as a YAML or JSON list in the shape of
// auth.keys; when set it replaces the file's auth.keys.
const KeysEnv = EnvPrefix + "AUTH_KEYS"

// APIKeys returns the keys of auth.keys and auth.keys_file together,
// validated. It reads the file, so only the process that serves the API
// calls it.
func (c Config) APIKeys() ([]Key, error) {
	keys := append([]Key(nil), c.Auth.Keys...)
	if c.Auth.KeysFile != "" {
		data, err := os.ReadFile(c.Auth.KeysFile)
		if err != nil {
			return nil, fmt.Errorf("auth.keys_file: %w", err)
		}
		var f struct {
			Keys []Key `yaml:"keys"`
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("auth.keys_file %s: %w", c.Auth.KeysFile, err)
		}
		if len(f.Keys) == 0 {
			return nil, fmt.Errorf("auth.keys_file %s: no keys (want {\"keys\": [...]})", c.Auth.KeysFile)
		}
		keys = append(keys, f.Keys...)
	}
	var p problems
	validateKeys(&p, keys)
	if err := errors.Join(p...); err != nil {
		return nil, err
	}
	return keys, nil
}

// Key is one API key, stored as the SHA-256 hex of the key itself.
type Key struct {
	Name          string   `yaml:"name"`
	SHA256        string   `yaml:"sha256"`
	Groups        []string `yaml:"groups"`
	RatePerMinute int      `yaml:"rate_per_minute"`
}

// Secret is a string that never prints.
type Secret string

const redacted = "[redacted]"

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString keeps %#v from printing the value.
func (s Secret) GoString() string { return s.String() }

// MarshalYAML keeps the value out of YAML output.
func (s Secret) MarshalYAML() (any, error) { return s.String(), nil }

// MarshalText keeps the value out of JSON and text output.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Reveal returns the secret itself, for the one place that needs it.
func (s Secret) Reveal() string { return string(s) }

// Default returns the settings of the embedded default: everything local,
// builtin models, no corpus (`assay dev` indexes the sample corpus when
// none is set).
func Default() Config {
	return Config{
		DataDir: ".assay",
		HTTP: HTTP{
			Addr:         "127.0.0.1:8080",
			MaxBodyBytes: wire.DefaultMaxBodyBytes,
			MaxWait:      wire.DefaultMaxWait,
			ReadTimeout:  30 * time.Second,
			WriteTimeout: 90 * time.Second,
			IdleTimeout:  120 * time.Second,
		},
		Temporal: Temporal{
			Address:     "127.0.0.1:7233",
			Namespace:   "default",
			TaskQueue:   "assay",
			Compression: CompressionAuto,
		},
		Dev: Dev{
			TemporalBin:  "bin/temporal",
			TemporalPort: 7233,
			UIPort:       8233,
		},
		Index: Index{
			Backend: BackendBleve,
			Name:    "assay",
		},
		Embed: Embed{Provider: EmbedBuiltin},
		LLM: LLM{
			Timeout:    60 * time.Second,
			MaxRetries: 3,
		},
		Loop: Loop{
			MaxAttempts: wire.DefaultMaxAttempts,
			Threshold:   wire.DefaultThreshold,
			MaxTokens:   wire.DefaultMaxTokens,
			MaxCostUSD:  wire.DefaultMaxCostUSD,
			Deadline:    wire.DefaultDeadline,
			TopK:        wire.DefaultTopK,
		},
		Batch: Batch{
			Concurrency:   wire.DefaultConcurrency,
			ContinueAfter: wire.DefaultContinueAfter,
			MaxQuestions:  wire.DefaultMaxQuestions,
		},
		Worker: Worker{LocalActivities: true},
	}
}

// IndexDir is the index directory, defaulting to <data_dir>/index.
func (c Config) IndexDir() string {
	if c.Index.Dir != "" {
		return c.Index.Dir
	}
	return filepath.Join(c.DataDir, "index")
}

// Options are the inputs of Load besides the defaults.
type Options struct {
	// File is a YAML file; empty means none.
	File string
	// Getenv reads the environment; nil means no environment.
	Getenv func(string) string
	// Overrides are settings by YAML path ("http.addr"), applied last:
	// the flags the user set.
	Overrides map[string]string
}

// Load builds a Config from defaults, file, environment and overrides, in
// that order, and validates it.
func Load(opts Options) (Config, error) {
	cfg := Default()
	if opts.File != "" {
		if err := cfg.mergeFile(opts.File); err != nil {
			return Config{}, err
		}
	}
	if opts.Getenv != nil {
		if err := cfg.mergeEnv(opts.Getenv); err != nil {
			return Config{}, err
		}
	}
	paths := make([]string, 0, len(opts.Overrides))
	for p := range opts.Overrides {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := cfg.Set(p, opts.Overrides[p]); err != nil {
			return Config{}, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func (c *Config) mergeFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	return nil
}

func (c *Config) mergeEnv(getenv func(string) string) error {
	var errList []error
	if v := getenv(KeysEnv); strings.TrimSpace(v) != "" {
		var keys []Key
		dec := yaml.NewDecoder(strings.NewReader(v))
		dec.KnownFields(true)
		if err := dec.Decode(&keys); err != nil {
			// The value is secret-adjacent: name the variable, not the text.
			errList = append(errList, fmt.Errorf("%s: want a YAML or JSON list of keys like auth.keys: %v", KeysEnv, yamlErrorLine(err)))
		} else {
			c.Auth.Keys = keys
		}
	}
	for _, s := range settings(c) {
		name := EnvName(s.path)
		v := getenv(name)
		if v == "" {
			continue
		}
		if err := s.set(v); err != nil {
			errList = append(errList, fmt.Errorf("%s: %w", name, err))
		}
	}
	return errors.Join(errList...)
}

// Set sets one scalar setting by its YAML path, parsing value as the
// setting's type (durations as "10s", lists comma-separated).
func (c *Config) Set(path, value string) error {
	for _, s := range settings(c) {
		if s.path == path {
			if err := s.set(value); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			return nil
		}
	}
	return fmt.Errorf("%s: no such setting", path)
}

// EnvName is the environment variable for a YAML path.
func EnvName(path string) string {
	return EnvPrefix + strings.ToUpper(strings.NewReplacer(".", "_").Replace(path))
}

// EnvNames lists every environment variable assay reads, sorted.
func EnvNames() []string {
	var c Config
	var out []string
	for _, s := range settings(&c) {
		out = append(out, EnvName(s.path))
	}
	out = append(out, KeysEnv)
	sort.Strings(out)
	return out
}

// yamlErrorLine keeps the position and reason of a YAML error.
func yamlErrorLine(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

// setting is one scalar field reachable by a YAML path.
type setting struct {
	path string
	v    reflect.Value
}

var durationType = reflect.TypeFor[time.Duration]()

// settings walks c's scalar fields. Lists of structs (auth.keys) are file-only.
func settings(c *Config) []setting {
	var out []setting
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			path := name
			if prefix != "" {
				path = prefix + "." + name
			}
			f := v.Field(i)
			switch {
			case f.Kind() == reflect.Struct:
				walk(path, f)
			case f.Kind() == reflect.Slice && f.Type().Elem().Kind() != reflect.String, f.Kind() == reflect.Map:
				// not settable from a string: file only
			default:
				out = append(out, setting{path: path, v: f})
			}
		}
	}
	walk("", reflect.ValueOf(c).Elem())
	return out
}

func (s setting) set(value string) error {
	value = strings.TrimSpace(value)
	switch {
	case s.v.Type() == durationType:
		d, err := time.ParseDuration(value)
		if err != nil {
			return fmt.Errorf("want a duration like 30s, got %q", value)
		}
		s.v.SetInt(int64(d))
	case s.v.Kind() == reflect.String:
		s.v.SetString(value)
	case s.v.Kind() == reflect.Int, s.v.Kind() == reflect.Int64:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer, got %q", value)
		}
		s.v.SetInt(n)
	case s.v.Kind() == reflect.Float64:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("want a number, got %q", value)
		}
		s.v.SetFloat(f)
	case s.v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", value)
		}
		s.v.SetBool(b)
	case s.v.Kind() == reflect.Slice:
		var list []string
		for _, item := range strings.Split(value, ",") {
			if item = strings.TrimSpace(item); item != "" {
				list = append(list, item)
			}
		}
		s.v.Set(reflect.ValueOf(list))
	default:
		return fmt.Errorf("unsupported setting type %s", s.v.Type())
	}
	return nil
}

// Validate reports every invalid field, each named by its YAML path.
func (c Config) Validate() error {
	var p problems
	c.validateServers(&p)
	c.validateModels(&p)
	c.validateLoop(&p)
	c.validateAuth(&p)
	return errors.Join(p...)
}

// problems collects invalid settings, each named by its YAML path.
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

// validateServers checks where assay listens and what it connects to.
func (c Config) validateServers(p *problems) {
	if c.DataDir == "" {
		p.add("data_dir", "must not be empty")
	}
	if _, _, err := net.SplitHostPort(c.HTTP.Addr); err != nil {
		p.add("http.addr", "want host:port, got %q", c.HTTP.Addr)
	}
	if c.HTTP.MaxBodyBytes < 1024 {
		p.add("http.max_body_bytes", "must be at least 1024, got %d", c.HTTP.MaxBodyBytes)
	}
	if c.HTTP.MaxWait < 0 {
		p.add("http.max_wait", "must not be negative")
	}
	if u := c.HTTP.TemporalUIURL; u != "" {
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			p.add("http.temporal_ui_url", "want an http(s) URL like http://127.0.0.1:8233, got %q", u)
		}
	}
	if c.HTTP.ReadTimeout <= 0 {
		p.add("http.read_timeout", "must be positive")
	}
	if c.HTTP.WriteTimeout <= c.HTTP.MaxWait {
		p.add("http.write_timeout", "must exceed http.max_wait (%s), got %s", c.HTTP.MaxWait, c.HTTP.WriteTimeout)
	}
	if c.HTTP.IdleTimeout <= 0 {
		p.add("http.idle_timeout", "must be positive")
	}
	for i, proxy := range c.HTTP.TrustedProxies {
		if net.ParseIP(proxy) == nil {
			if _, _, err := net.ParseCIDR(proxy); err != nil {
				p.add(fmt.Sprintf("http.trusted_proxies[%d]", i), "want an IP address or CIDR, got %q", proxy)
			}
		}
	}
	if c.Worker.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.Worker.MetricsAddr); err != nil {
			p.add("worker.metrics_addr", "want host:port, got %q", c.Worker.MetricsAddr)
		}
	}
	switch c.Index.Backend {
	case BackendBleve:
	case BackendRediSearch:
		if c.Redis.Addr == "" {
			p.add("redis.addr", "index.backend redisearch needs the Redis address (ASSAY_REDIS_ADDR)")
		}
		if c.Index.Name == "" || strings.ContainsAny(c.Index.Name, " \t\n{}:") {
			p.add("index.name", "want a name without spaces, braces or colons, got %q", c.Index.Name)
		}
	default:
		p.add("index.backend", "want bleve or redisearch, got %q", c.Index.Backend)
	}
	if c.Redis.Addr != "" {
		if _, _, err := net.SplitHostPort(c.Redis.Addr); err != nil {
			p.add("redis.addr", "want host:port, got %q", c.Redis.Addr)
		}
	}
	if _, _, err := net.SplitHostPort(c.Temporal.Address); err != nil {
		p.add("temporal.address", "want host:port, got %q", c.Temporal.Address)
	}
	if c.Temporal.Namespace == "" {
		p.add("temporal.namespace", "must not be empty")
	}
	switch c.Temporal.Compression {
	case CompressionAuto, CompressionGzip, CompressionNone:
	default:
		p.add("temporal.compression", "want auto, gzip or none, got %q", c.Temporal.Compression)
	}
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
	if c.Temporal.TaskQueue == "" {
		p.add("temporal.task_queue", "must not be empty")
	}
	if (c.Temporal.TLSCertFile == "") != (c.Temporal.TLSKeyFile == "") {
		p.add("temporal.tls_key_file", "temporal.tls_cert_file and temporal.tls_key_file go together: set both or neither")
	}
	if port := c.Dev.TemporalPort; port < 0 || port > 65535 {
		p.add("dev.temporal_port", "want a port in 0..65535, got %d", port)
	}
	if port := c.Dev.UIPort; port < 0 || port > 65535 {
		p.add("dev.ui_port", "want a port in 0..65535, got %d", port)
	}
}

// validateModels checks the model endpoint, prices and the embedder.
func (c Config) validateModels(p *problems) {
	if c.LLM.BaseURL != "" {
		u, err := neturl.Parse(c.LLM.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			p.add("llm.base_url", "want an http(s) URL, got %q", c.LLM.BaseURL)
		}
		if c.LLM.SmallModel == "" && c.LLM.LargeModel == "" {
			p.add("llm.small_model", "name at least one of llm.small_model and llm.large_model when llm.base_url is set")
		}
	}
	switch c.Embed.Provider {
	case EmbedBuiltin, EmbedBuiltinIDF, EmbedNone:
	case EmbedOpenAI:
		url, _ := c.EmbedEndpoint()
		if u, err := neturl.Parse(url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
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
	if c.Embed.Dim < 0 {
		p.add("embed.dim", "must not be negative")
	}
	switch c.LLM.Fallback {
	case "", LLMFallbackBuiltin:
	default:
		p.add("llm.fallback", "want builtin or empty, got %q", c.LLM.Fallback)
	}
	if c.LLM.Timeout <= 0 {
		p.add("llm.timeout", "must be positive")
	}
	if c.LLM.MaxRetries < 0 {
		p.add("llm.max_retries", "must not be negative")
	}
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
	if c.Loop.MaxTokens < 0 {
		p.add("loop.max_tokens", "must not be negative")
	}
	if c.Loop.MaxCostUSD < 0 {
		p.add("loop.max_cost_usd", "must not be negative")
	}
	if c.Loop.Deadline <= 0 {
		p.add("loop.deadline", "must be positive")
	}
	p.inRange("loop.top_k", wire.TopKRange, c.Loop.TopK)
	p.inRange("batch.concurrency", wire.ConcurrencyRange, c.Batch.Concurrency)
	if c.Batch.ContinueAfter < 1 {
		p.add("batch.continue_after", "must be at least 1, got %d", c.Batch.ContinueAfter)
	}
	p.inRange("batch.max_questions", wire.BatchQuestionsRange, c.Batch.MaxQuestions)
}

// validateAuth checks the API keys.
func (c Config) validateAuth(p *problems) { validateKeys(p, c.Auth.Keys) }

// validateKeys checks keys, each named by its auth.keys[i] path.
func validateKeys(p *problems, keys []Key) {
	seen := map[string]bool{}
	for i, k := range keys {
		path := fmt.Sprintf("auth.keys[%d]", i)
		if k.Name == "" {
			p.add(path+".name", "must not be empty")
		}
		if !isSHA256Hex(k.SHA256) {
			p.add(path+".sha256", "want 64 lowercase hex digits (see `assay key hash`)")
		} else if seen[k.SHA256] {
			p.add(path+".sha256", "duplicates an earlier key")
		}
		seen[k.SHA256] = true
		if len(k.Groups) == 0 {
			p.add(path+".groups", "must name at least one group")
		}
		if k.RatePerMinute < 0 {
			p.add(path+".rate_per_minute", "must not be negative")
		}
	}
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// String renders the configuration as YAML with secrets redacted.
func (c Config) String() string {
	out, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Sprintf("config: %v", err)
	}
	return string(out)
}
