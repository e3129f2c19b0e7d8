// Package llmtest is a scripted OpenAI-compatible server for tests: it
// serves /v1/chat/completions (plain and streamed) from a queue of scripted
// steps, serves /v1/embeddings with canned vectors, injects faults on
// demand (an HTTP status with Retry-After, a slow reply, a malformed body,
// a stream cut half way) and records every request it receives so a test
// can assert what a client sent.
//
// Tests never call a live model; they point a client at Server.URL().
package llmtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Step is what the server does with one request. Build steps with Reply,
// Stream, Status, RateLimited, Slow, Held, Malformed and Cut.
type Step struct {
	// Text is the reply's content.
	Text string
	// FinishReason defaults to "stop".
	FinishReason string
	// Usage is reported when set; nil reports no usage at all, the way
	// some servers do.
	Usage *openai.Usage
	// Chunks are the streamed pieces of Text; nil splits Text after each
	// space. A non-streaming request gets them joined.
	Chunks []string
	// Status, when not 0 or 200, answers with this HTTP status and an
	// OpenAI-style error body carrying Message.
	Status  int
	Message string
	// RetryAfter is sent as the Retry-After header when not empty.
	RetryAfter string
	// Delay holds the reply back; the wait ends early if the client gives
	// up.
	Delay time.Duration
	// Until, when not nil, holds the reply back until it is closed (after
	// Delay); the wait ends early if the client gives up.
	Until <-chan struct{}
	// Malformed answers 200 with a body (or stream event) that is not JSON.
	Malformed bool
	// Cut streams CutAfter chunks and then drops the connection without
	// a finish reason or [DONE]; a non-streaming request gets a truncated
	// body.
	Cut      bool
	CutAfter int
}

// Reply is a canned answer with usage.
func Reply(text string, promptTokens, completionTokens int) Step {
	return Step{Text: text, Usage: &openai.Usage{
		PromptTokens: promptTokens, CompletionTokens: completionTokens,
		TotalTokens: promptTokens + completionTokens,
	}}
}

// Stream is a canned answer streamed in the given chunks, with usage.
func Stream(chunks []string, promptTokens, completionTokens int) Step {
	s := Reply(strings.Join(chunks, ""), promptTokens, completionTokens)
	s.Chunks = chunks
	return s
}

// Status answers with an HTTP error status.
func Status(code int, message string) Step { return Step{Status: code, Message: message} }

// RateLimited answers 429 with a Retry-After header.
func RateLimited(retryAfter string) Step {
	return Step{Status: http.StatusTooManyRequests, Message: "rate limit reached", RetryAfter: retryAfter}
}

// Slow delays step by d.
func Slow(d time.Duration, step Step) Step {
	step.Delay = d
	return step
}

// Held holds step back until until is closed: a test can let a reply go
// when something it waits for has happened, instead of guessing a delay.
func Held(until <-chan struct{}, step Step) Step {
	step.Until = until
	return step
}

// Malformed answers 200 with a body that is not JSON.
func Malformed() Step { return Step{Malformed: true} }

// Cut streams the first n chunks of chunks and drops the connection.
func Cut(chunks []string, n int) Step {
	return Step{Text: strings.Join(chunks, ""), Chunks: chunks, Cut: true, CutAfter: n}
}

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	// Chat is the decoded body of a chat completion request.
	Chat *openai.ChatCompletionRequest
	// Inputs are the texts of an embeddings request.
	Inputs []string
}

// System returns the content of the request's system messages, joined.
func (r Request) System() string { return r.role(openai.ChatMessageRoleSystem) }

// User returns the content of the request's user messages, joined.
func (r Request) User() string { return r.role(openai.ChatMessageRoleUser) }

func (r Request) role(role string) string {
	if r.Chat == nil {
		return ""
	}
	var parts []string
	for _, m := range r.Chat.Messages {
		if m.Role == role {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n")
}

// Server is a scripted OpenAI-compatible endpoint. Safe for concurrent use.
type Server struct {
	t    testing.TB
	srv  *httptest.Server
	mu   sync.Mutex
	chat []Step
	emb  []Step
	reqs []Request
	vecs map[string][]float32
	dim  int
	// respond answers chat requests when no scripted step is left.
	respond func(Request) Step
}

// New starts a server that lives until the test ends. Chat requests with
// no scripted step left fail the test.
func New(t testing.TB) *Server {
	s := &Server{t: t, vecs: map[string][]float32{}, dim: 8}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serveChat)
	mux.HandleFunc("POST /v1/embeddings", s.serveEmbeddings)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.record(r, nil)
		writeError(w, http.StatusNotFound, "llmtest: no route for "+r.Method+" "+r.URL.Path)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the base URL a client is configured with; it ends in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Enqueue appends steps for the next chat completion requests, one step
// per request, in order.
func (s *Server) Enqueue(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chat = append(s.chat, steps...)
}

// EnqueueEmbeddings appends steps for the next embeddings requests. Only
// faults make sense there (Status, RateLimited, Slow, Malformed); a step
// without a fault serves the canned vectors. With no step queued the
// server serves the canned vectors.
func (s *Server) EnqueueEmbeddings(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.emb = append(s.emb, steps...)
}

// SetVector cans the embedding of text. Texts with no canned vector get a
// deterministic unit vector derived from a hash of the text: a stand-in
// with no meaning, good only for plumbing tests.
func (s *Server) SetVector(text string, vec []float32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vecs[text] = vec
	s.dim = len(vec)
}

// Respond makes fn answer every chat request that finds no scripted step
// left, for tests whose requests arrive in no fixed order (many runs at
// once, faults drawn at random). fn may be called concurrently.
func (s *Server) Respond(fn func(Request) Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = fn
}

func (s *Server) responder() func(Request) Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.respond
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Pending returns how many scripted chat steps are still unused.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.chat)
}

// record stores r and returns it with its index in the record.
func (s *Server) record(r *http.Request, body []byte) (Request, int) {
	rec := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, rec)
	return rec, len(s.reqs) - 1
}

func (s *Server) update(i int, rec Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs[i] = rec
}

func (s *Server) next(queue *[]Step) (Step, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(*queue) == 0 {
		return Step{}, false
	}
	step := (*queue)[0]
	*queue = (*queue)[1:]
	return step, true
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec, idx := s.record(r, body)
	var req openai.ChatCompletionRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "llmtest: request body is not a chat completion request: "+err.Error())
		return
	}
	rec.Chat = &req
	s.update(idx, rec)
	step, ok := s.next(&s.chat)
	if !ok && s.responder() != nil {
		step, ok = s.responder()(rec), true
	}
	if !ok {
		s.t.Errorf("llmtest: chat request %d arrived with no scripted step left", idx+1)
		writeError(w, http.StatusInternalServerError, "llmtest: no scripted step left")
		return
	}
	if !wait(r, step) {
		return
	}
	if fault(w, step, req.Stream) {
		return
	}
	if req.Stream {
		s.stream(w, req, step)
		return
	}
	if step.Cut {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"llmtest","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"`)
		return
	}
	resp := openai.ChatCompletionResponse{
		ID: "llmtest-" + strconv.Itoa(idx+1), Object: "chat.completion", Created: 1, Model: req.Model,
		Choices: []openai.ChatCompletionChoice{{
			Message:      openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: step.text()},
			FinishReason: step.finish(),
		}},
	}
	if step.Usage != nil {
		resp.Usage = *step.Usage
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// stream writes step as server-sent events, the way OpenAI does: one
// chunk per piece, a final chunk with the finish reason, a usage chunk
// when the client asked for it, then [DONE].
func (s *Server) stream(w http.ResponseWriter, req openai.ChatCompletionRequest, step Step) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	event := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta string, finish openai.FinishReason) openai.ChatCompletionStreamResponse {
		return openai.ChatCompletionStreamResponse{
			ID: "llmtest", Object: "chat.completion.chunk", Created: 1, Model: req.Model,
			Choices: []openai.ChatCompletionStreamChoice{{
				Delta:        openai.ChatCompletionStreamChoiceDelta{Role: openai.ChatMessageRoleAssistant, Content: delta},
				FinishReason: finish,
			}},
		}
	}
	for i, piece := range step.chunks() {
		if step.Cut && i == step.CutAfter {
			// Abort the response mid-body: the client sees the
			// connection drop with no terminating chunk.
			panic(http.ErrAbortHandler)
		}
		event(chunk(piece, ""))
	}
	if step.Cut {
		panic(http.ErrAbortHandler)
	}
	event(chunk("", step.finish()))
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage && step.Usage != nil {
		event(openai.ChatCompletionStreamResponse{ID: "llmtest", Object: "chat.completion.chunk", Model: req.Model,
			Choices: []openai.ChatCompletionStreamChoice{}, Usage: step.Usage})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

func (s *Server) serveEmbeddings(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec, idx := s.record(r, body)
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "llmtest: request body is not an embeddings request: "+err.Error())
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeError(w, http.StatusBadRequest, "llmtest: input must be a string or a list of strings")
			return
		}
		inputs = []string{one}
	}
	rec.Inputs = inputs
	s.update(idx, rec)
	if step, ok := s.next(&s.emb); ok {
		if !wait(r, step) || fault(w, step, false) {
			return
		}
	}
	resp := openai.EmbeddingResponse{Object: "list", Model: openai.EmbeddingModel(req.Model)}
	tokens := 0
	for i, in := range inputs {
		resp.Data = append(resp.Data, openai.Embedding{Object: "embedding", Index: i, Embedding: s.vector(in)})
		tokens += len(strings.Fields(in))
	}
	resp.Usage = openai.Usage{PromptTokens: tokens, TotalTokens: tokens}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func (s *Server) vector(text string) []float32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.vecs[text]; ok {
		return v
	}
	h := fnv.New64a()
	io.WriteString(h, text)
	seed := h.Sum64()
	v := make([]float32, s.dim)
	var norm float64
	for i := range v {
		seed = seed*6364136223846793005 + 1442695040888963407
		v[i] = float32(int64(seed>>11)%2001-1000) / 1000
		norm += float64(v[i]) * float64(v[i])
	}
	if norm > 0 {
		for i := range v {
			v[i] = float32(float64(v[i]) / math.Sqrt(norm))
		}
	}
	return v
}

// wait sleeps step's Delay, then waits for its Until, or until the
// client goes away; it reports whether the client is still there.
func wait(r *http.Request, step Step) bool {
	if step.Delay > 0 {
		select {
		case <-time.After(step.Delay):
		case <-r.Context().Done():
			return false
		}
	}
	if step.Until != nil {
		select {
		case <-step.Until:
		case <-r.Context().Done():
			return false
		}
	}
	return true
}

// fault writes step's fault, if it has one, and reports whether it did.
// A malformed streamed reply is an event whose data is not JSON.
func fault(w http.ResponseWriter, step Step, stream bool) bool {
	if step.RetryAfter != "" {
		w.Header().Set("Retry-After", step.RetryAfter)
	}
	switch {
	case step.Status != 0 && step.Status != http.StatusOK:
		msg := step.Message
		if msg == "" {
			msg = http.StatusText(step.Status)
		}
		writeError(w, step.Status, msg)
		return true
	case step.Malformed && stream:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "data: {\"choices\": [<not json>\n\ndata: [DONE]\n\n")
		return true
	case step.Malformed:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, `{"id": "llmtest", "choices": [ {"message": <not json>`)
		return true
	}
	return false
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": "llmtest_error", "code": status,
	}})
}

func (s Step) text() string {
	if s.Chunks != nil {
		return strings.Join(s.Chunks, "")
	}
	return s.Text
}

func (s Step) chunks() []string {
	if s.Chunks != nil {
		return s.Chunks
	}
	var out []string
	rest := s.Text
	for rest != "" {
		i := strings.IndexByte(rest, ' ')
		if i < 0 {
			out = append(out, rest)
			break
		}
		out = append(out, rest[:i+1])
		rest = rest[i+1:]
	}
	return out
}

func (s Step) finish() openai.FinishReason {
	if s.FinishReason == "" {
		return openai.FinishReasonStop
	}
	return openai.FinishReason(s.FinishReason)
}
