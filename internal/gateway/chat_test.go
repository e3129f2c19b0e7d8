package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	openai "github.com/sashabaranov/go-openai"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/wire"
)

// TestOpenAPIHarnessMatchesRoutes: the harness finds documented routes in
// the document (a servers entry the router cannot match would silently
// turn every response check off).
func TestOpenAPIHarnessMatchesRoutes(t *testing.T) {
	h := newHarness(t)
	for _, path := range []string{"/v1/questions/abc/events", "/v1/chat/completions", "/healthz"} {
		method := http.MethodGet
		if path == "/v1/chat/completions" {
			method = http.MethodPost
		}
		if _, _, err := h.router.FindRoute(httptest.NewRequest(method, path, nil)); err != nil {
			t.Errorf("the harness finds no operation for %s %s: %v", method, path, err)
		}
	}
}

// chatServer is the harness behind a real HTTP server, for SDK clients.
func chatServer(t *testing.T, h *harness, key string) (*openai.Client, string) {
	t.Helper()
	srv := httptest.NewServer(h.srv.Handler())
	t.Cleanup(srv.Close)
	cfg := openai.DefaultConfig(key)
	cfg.BaseURL = srv.URL + "/v1"
	return openai.NewClientWithConfig(cfg), cfg.BaseURL
}

// TestChatGoOpenAI drives the chat routes with go-openai, an SDK that
// knows nothing of assay: models, a completion, a stream with the same
// content, and errors as *openai.APIError.
func TestChatGoOpenAI(t *testing.T) {
	h := newHarness(t)
	c, baseURL := chatServer(t, h, keyPartner)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	models, err := c.ListModels(ctx)
	if err != nil || len(models.Models) != 1 || models.Models[0].ID != api.ChatModel {
		t.Fatalf("ListModels = %+v, %v", models, err)
	}
	req := openai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: "You are helpful."},
		{Role: openai.ChatMessageRoleUser, Content: "what does error E12 mean"},
	}}
	resp, err := c.CreateChatCompletion(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	msg := resp.Choices[0].Message
	if msg.Role != "assistant" || msg.Content != "From sb-112. [1]" || resp.Choices[0].FinishReason != openai.FinishReasonStop ||
		resp.Usage.TotalTokens != 15 || !strings.HasPrefix(resp.ID, "chatcmpl-") {
		t.Errorf("CreateChatCompletion = %+v", resp)
	}

	stream, err := c.CreateChatCompletionStream(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var content strings.Builder
	var finish openai.FinishReason
	chunks := 0
	for {
		ch, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Recv: %v", err)
		}
		chunks++
		if len(ch.Choices) == 1 {
			content.WriteString(ch.Choices[0].Delta.Content)
			if ch.Choices[0].FinishReason != "" {
				finish = ch.Choices[0].FinishReason
			}
		}
	}
	if content.String() != msg.Content || finish != openai.FinishReasonStop || chunks < 3 {
		t.Errorf("stream: %d chunks, content %q, finish %q; want %q and stop", chunks, content.String(), finish, msg.Content)
	}

	_, err = c.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "x", Messages: []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleUser, Content: " "}}})
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 400 || apiErr.Type != "invalid_request_error" ||
		apiErr.Param == nil || *apiErr.Param != "messages[0].content" || apiErr.Code != "invalid" {
		t.Errorf("a blank question: err = %#v, want a 400 invalid_request_error on messages[0].content", err)
	}
	cfg := openai.DefaultConfig("wrong-key")
	cfg.BaseURL = baseURL
	_, err = openai.NewClientWithConfig(cfg).CreateChatCompletion(ctx, req)
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 401 || apiErr.Type != "authentication_error" {
		t.Errorf("a wrong key: err = %#v, want a 401 authentication_error", err)
	}
}

// chatBody is a chat request body with a user question after turns.
func chatBody(t *testing.T, stream bool, messages ...string) string {
	t.Helper()
	req := map[string]any{"model": "assay", "stream": stream}
	var msgs []map[string]string
	for i, m := range messages {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs = append(msgs, map[string]string{"role": role, "content": m})
	}
	req["messages"] = msgs
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestChatCompletion: the message cites its sources three ways, the
// extension names the run, and the run got the question and history.
func TestChatCompletion(t *testing.T) {
	h := newHarness(t)
	r := h.call(http.MethodPost, "/v1/chat/completions", keyPublic,
		chatBody(t, false, "What is the warranty on the X200?", "Two years. [1]", "and for the K50?"))
	if r.Status != 200 {
		t.Fatalf("POST /v1/chat/completions = %d %s", r.Status, r.Body)
	}
	var cc api.ChatCompletion
	r.decode(t, &cc)
	m := cc.Choices[0].Message
	if m.Content != "From pol-warranty-2026. [1]" || len(m.Citations) != 1 || m.Citations[0].DocID != "pol-warranty-2026" {
		t.Fatalf("message = %+v", m)
	}
	if len(m.Annotations) != 1 {
		t.Fatalf("annotations = %+v, want one url_citation", m.Annotations)
	}
	a := m.Annotations[0]
	runes := []rune(m.Content)
	if a.Type != "url_citation" || a.URLCitation.URL != "https://example.test/pol-warranty-2026" ||
		string(runes[a.URLCitation.StartIndex:a.URLCitation.EndIndex]) != "[1]" {
		t.Errorf("annotation %+v does not point at the marker [1] of %q", a, m.Content)
	}
	if cc.Assay == nil || cc.Assay.StopReason != wire.Answered || r.Header.Get("Location") != "/v1/questions/"+cc.Assay.QuestionID {
		t.Errorf("assay extension %+v, Location %q", cc.Assay, r.Header.Get("Location"))
	}
	run := h.eng.runs[cc.Assay.QuestionID]
	want := []wire.Turn{{Role: "user", Content: "What is the warranty on the X200?"}, {Role: "assistant", Content: "Two years. [1]"}}
	if run.in.Question != "and for the K50?" || len(run.in.History) != 2 || run.in.History[0] != want[0] || run.in.History[1] != want[1] {
		t.Errorf("the run got question %q, history %+v", run.in.Question, run.in.History)
	}
}

func TestURLCitationsCountCodePoints(t *testing.T) {
	cites := []api.CitationResponse{{Label: "1", URL: "https://a"}, {Label: "2"}, {Label: "3", URL: "https://c"}}
	content := "Garantie für Gerät [1] und [3], sonst [2]; siehe [1]."
	got := urlCitations(content, cites)
	if len(got) != 3 {
		t.Fatalf("urlCitations = %+v, want 3 (no URL for [2])", got)
	}
	for _, a := range got {
		s := string([]rune(content)[a.URLCitation.StartIndex:a.URLCitation.EndIndex])
		if (s != "[1]" || a.URLCitation.URL != "https://a") && (s != "[3]" || a.URLCitation.URL != "https://c") {
			t.Errorf("annotation %+v covers %q", a, s)
		}
	}
	if got[0].URLCitation.StartIndex != utf8.RuneCountInString("Garantie für Gerät ") {
		t.Errorf("first annotation starts at %d, want code points, not bytes", got[0].URLCitation.StartIndex)
	}
}

// TestChatNotFound: a question nothing answers is an ordinary message
// that says so, with the stop reason in the extension.
func TestChatNotFound(t *testing.T) {
	h := newHarness(t)
	r := h.call(http.MethodPost, "/v1/chat/completions", keyPublic, chatBody(t, false, "what is the capital of Peru"))
	var cc api.ChatCompletion
	r.decode(t, &cc)
	if r.Status != 200 || cc.Choices[0].FinishReason != "stop" || !strings.Contains(cc.Choices[0].Message.Content, "could not find") ||
		cc.Assay.StopReason != wire.InsufficientContext || len(cc.Choices[0].Message.Citations) != 0 {
		t.Errorf("not found = %d %s", r.Status, r.Body)
	}
}

// TestChatStream: the raw events of a stream (checked against the
// document by the harness): role first, stage progress, the content in
// pieces, a last chunk with finish reason, citations and the extension,
// the usage chunk, then [DONE].
func TestChatStream(t *testing.T) {
	h := newHarness(t)
	body := strings.Replace(chatBody(t, true, "what does error E12 mean"), `"stream":true`, `"stream":true,"stream_options":{"include_usage":true}`, 1)
	r := h.call(http.MethodPost, "/v1/chat/completions", keyPartner, body)
	if r.Status != 200 || r.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream = %d %v %s", r.Status, r.Header, r.Body)
	}
	var events []apiclient.StreamEvent
	if err := apiclient.ReadSSE(strings.NewReader(string(r.Body)), func(e apiclient.StreamEvent) error {
		events = append(events, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n := len(events); n < 4 || string(events[n-1].Data) != "[DONE]" {
		t.Fatalf("events = %d, last %q; want [DONE] last", n, events[len(events)-1].Data)
	}
	var chunks []api.ChatCompletionChunk
	for _, e := range events[:len(events)-1] {
		var ch api.ChatCompletionChunk
		if err := json.Unmarshal(e.Data, &ch); err != nil {
			t.Fatalf("event %s: %v", e.Data, err)
		}
		chunks = append(chunks, ch)
	}
	if chunks[0].Choices[0].Delta.Role != "assistant" {
		t.Errorf("first chunk %+v, want the role", chunks[0])
	}
	var stages []string
	var content strings.Builder
	var last *api.ChatCompletionChunk
	for i, ch := range chunks {
		if ch.Assay != nil && ch.Assay.Stage != nil {
			stages = append(stages, ch.Assay.Stage.Stage)
		}
		if len(ch.Choices) == 1 {
			content.WriteString(ch.Choices[0].Delta.Content)
			if ch.Choices[0].FinishReason != nil {
				last = &chunks[i]
			}
		}
	}
	if strings.Join(stages, ",") != "search,assess,rewrite,search,assess,generate" {
		t.Errorf("stages %v", stages)
	}
	if content.String() != "From sb-112. [1]" {
		t.Errorf("streamed content %q", content.String())
	}
	if last == nil || *last.Choices[0].FinishReason != "stop" || len(last.Choices[0].Delta.Citations) != 1 ||
		last.Choices[0].Delta.Citations[0].DocID != "sb-112" || len(last.Choices[0].Delta.Annotations) != 1 ||
		last.Assay == nil || last.Assay.StopReason != wire.Answered {
		t.Errorf("last chunk %+v", last)
	}
	usage := chunks[len(chunks)-1]
	if len(usage.Choices) != 0 || usage.Usage == nil || usage.Usage.TotalTokens != 15 {
		t.Errorf("usage chunk %+v", usage)
	}
}

// TestChatErrors: every refusal is in OpenAI's error shape with the right
// status (the harness checks each against the document).
func TestChatErrors(t *testing.T) {
	h := newHarness(t)
	for _, tt := range []struct {
		name, key, body string
		status          int
		typ, param      string
	}{
		{"no key", "", chatBody(t, false, "E4"), 401, "authentication_error", "authorization"},
		{"not JSON", keyPublic, `{"messages":`, 400, "invalid_request_error", "body"},
		{"no messages", keyPublic, `{"model":"assay","messages":[]}`, 400, "invalid_request_error", "messages"},
		{"last message not the user's", keyPublic, chatBody(t, false, "E4", "an answer"), 400, "invalid_request_error", "messages[1].role"},
		{"an image part", keyPublic, `{"model":"assay","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, 400, "invalid_request_error", "messages[0].content[0].type"},
		{"two choices", keyPublic, `{"model":"assay","n":2,"messages":[{"role":"user","content":"E4"}]}`, 400, "invalid_request_error", "n"},
		{"budget above the default", keyPublic, `{"model":"assay","max_attempts":9,"messages":[{"role":"user","content":"E4"}]}`, 400, "invalid_request_error", "max_attempts"},
		{"refused by the guard", keyPublic, `{"model":"assay","messages":[{"role":"user","content":"E4\u001b[2J"}]}`, 422, "invalid_request_error", "messages[0].content"},
	} {
		r := h.call(http.MethodPost, "/v1/chat/completions", tt.key, tt.body)
		var e api.OpenAIError
		r.decode(t, &e)
		param := ""
		if e.Error.Param != nil {
			param = *e.Error.Param
		}
		if r.Status != tt.status || e.Error.Type != tt.typ || param != tt.param || e.Error.Message == "" || e.Error.Code == nil {
			t.Errorf("%s: %d %s; want %d %s on %q", tt.name, r.Status, r.Body, tt.status, tt.typ, tt.param)
		}
	}
	// Content as text parts, unknown OpenAI fields and assay's own reply
	// sent back are all accepted.
	r := h.call(http.MethodPost, "/v1/chat/completions", keyPublic, `{"model":"gpt-4o","temperature":0.2,"user":"u1","messages":[
		{"role":"user","content":[{"type":"text","text":"What is the warranty on the X200?"}]},
		{"role":"assistant","content":"Two years. [1]","annotations":[],"citations":[{"label":"1","doc_id":"d","title":"t"}],"refusal":null},
		{"role":"user","content":"and for the K50?"}]}`)
	if r.Status != 200 {
		t.Errorf("a request as OpenAI clients send it = %d %s", r.Status, r.Body)
	}
	// The rate limit of the key applies.
	for i := range 3 {
		r := h.call(http.MethodGet, "/v1/models", keySlow, "")
		if i < 2 && r.Status != 200 || i == 2 && (r.Status != 429 || !strings.Contains(string(r.Body), `"type":"rate_limit_error"`)) {
			t.Errorf("GET /v1/models #%d with a 2/min key = %d %s", i+1, r.Status, r.Body)
		}
	}
}

// TestChatRunFailed: a run that ended in a stage's error is an OpenAI
// error whose code is the stop reason, before and during a stream.
func TestChatRunFailed(t *testing.T) {
	res := &wire.AnswerResult{StopReason: wire.SearchError, Trace: wire.Trace{StopReason: wire.SearchError, StopDetail: "search failed: unavailable"}}
	_, err := chatReply("q1", api.Completed, res)
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	if e := openAIError(c, err).Error; e.Type != "server_error" || e.Code == nil || *e.Code != "search_error" ||
		!strings.Contains(e.Message, "search failed") {
		t.Errorf("a failed run = %+v", e)
	}
}

// brokenEvents is the fake engine whose event streams break off after
// the first stage, as when Temporal goes away mid-stream.
type brokenEvents struct{ *fakeEngine }

func (b brokenEvents) Events(ctx context.Context, id string, after int64, emit func(Event) error) error {
	if err := emit(Event{ID: 5, Stage: &api.StageEvent{Stage: "search", Attempt: 1, Query: "q"}}); err != nil {
		return err
	}
	return errDown
}

// TestChatStreamBreaks: a stream that breaks off ends with an OpenAI
// error event (which SDKs raise), and a run that cannot start is a 503
// before any stream.
func TestChatStreamBreaks(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Engine = brokenEvents{o.Engine.(*fakeEngine)} })
	r := h.call(http.MethodPost, "/v1/chat/completions", keyPublic, chatBody(t, true, "E4"))
	body := string(r.Body)
	if r.Status != 200 || !strings.Contains(body, `data: {"error":{"message":"Service Unavailable`) || !strings.Contains(body, `"type":"server_error"`) ||
		strings.Contains(body, "[DONE]") {
		t.Errorf("broken stream = %d\n%s", r.Status, body)
	}
	c, _ := chatServer(t, h, keyPublic)
	stream, err := c.CreateChatCompletionStream(context.Background(), openai.ChatCompletionRequest{Model: "assay",
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "E4"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var apiErr *openai.APIError
	for err == nil {
		_, err = stream.Recv()
	}
	if !errors.As(err, &apiErr) || apiErr.Type != "server_error" {
		t.Errorf("go-openai on a broken stream: %v, want an *openai.APIError", err)
	}

	h.eng.unavailable = true
	r = h.call(http.MethodPost, "/v1/chat/completions", keyPublic, chatBody(t, true, "E4"))
	if r.Status != 503 || r.Header.Get("Retry-After") == "" || !strings.Contains(string(r.Body), `"type":"server_error"`) {
		t.Errorf("Temporal down = %d %v %s", r.Status, r.Header, r.Body)
	}
}

// TestChatSignedAndBounded: a chat run is signed for its question and
// conversation, and the trust boundary's refusals on the chat routes are
// in OpenAI's shape.
func TestChatSignedAndBounded(t *testing.T) {
	s, err := auth.ParseSigningKeys("k1:a-secret-of-at-least-thirty-two-bytes-1")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *Options) { o.Signer = s })
	r := h.call(http.MethodPost, "/v1/chat/completions", keyPartner, chatBody(t, false, "What is the warranty on the X200?", "Two years. [1]", "and for the K50?"))
	var cc api.ChatCompletion
	r.decode(t, &cc)
	in := h.eng.runs[cc.Assay.QuestionID].in
	if sig := in.Signature; sig == nil || sig.Run != cc.Assay.QuestionID || sig.Digest != auth.ConversationDigest(in.Question, in.History) ||
		sig.Digest == auth.QuestionDigest(in.Question) || s.Verify(sig, in.Principal) != nil {
		t.Errorf("chat run signature %+v does not sign the conversation of %+v", in.Signature, in)
	}

	r = h.call(http.MethodPost, "/v1/chat/completions", keyPartner, chatBody(t, false, "E4"), "Content-Type", "text/plain")
	var e api.OpenAIError
	r.decode(t, &e)
	if r.Status != 415 || e.Error.Type != "invalid_request_error" || e.Error.Param == nil || *e.Error.Param != "content-type" {
		t.Errorf("a text/plain body = %d %s", r.Status, r.Body)
	}
	r = h.call(http.MethodGet, "/v1/models", keyPartner, "", "Origin", "https://evil.example")
	r.decode(t, &e)
	if r.Status != 403 || e.Error.Type != "permission_error" || e.Error.Param == nil || *e.Error.Param != "origin" {
		t.Errorf("a cross-site request = %d %s", r.Status, r.Body)
	}
}
