// Package llm is assay's client for any OpenAI-compatible chat endpoint
// (OpenAI, vLLM, Ollama, llama.cpp server, TGI...), built on go-openai.
//
// It adds what a durable answer loop needs and go-openai leaves out: a
// per-call timeout; retries with exponential backoff and jitter on 429
// (honouring Retry-After), 5xx, timeouts and dropped connections, and none
// on other 4xx; errors typed with internal/errs kinds; usage, finish reason
// and cost (from a configured price table) on every reply; streaming with
// a token callback; and structured output through a JSON-schema
// response_format. Sleeping and jitter are injectable so tests never wait
// for real.
//
// The client does not validate a structured reply against its schema
// beyond strict decoding (Reply.Decode); semantic checks belong to the
// caller, which owns the type.
package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/assay-rag/assay/internal/errs"
)

// Roles of chat messages.
const (
	System    = "system"
	User      = "user"
	Assistant = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Schema asks for structured output: the reply must be one JSON value
// matching Schema (a JSON Schema document).
type Schema struct {
	Name   string
	Schema json.RawMessage
	// Strict asks the server to enforce the schema while decoding, where
	// it can.
	Strict bool
}

// Request is one chat completion.
type Request struct {
	Model    string
	Messages []Message
	// MaxTokens bounds the reply; 0 leaves it to the server.
	MaxTokens int
	// Temperature is sent as given, 0 included; nil leaves it to the
	// server (reasoning models reject any other value).
	Temperature *float64
	// Schema, when set, asks for JSON matching it.
	Schema *Schema
}

// Validate checks a request; errors name the field.
func (r Request) Validate() error {
	const op = "llm.Request"
	if strings.TrimSpace(r.Model) == "" {
		return errs.FieldError(op, "model", "must not be empty")
	}
	if len(r.Messages) == 0 {
		return errs.FieldError(op, "messages", "must hold at least one message")
	}
	for i, m := range r.Messages {
		switch m.Role {
		case System, User, Assistant:
		default:
			return errs.FieldError(op, fmt.Sprintf("messages[%d].role", i), fmt.Sprintf("want system, user or assistant, got %q", m.Role))
		}
	}
	if r.MaxTokens < 0 {
		return errs.FieldError(op, "max_tokens", "must not be negative")
	}
	if t := r.Temperature; t != nil && (*t < 0 || *t > 2) {
		return errs.FieldError(op, "temperature", fmt.Sprintf("want 0..2, got %g", *t))
	}
	if r.Schema != nil {
		if r.Schema.Name == "" {
			return errs.FieldError(op, "schema.name", "must not be empty")
		}
		if !json.Valid(r.Schema.Schema) {
			return errs.FieldError(op, "schema.schema", "is not valid JSON")
		}
	}
	return nil
}

// Usage counts the tokens of one call.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// Reported is false when the server sent no usage; the counts are then
	// zero and a caller that budgets tokens must estimate them.
	Reported bool `json:"reported"`
}

// Reply is a completed chat call.
type Reply struct {
	Text string
	// Model is the model the request named; ServedBy is what the server
	// says answered (often the same name with a version suffix).
	Model        string
	ServedBy     string
	FinishReason string
	Usage        Usage
	// CostUSD is priced from the request's model; Priced is false when
	// the price table has no entry for it and the cost is counted as 0.
	CostUSD float64
	Priced  bool
	// Attempts is how many HTTP calls it took, retries included.
	Attempts int
}

// Decode strictly decodes a structured reply into v: one JSON value, no
// unknown fields, nothing after it. A reply wrapped in a Markdown code
// fence is unwrapped first, because some servers add one even in JSON
// mode. Failures are errs.Schema.
func (r Reply) Decode(v any) error {
	const op = "llm.Decode"
	text := strings.TrimSpace(r.Text)
	if rest, ok := strings.CutPrefix(text, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "```"))
	}
	dst := reflect.ValueOf(v)
	if dst.Kind() != reflect.Pointer || dst.IsNil() {
		return errs.Errorf(op, errs.Invalid, "decode target must be a non-nil pointer, got %T", v)
	}
	// Decode into a fresh value so a failure leaves v untouched.
	tmp := reflect.New(dst.Type().Elem())
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(tmp.Interface()); err != nil {
		return errs.E(op, errs.Schema, fmt.Errorf("reply is not the requested JSON: %w", err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return errs.E(op, errs.Schema, fmt.Errorf("reply has data after its JSON value"))
	}
	dst.Elem().Set(tmp.Elem())
	return nil
}

// Backoff shapes the waits between retries: the n-th retry waits a random
// time in [d/2, d) with d = min(Max, Initial·2ⁿ) ("equal jitter", so
// clients that failed together do not retry together and none retries at
// once). A Retry-After header overrides the computed wait when longer.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
}

// Config configures a Client.
type Config struct {
	// BaseURL is the API root including its version path, for example
	// http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1.
	BaseURL string
	APIKey  string
	// Timeout bounds each HTTP call (each attempt, and a whole stream).
	Timeout time.Duration
	// MaxRetries is how many times a retryable failure is retried.
	MaxRetries int
	Backoff    Backoff
	// MaxRetryAfter is the longest Retry-After the client waits for; a
	// longer one fails at once with errs.RateLimited so the caller can
	// decide. 0 means Backoff.Max.
	MaxRetryAfter time.Duration
	Prices        Prices
	// HTTPClient defaults to a client with no overall timeout (Timeout
	// applies per call through the context).
	HTTPClient *http.Client
	// Sleep waits d or until ctx ends; nil sleeps for real. Tests inject
	// a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1); nil uses math/rand/v2.
	Jitter func() float64
	// Now is the clock for Retry-After dates; nil is time.Now.
	Now func() time.Time
}

// Defaults used when a Config leaves a field zero.
const (
	DefaultTimeout        = 60 * time.Second
	DefaultBackoffInitial = 500 * time.Millisecond
	DefaultBackoffMax     = 20 * time.Second
)

// Client calls one OpenAI-compatible endpoint. Safe for concurrent use.
type Client struct {
	api    *openai.Client
	cfg    Config
	sleep  func(context.Context, time.Duration) error
	jitter func() float64
	now    func() time.Time
}

// New checks cfg and returns a client. Errors name the field.
func New(cfg Config) (*Client, error) {
	const op = "llm.New"
	u, err := url.Parse(cfg.BaseURL)
	if cfg.BaseURL == "" {
		return nil, errs.FieldError(op, "base_url", "must not be empty")
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errs.FieldError(op, "base_url", fmt.Sprintf("want an http(s) URL, got %q", cfg.BaseURL))
	}
	if cfg.Timeout < 0 {
		return nil, errs.FieldError(op, "timeout", "must not be negative")
	}
	if cfg.MaxRetries < 0 {
		return nil, errs.FieldError(op, "max_retries", "must not be negative")
	}
	if cfg.Backoff.Initial < 0 || cfg.Backoff.Max < 0 || cfg.MaxRetryAfter < 0 {
		return nil, errs.FieldError(op, "backoff", "durations must not be negative")
	}
	if err := cfg.Prices.Validate(); err != nil {
		return nil, err
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Backoff.Initial == 0 {
		cfg.Backoff.Initial = DefaultBackoffInitial
	}
	if cfg.Backoff.Max == 0 {
		cfg.Backoff.Max = DefaultBackoffMax
	}
	if cfg.MaxRetryAfter == 0 {
		cfg.MaxRetryAfter = cfg.Backoff.Max
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = hintDoer{hc}
	c := &Client{api: openai.NewClientWithConfig(oc), cfg: cfg, sleep: cfg.Sleep, jitter: cfg.Jitter, now: cfg.Now}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	if c.jitter == nil {
		c.jitter = rand.Float64
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
