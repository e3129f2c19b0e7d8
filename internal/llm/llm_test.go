package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/llm/llmtest"
)

// sleeper records the waits a client asks for instead of waiting.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newClient points a client at srv with no real sleeping and no jitter
// (each backoff wait is exactly half its ceiling).
func newClient(t *testing.T, srv *llmtest.Server, edit func(*llm.Config)) (*llm.Client, *sleeper) {
	t.Helper()
	sl := &sleeper{}
	cfg := llm.Config{
		BaseURL:    srv.URL(),
		APIKey:     "test-key",
		Timeout:    2 * time.Second,
		MaxRetries: 3,
		Backoff:    llm.Backoff{Initial: 500 * time.Millisecond, Max: 20 * time.Second},
		Prices:     llm.Prices{"small": {InputPerMTok: 0.5, OutputPerMTok: 1.5}},
		Sleep:      sl.Sleep,
		Jitter:     func() float64 { return 0 },
	}
	if edit != nil {
		edit(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatalf("llm.New: %v", err)
	}
	return c, sl
}

func chatRequest() llm.Request {
	zero := 0.0
	return llm.Request{
		Model: "small",
		Messages: []llm.Message{
			{Role: llm.System, Content: "You answer from sources."},
			{Role: llm.User, Content: "What is covered?"},
		},
		MaxTokens:   200,
		Temperature: &zero,
	}
}

func TestChatReply(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Reply("Motors are covered for 5 years. [1]", 1000, 200))
	c, sl := newClient(t, srv, nil)

	got, err := c.Chat(context.Background(), chatRequest())
	if err != nil {
		t.Fatalf("Chat: %v", err)
	}
	want := llm.Reply{
		Text: "Motors are covered for 5 years. [1]", Model: "small", ServedBy: "small", FinishReason: "stop",
		Usage:   llm.Usage{PromptTokens: 1000, CompletionTokens: 200, Reported: true},
		CostUSD: (1000*0.5 + 200*1.5) / 1e6, Priced: true, Attempts: 1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Chat reply (-want +got):\n%s", diff)
	}
	if len(sl.Waits()) != 0 {
		t.Errorf("Chat slept %v, want no wait", sl.Waits())
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if got, want := r.Header.Get("Authorization"), "Bearer test-key"; got != want {
		t.Errorf("Authorization = %q, want %q", got, want)
	}
	if got, want := r.System(), "You answer from sources."; got != want {
		t.Errorf("system message = %q, want %q", got, want)
	}
	if got, want := r.User(), "What is covered?"; got != want {
		t.Errorf("user message = %q, want %q", got, want)
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if temp, ok := body["temperature"].(float64); !ok || temp > 1e-6 {
		t.Errorf("temperature in body = %v, want (nearly) 0 and present", body["temperature"])
	}
	if got, want := body["max_tokens"], float64(200); got != want {
		t.Errorf("max_tokens = %v, want %v", got, want)
	}
}

func TestChatUnpricedModel(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Reply("ok [1]", 10, 2))
	c, _ := newClient(t, srv, nil)
	req := chatRequest()
	req.Model = "unpriced"
	got, err := c.Chat(context.Background(), req)
	if err != nil {
		t.Fatalf("Chat: %v", err)
	}
	if got.Priced || got.CostUSD != 0 {
		t.Errorf("Chat(unpriced model) = priced %v cost %v, want unpriced and 0", got.Priced, got.CostUSD)
	}
}

func TestChatNoUsageReported(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Step{Text: "no usage here [1]"})
	c, _ := newClient(t, srv, nil)
	got, err := c.Chat(context.Background(), chatRequest())
	if err != nil {
		t.Fatalf("Chat: %v", err)
	}
	if got.Usage.Reported {
		t.Errorf("Chat usage = %+v, want Reported false when the server sent none", got.Usage)
	}
}

// TestChatFaults drives the retry policy through the scripted faults.
func TestChatFaults(t *testing.T) {
	ok := llmtest.Reply("fine [1]", 5, 2)
	ms := time.Millisecond
	tests := []struct {
		name       string
		steps      []llmtest.Step
		edit       func(*llm.Config)
		wantKind   errs.Kind // errs.Other: success
		wantCalls  int
		wantWaits  []time.Duration
		wantErrHas string
	}{
		{name: "500 then ok retries once", steps: []llmtest.Step{llmtest.Status(500, "boom"), ok},
			wantCalls: 2, wantWaits: []time.Duration{250 * ms}},
		{name: "503 three times then ok backs off exponentially",
			steps:     []llmtest.Step{llmtest.Status(503, "busy"), llmtest.Status(503, "busy"), llmtest.Status(503, "busy"), ok},
			wantCalls: 4, wantWaits: []time.Duration{250 * ms, 500 * ms, 1000 * ms}},
		{name: "500 past max retries is unavailable",
			steps:    []llmtest.Step{llmtest.Status(500, "a"), llmtest.Status(500, "b"), llmtest.Status(500, "c"), llmtest.Status(500, "d")},
			wantKind: errs.Unavailable, wantCalls: 4, wantWaits: []time.Duration{250 * ms, 500 * ms, 1000 * ms}, wantErrHas: "gave up after 4 attempts"},
		{name: "429 honours Retry-After seconds", steps: []llmtest.Step{llmtest.RateLimited("3"), ok},
			wantCalls: 2, wantWaits: []time.Duration{3 * time.Second}},
		{name: "429 with a short Retry-After waits the longer backoff", steps: []llmtest.Step{llmtest.RateLimited("0"), ok},
			wantCalls: 2, wantWaits: []time.Duration{250 * ms}},
		{name: "429 honours Retry-After as an HTTP date",
			steps: []llmtest.Step{llmtest.RateLimited("Sun, 29 Nov 2026 12:00:07 GMT"), ok},
			edit: func(c *llm.Config) {
				c.Now = func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }
			},
			wantCalls: 2, wantWaits: []time.Duration{7 * time.Second}},
		{name: "429 asking for longer than the client waits fails at once",
			steps:    []llmtest.Step{llmtest.RateLimited("120")},
			wantKind: errs.RateLimited, wantCalls: 1, wantErrHas: "retry after 2m0s"},
		{name: "429 past max retries is rate limited",
			steps:    []llmtest.Step{llmtest.RateLimited("1"), llmtest.RateLimited("1")},
			edit:     func(c *llm.Config) { c.MaxRetries = 1 },
			wantKind: errs.RateLimited, wantCalls: 2, wantWaits: []time.Duration{time.Second}},
		{name: "400 is not retried", steps: []llmtest.Step{llmtest.Status(400, "bad request")},
			wantKind: errs.Invalid, wantCalls: 1},
		{name: "401 is not retried", steps: []llmtest.Step{llmtest.Status(401, "bad key")},
			wantKind: errs.Unauthorized, wantCalls: 1},
		{name: "403 is not retried", steps: []llmtest.Step{llmtest.Status(403, "no")},
			wantKind: errs.Forbidden, wantCalls: 1},
		{name: "404 unknown model is not found", steps: []llmtest.Step{llmtest.Status(404, "model not found")},
			wantKind: errs.NotFound, wantCalls: 1},
		{name: "400 on response_format is unsupported",
			steps:    []llmtest.Step{llmtest.Status(400, "response_format json_schema is not supported by this model")},
			wantKind: errs.Unsupported, wantCalls: 1},
		{name: "400 on context length is unsupported",
			steps:    []llmtest.Step{llmtest.Status(400, "This model's maximum context length is 8192 tokens")},
			wantKind: errs.Unsupported, wantCalls: 1},
		{name: "malformed JSON then ok retries", steps: []llmtest.Step{llmtest.Malformed(), ok},
			wantCalls: 2, wantWaits: []time.Duration{250 * ms}},
		{name: "malformed JSON past max retries is unavailable", steps: []llmtest.Step{llmtest.Malformed(), llmtest.Malformed()},
			edit:     func(c *llm.Config) { c.MaxRetries = 1 },
			wantKind: errs.Unavailable, wantCalls: 2, wantWaits: []time.Duration{250 * ms}, wantErrHas: "malformed response"},
		{name: "body cut half way is unavailable", steps: []llmtest.Step{llmtest.Cut([]string{"a", "b"}, 1)},
			edit:     func(c *llm.Config) { c.MaxRetries = 0 },
			wantKind: errs.Unavailable, wantCalls: 1},
		{name: "slow reply past the timeout retries", steps: []llmtest.Step{llmtest.Slow(5*time.Second, ok), ok},
			edit:      func(c *llm.Config) { c.Timeout = 100 * ms },
			wantCalls: 2, wantWaits: []time.Duration{250 * ms}},
		{name: "slow reply past the timeout every time is a timeout",
			steps:    []llmtest.Step{llmtest.Slow(5*time.Second, ok), llmtest.Slow(5*time.Second, ok)},
			edit:     func(c *llm.Config) { c.Timeout = 100 * ms; c.MaxRetries = 1 },
			wantKind: errs.Timeout, wantCalls: 2, wantWaits: []time.Duration{250 * ms}, wantErrHas: "no reply within 100ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Enqueue(tt.steps...)
			c, sl := newClient(t, srv, tt.edit)
			got, err := c.Chat(context.Background(), chatRequest())
			if tt.wantKind == errs.Other {
				if err != nil {
					t.Fatalf("Chat = %v, want success", err)
				}
				if got.Text != "fine [1]" || got.Attempts != tt.wantCalls {
					t.Errorf("Chat = %q after %d attempts, want %q after %d", got.Text, got.Attempts, "fine [1]", tt.wantCalls)
				}
			} else {
				if got := errs.KindOf(err); got != tt.wantKind {
					t.Fatalf("Chat error kind = %q (%v), want %q", got, err, tt.wantKind)
				}
				if tt.wantErrHas != "" && !strings.Contains(err.Error(), tt.wantErrHas) {
					t.Errorf("Chat error = %q, want it to mention %q", err, tt.wantErrHas)
				}
			}
			if got := len(srv.Requests()); got != tt.wantCalls {
				t.Errorf("server saw %d requests, want %d", got, tt.wantCalls)
			}
			if diff := cmp.Diff(tt.wantWaits, sl.Waits()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChatCallerDeadlineStopsRetrying(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Status(503, "busy"))
	c, _ := newClient(t, srv, func(c *llm.Config) { c.Sleep = nil }) // real sleep: 250ms
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Chat(ctx, chatRequest())
	if got := errs.KindOf(err); got != errs.Timeout {
		t.Errorf("Chat under a 50ms caller deadline = %v (kind %q), want kind timeout", err, got)
	}
	if got := len(srv.Requests()); got != 1 {
		t.Errorf("server saw %d requests, want 1", got)
	}
}

func TestStream(t *testing.T) {
	srv := llmtest.New(t)
	chunks := []string{"Motors are ", "covered for ", "5 years", ". [1]"}
	srv.Enqueue(llmtest.Stream(chunks, 900, 12))
	c, _ := newClient(t, srv, nil)
	var seen []string
	got, err := c.Stream(context.Background(), chatRequest(), func(tok string) error {
		seen = append(seen, tok)
		return nil
	})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if diff := cmp.Diff(chunks, seen); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	want := llm.Reply{
		Text: "Motors are covered for 5 years. [1]", Model: "small", ServedBy: "small", FinishReason: "stop",
		Usage:   llm.Usage{PromptTokens: 900, CompletionTokens: 12, Reported: true},
		CostUSD: (900*0.5 + 12*1.5) / 1e6, Priced: true, Attempts: 1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Stream reply (-want +got):\n%s", diff)
	}
	req := srv.Requests()[0].Chat
	if !req.Stream || req.StreamOptions == nil || !req.StreamOptions.IncludeUsage {
		t.Errorf("stream request: stream=%v stream_options=%+v, want stream with include_usage", req.Stream, req.StreamOptions)
	}
}

func TestStreamCutHalfWay(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Cut([]string{"Motors ", "are ", "covered ", "for ", "5 years."}, 2))
	c, sl := newClient(t, srv, nil)
	var seen []string
	got, err := c.Stream(context.Background(), chatRequest(), func(tok string) error {
		seen = append(seen, tok)
		return nil
	})
	if kind := errs.KindOf(err); kind != errs.Unavailable {
		t.Fatalf("Stream(cut after 2 chunks) error = %v (kind %q), want kind unavailable", err, kind)
	}
	if !strings.Contains(err.Error(), "after 2 pieces") {
		t.Errorf("Stream error = %q, want it to say how far the stream got", err)
	}
	if diff := cmp.Diff([]string{"Motors ", "are "}, seen); diff != "" {
		t.Errorf("tokens before the cut (-want +got):\n%s", diff)
	}
	if got.Text != "Motors are " {
		t.Errorf("partial text = %q, want %q", got.Text, "Motors are ")
	}
	// Tokens already went to the caller: a retry would repeat them.
	if n := len(srv.Requests()); n != 1 || len(sl.Waits()) != 0 {
		t.Errorf("server saw %d requests and the client waited %v, want 1 request and no retry", n, sl.Waits())
	}
}

func TestStreamRetriesBeforeFirstToken(t *testing.T) {
	tests := []struct {
		name  string
		first llmtest.Step
	}{
		{"500", llmtest.Status(500, "boom")},
		{"429", llmtest.RateLimited("1")},
		{"malformed event", llmtest.Malformed()},
		{"cut before any chunk", llmtest.Cut([]string{"a", "b"}, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Enqueue(tt.first, llmtest.Stream([]string{"ok ", "[1]"}, 3, 2))
			c, _ := newClient(t, srv, nil)
			got, err := c.Stream(context.Background(), chatRequest(), nil)
			if err != nil {
				t.Fatalf("Stream after a %s = %v, want success on retry", tt.name, err)
			}
			if got.Text != "ok [1]" || got.Attempts != 2 {
				t.Errorf("Stream = %q after %d attempts, want %q after 2", got.Text, got.Attempts, "ok [1]")
			}
		})
	}
}

func TestStreamCallbackErrorStops(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Stream([]string{"a ", "b ", "c"}, 1, 1))
	c, _ := newClient(t, srv, nil)
	stop := errors.New("client went away")
	_, err := c.Stream(context.Background(), chatRequest(), func(string) error { return stop })
	if !errors.Is(err, stop) {
		t.Errorf("Stream with a failing callback = %v, want the callback's error", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

type verdict struct {
	Score      float64 `json:"score"`
	Sufficient bool    `json:"sufficient"`
}

func TestStructuredOutput(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"score":{"type":"number"},"sufficient":{"type":"boolean"}},"required":["score","sufficient"],"additionalProperties":false}`)
	tests := []struct {
		name     string
		reply    string
		want     verdict
		wantKind errs.Kind
	}{
		{"valid", `{"score":0.8,"sufficient":true}`, verdict{0.8, true}, errs.Other},
		{"fenced", "```json\n{\"score\":0.2,\"sufficient\":false}\n```", verdict{0.2, false}, errs.Other},
		{"not json", `The score is 0.8`, verdict{}, errs.Schema},
		{"unknown field", `{"score":0.8,"sufficient":true,"extra":1}`, verdict{}, errs.Schema},
		{"wrong type", `{"score":"high","sufficient":true}`, verdict{}, errs.Schema},
		{"trailing data", `{"score":0.8,"sufficient":true} and more`, verdict{}, errs.Schema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Enqueue(llmtest.Reply(tt.reply, 10, 5))
			c, _ := newClient(t, srv, nil)
			req := chatRequest()
			req.Schema = &llm.Schema{Name: "assessment", Schema: schema, Strict: true}
			reply, err := c.Chat(context.Background(), req)
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			var got verdict
			err = reply.Decode(&got)
			if kind := errs.KindOf(err); kind != tt.wantKind {
				t.Fatalf("Decode(%q) error = %v (kind %q), want kind %q", tt.reply, err, kind, tt.wantKind)
			}
			if got != tt.want {
				t.Errorf("Decode(%q) = %+v, want %+v", tt.reply, got, tt.want)
			}
			rf := srv.Requests()[0].Chat.ResponseFormat
			if rf == nil || rf.Type != "json_schema" || rf.JSONSchema == nil ||
				rf.JSONSchema.Name != "assessment" || !rf.JSONSchema.Strict {
				t.Fatalf("response_format = %+v, want a strict json_schema named assessment", rf)
			}
			sent, _ := json.Marshal(rf.JSONSchema.Schema)
			var a, b any
			json.Unmarshal(sent, &a)
			json.Unmarshal(schema, &b)
			if diff := cmp.Diff(b, a); diff != "" {
				t.Errorf("schema sent (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequestValidate(t *testing.T) {
	hot := 3.0
	tests := []struct {
		name      string
		edit      func(*llm.Request)
		wantField string
	}{
		{"no model", func(r *llm.Request) { r.Model = " " }, "model"},
		{"no messages", func(r *llm.Request) { r.Messages = nil }, "messages"},
		{"bad role", func(r *llm.Request) { r.Messages[1].Role = "tool" }, "messages[1].role"},
		{"negative max tokens", func(r *llm.Request) { r.MaxTokens = -1 }, "max_tokens"},
		{"temperature out of range", func(r *llm.Request) { r.Temperature = &hot }, "temperature"},
		{"schema without name", func(r *llm.Request) { r.Schema = &llm.Schema{Schema: json.RawMessage(`{}`)} }, "schema.name"},
		{"schema not json", func(r *llm.Request) { r.Schema = &llm.Schema{Name: "x", Schema: json.RawMessage(`{`)} }, "schema.schema"},
	}
	srv := llmtest.New(t)
	c, _ := newClient(t, srv, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := chatRequest()
			tt.edit(&req)
			_, err := c.Chat(context.Background(), req)
			if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != tt.wantField {
				t.Errorf("Chat(%s) = %v (kind %q, field %q), want invalid field %q", tt.name, err, errs.KindOf(err), errs.FieldOf(err), tt.wantField)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("invalid requests reached the server %d times, want 0", n)
	}
}

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name      string
		cfg       llm.Config
		wantField string
	}{
		{"no base url", llm.Config{}, "base_url"},
		{"not a url", llm.Config{BaseURL: "localhost:8000"}, "base_url"},
		{"negative timeout", llm.Config{BaseURL: "http://x/v1", Timeout: -1}, "timeout"},
		{"negative retries", llm.Config{BaseURL: "http://x/v1", MaxRetries: -1}, "max_retries"},
		{"negative price", llm.Config{BaseURL: "http://x/v1", Prices: llm.Prices{"m": {InputPerMTok: -1}}}, "prices.m.input_per_mtok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llm.New(tt.cfg)
			if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != tt.wantField {
				t.Errorf("New(%s) = %v, want invalid field %q", tt.name, err, tt.wantField)
			}
		})
	}
}

func TestEmbeddingsServed(t *testing.T) {
	// The scripted server also serves /v1/embeddings for the embedder's
	// tests; check the canned and derived vectors over plain HTTP.
	srv := llmtest.New(t)
	srv.SetVector("hello", []float32{1, 0, 0})
	srv.EnqueueEmbeddings(llmtest.Status(503, "warming up"))
	post := func() (*http.Response, error) {
		return http.Post(srv.URL()+"/embeddings", "application/json",
			strings.NewReader(`{"model":"e","input":["hello","other"]}`))
	}
	resp, err := post()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 {
		t.Errorf("first embeddings status = %d, want the scripted 503", resp.StatusCode)
	}
	resp, err = post()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if len(body.Data) != 2 || !cmp.Equal(body.Data[0].Embedding, []float32{1, 0, 0}) || len(body.Data[1].Embedding) != 3 {
		t.Errorf("embeddings = %+v, want the canned vector then a derived 3-d one", body.Data)
	}
	if got := srv.Requests()[1].Inputs; !cmp.Equal(got, []string{"hello", "other"}) {
		t.Errorf("recorded inputs = %v, want [hello other]", got)
	}
}

func TestPricesCost(t *testing.T) {
	p := llm.Prices{"m": {InputPerMTok: 2, OutputPerMTok: 8}}
	got, ok := p.Cost("m", llm.Usage{PromptTokens: 500_000, CompletionTokens: 250_000})
	if !ok || got != 3 {
		t.Errorf("Cost(m, 0.5M in, 0.25M out) = %v, %v, want 3, true", got, ok)
	}
	if got, ok := p.Cost("other", llm.Usage{PromptTokens: 1}); ok || got != 0 {
		t.Errorf("Cost(unknown) = %v, %v, want 0, false", got, ok)
	}
}

func TestEmbeddingsCall(t *testing.T) {
	srv := llmtest.New(t)
	srv.SetVector("hello", []float32{1, 0, 0})
	srv.EnqueueEmbeddings(llmtest.Status(503, "warming up"))
	c, sl := newClient(t, srv, nil)
	got, err := c.Embeddings(context.Background(), "e", []string{"hello", ""})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !cmp.Equal(got[0], []float32{1, 0, 0}) || len(got[1]) != 3 {
		t.Errorf("Embeddings = %v, want the canned vector then a derived one", got)
	}
	if n := len(sl.Waits()); n != 1 {
		t.Errorf("%d retry waits, want 1 (the 503)", n)
	}
	if in := srv.Requests()[1].Inputs; !cmp.Equal(in, []string{"hello", " "}) {
		t.Errorf("sent inputs %q, want the empty text as one space", in)
	}
	srv.EnqueueEmbeddings(llmtest.Status(401, "bad key"))
	if _, err := c.Embeddings(context.Background(), "e", []string{"x"}); errs.KindOf(err) != errs.Unauthorized {
		t.Errorf("401: err = %v, want unauthorized and no retry", err)
	}
}
