package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// The OpenAI-compatible routes (docs/api.md, "OpenAI-compatible chat"):
// POST /v1/chat/completions runs the same AnswerWorkflow as POST
// /v1/questions, under the same keys, rate limits and budgets, and answers
// in OpenAI's shapes, errors included, so OpenAI's SDKs and the tools
// built on them work with only their base URL and key changed.

// maxChatMessages bounds the messages of one chat request; only the last
// wire.MaxHistoryTurns before the question reach the run.
const maxChatMessages = 200

// chatResultGrace is how long past the run's deadline a chat request
// waits for its result: the run ends itself at the deadline, and this is
// the time to record and fetch its result.
const chatResultGrace = 30 * time.Second

// isChatRoute reports whether the request is to an OpenAI-compatible
// route, whose errors take OpenAI's shape.
func isChatRoute(c *gin.Context) bool {
	p := c.Request.URL.Path
	return p == "/v1/models" || strings.HasPrefix(p, "/v1/chat/")
}

func (s *Server) getModels(c *gin.Context) {
	c.JSON(http.StatusOK, api.ModelList{Object: api.ObjectList, Data: []api.Model{
		{ID: api.ChatModel, Object: api.ObjectModel, OwnedBy: "assay"},
	}})
}

func (s *Server) postChat(c *gin.Context) {
	const op = "gateway.chat"
	body, err := readBody(c, s.opts.MaxBodyBytes)
	if err != nil {
		writeError(c, err)
		return
	}
	req, err := api.DecodeChat(body)
	if err != nil {
		writeError(c, err)
		return
	}
	if req.N != nil && *req.N != 1 {
		writeError(c, errs.FieldError(op, "n", fmt.Sprintf("assay writes one answer; want 1, got %d", *req.N)))
		return
	}
	question, history, err := chatConversation(req.Messages)
	if err != nil {
		writeError(c, err)
		return
	}
	opts := runOptions{req.MaxAttempts, req.DeadlineMS, req.Filters}
	id, key, in, err := s.planRun(c, KindQuestion, opts, "")
	if err != nil {
		writeError(c, err)
		return
	}
	in.RequestID, in.Question, in.History = id, question, history
	in.Signature = s.opts.Signer.Sign(id, auth.ConversationDigest(question, history), in.Principal)
	ctx, cancel := context.WithTimeout(c.Request.Context(), in.Budget.Deadline+chatResultGrace)
	defer cancel()
	release, ok := s.admitOrAnswer(c, KindQuestion, id, key, in, 1)
	if !ok {
		return
	}
	runID, err := s.opts.Engine.Start(ctx, id, in)
	if err != nil {
		release()
		writeError(c, err)
		return
	}
	if key != "" {
		// An Idempotency-Key names the run, as on /v1/questions: a retry
		// gets the same run, another question under it a 409.
		run, err := s.opts.Engine.Describe(ctx, id)
		if err != nil {
			writeError(c, err)
			return
		}
		if run.Kind != KindQuestion || run.Question != question || !s.sameOptions(ctx, run, in, opts) {
			writeError(c, &errs.Error{Op: op, Kind: errs.Conflict, Field: "Idempotency-Key",
				Err: errors.New("was used before for a different question, budget or filters")})
			return
		}
	}
	c.Header("Location", "/v1/questions/"+id)
	created := s.opts.Now().Unix()
	if req.Stream {
		s.streamChat(ctx, c, id, in.Principal.Groups, created, req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
		return
	}
	res, st, err := s.opts.Engine.Result(ctx, id, runID)
	if err != nil {
		if ctx.Err() != nil && c.Request.Context().Err() == nil {
			err = errs.Errorf(op, errs.Timeout, "the run has not ended; GET /v1/questions/%s has it when it does", id)
		}
		writeError(c, err)
		return
	}
	if err := s.checkCited(ctx, in.Principal.Groups, &res); err != nil {
		writeError(c, err)
		return
	}
	reply, err := chatReply(id, st, &res)
	if err != nil {
		writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, api.ChatCompletion{
		ID: "chatcmpl-" + id, Object: api.ObjectChatCompletion, Created: created, Model: api.ChatModel,
		Choices: []api.ChatChoice{{Index: 0, Message: reply.message, FinishReason: reply.finish}},
		Usage:   chatUsage(res.Trace.Usage), Assay: reply.assay,
	})
}

// chatConversation finds the question (the last user message, which must
// be the last message but for system and developer ones) and the turns
// before it that a follow-up is read in: user and assistant messages with
// text, the last wire.MaxHistoryTurns, each cut to wire.MaxTurnBytes.
func chatConversation(msgs []api.ChatMessage) (string, []wire.Turn, error) {
	const op = "gateway.chat"
	if len(msgs) == 0 {
		return "", nil, errs.FieldError(op, "messages", "is required: at least one user message")
	}
	if len(msgs) > maxChatMessages {
		return "", nil, errs.FieldError(op, "messages", fmt.Sprintf("at most %d messages, got %d", maxChatMessages, len(msgs)))
	}
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		switch msgs[i].Role {
		case api.RoleSystem, api.RoleDeveloper:
			continue
		case api.RoleUser:
			last = i
		default:
			return "", nil, errs.FieldError(op, fmt.Sprintf("messages[%d].role", i), fmt.Sprintf("the last message must be the user's question, not %q", msgs[i].Role))
		}
		break
	}
	if last < 0 {
		return "", nil, errs.FieldError(op, "messages", "has no user message")
	}
	question := string(msgs[last].Content)
	if err := validateQuestion(fmt.Sprintf("messages[%d].content", last), question); err != nil {
		return "", nil, err
	}
	var history []wire.Turn
	for i, m := range msgs[:last] {
		switch m.Role {
		case api.RoleUser, api.RoleAssistant:
		case api.RoleSystem, api.RoleDeveloper, api.RoleTool:
			continue
		default:
			return "", nil, errs.FieldError(op, fmt.Sprintf("messages[%d].role", i), fmt.Sprintf("want system, developer, user, assistant or tool, got %q", m.Role))
		}
		if text := strings.TrimSpace(string(m.Content)); text != "" {
			history = append(history, wire.Turn{Role: m.Role, Content: cut(text, wire.MaxTurnBytes)})
		}
	}
	if len(history) > wire.MaxHistoryTurns {
		history = history[len(history)-wire.MaxHistoryTurns:]
	}
	return strings.TrimSpace(question), history, nil
}

// cut shortens s to at most n bytes at a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// chatAnswer is a finished run as an assistant message.
type chatAnswer struct {
	message api.ChatReply
	finish  string
	assay   *api.ChatAssay
}

// stopError is a run that ended without a message to show: its stop
// reason is the OpenAI error's code.
type stopError struct {
	reason wire.StopReason
	err    error
}

func (e *stopError) Error() string { return e.err.Error() }
func (e *stopError) Unwrap() error { return e.err }

// chatReply turns a finished run into the assistant's message. Answers
// and not-found replies (which say so, in words) are messages with
// finish_reason stop; a refusal is a message with content_filter; runs
// that failed, were cancelled or were invalid are errors.
func chatReply(id string, st api.Status, res *wire.AnswerResult) (chatAnswer, error) {
	const op = "gateway.chat"
	if st != api.Completed {
		return chatAnswer{}, errs.Errorf(op, errs.Internal, "run %s %s", id, st)
	}
	ext := &api.ChatAssay{QuestionID: id, StopReason: res.StopReason, StopDetail: res.Trace.StopDetail,
		Model: res.Model, Attempts: len(res.Trace.Attempts)}
	if c := res.Trace.Condensed; c != nil && c.Question != res.Trace.Question {
		ext.Question = c.Question
	}
	cites := citations(res.Citations)
	out := chatAnswer{assay: ext, finish: api.FinishStop, message: api.ChatReply{
		Role: api.RoleAssistant, Content: res.Answer, Citations: cites, Annotations: urlCitations(res.Answer, cites),
	}}
	switch res.StopReason {
	case wire.Refused:
		out.finish = api.FinishContentFilter
		out.message.Content = "I cannot answer that: " + res.Trace.StopDetail
		return out, nil
	case wire.InvalidRequest:
		return out, &stopError{res.StopReason, errs.Errorf(op, errs.Invalid, "%s", res.Trace.StopDetail)}
	case wire.Unauthorized:
		return out, &stopError{res.StopReason, errs.Errorf(op, errs.Forbidden, "the worker refused the run's principal: %s", res.Trace.StopDetail)}
	case wire.Cancelled:
		return out, &stopError{res.StopReason, errs.Errorf(op, errs.Conflict, "run %s was cancelled before it answered", id)}
	case wire.SearchError, wire.AssessmentError, wire.GenerationError:
		return out, &stopError{res.StopReason, errs.Errorf(op, errs.Unavailable, "run %s failed: %s", id, res.Trace.StopDetail)}
	}
	if out.message.Content == "" && res.StopReason != wire.Answered {
		// A run found nothing: the workflow says so in words; the same
		// words stand in should a result lack them.
		var queries []string
		for _, at := range res.Trace.Attempts {
			queries = append(queries, at.Query)
		}
		out.message.Content = workflows.NotFound(res.Trace.Question, queries).Text
	}
	if out.message.Content == "" {
		return out, &stopError{res.StopReason, errs.Errorf(op, errs.Internal, "run %s ended (%s) without a reply", id, res.StopReason)}
	}
	return out, nil
}

// urlCitations are the url_citation annotations of content: one per
// citation marker ([1]) of a source with a URL, by code point offsets.
func urlCitations(content string, cites []api.CitationResponse) []api.ChatAnnotation {
	out := []api.ChatAnnotation{}
	for _, c := range cites {
		if c.URL == "" {
			continue
		}
		marker := "[" + c.Label + "]"
		for from := 0; ; {
			i := strings.Index(content[from:], marker)
			if i < 0 {
				break
			}
			start := utf8.RuneCountInString(content[:from+i])
			out = append(out, api.ChatAnnotation{Type: "url_citation", URLCitation: api.URLCitation{
				URL: c.URL, Title: c.Title, StartIndex: start, EndIndex: start + utf8.RuneCountInString(marker),
			}})
			from += i + len(marker)
		}
	}
	slices.SortFunc(out, func(a, b api.ChatAnnotation) int { return a.URLCitation.StartIndex - b.URLCitation.StartIndex })
	return out
}

func chatUsage(u wire.Usage) *api.ChatUsage {
	return &api.ChatUsage{PromptTokens: u.TokensIn, CompletionTokens: u.TokensOut, TotalTokens: u.TokensIn + u.TokensOut}
}

// answerPiece splits an answer into the pieces of a stream: a word and
// the space after it.
var answerPiece = regexp.MustCompile(`\s*\S+\s*`)

// streamChat answers as OpenAI's server-sent events: a chunk with the
// role, a progress chunk per stage (empty delta, the stage in the assay
// extension), the answer in pieces, a last chunk with the finish reason,
// citations and annotations, the usage when asked for, and [DONE]. The
// pieces are of the checked answer, once the run has ended, so the
// streamed content is exactly the message a request without stream gets
// (the live model tokens of /v1/questions/{id}/events may be retried or
// have markers stripped). A run that ends without a message, or a stream
// that breaks off, ends with an OpenAI error event.
func (s *Server) streamChat(ctx context.Context, c *gin.Context, id string, groups []string, created int64, includeUsage bool) {
	w := c.Writer
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	var mu sync.Mutex
	write := func(line string) error {
		mu.Lock()
		defer mu.Unlock()
		_ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
		if _, err := w.WriteString(line); err != nil {
			return err
		}
		w.Flush()
		return nil
	}
	data := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return write("data: " + string(b) + "\n\n")
	}
	chunk := func(delta api.ChatDelta, finish *string, ext *api.ChatAssay) api.ChatCompletionChunk {
		return api.ChatCompletionChunk{ID: "chatcmpl-" + id, Object: api.ObjectChatCompletionChunk, Created: created, Model: api.ChatModel,
			Choices: []api.ChatChunkChoice{{Index: 0, Delta: delta, FinishReason: finish}}, Assay: ext}
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if data(chunk(api.ChatDelta{Role: api.RoleAssistant}, nil, &api.ChatAssay{QuestionID: id})) != nil {
		return
	}

	ctx, stop := context.WithCancel(ctx)
	defer heartbeat(ctx, s.opts.Heartbeat, func() error { return write(": keep-alive\n\n") }, stop)()
	defer stop()

	var ended *Event
	err := s.opts.Engine.Events(ctx, id, 0, func(e Event) error {
		if e.Closed {
			ended = &e
			return nil
		}
		return data(chunk(api.ChatDelta{}, nil, &api.ChatAssay{QuestionID: id, Stage: e.Stage}))
	})
	var reply chatAnswer
	switch {
	case err == nil && ended == nil:
		err = errs.Errorf("gateway.chat", errs.Unavailable, "the event stream of run %s ended before the run", id)
	case err == nil && ended.Result == nil:
		err = errs.Errorf("gateway.chat", errs.Internal, "run %s %s", id, ended.Status)
	case err == nil:
		if err = s.checkCited(ctx, groups, ended.Result); err == nil {
			reply, err = chatReply(id, ended.Status, ended.Result)
		}
	}
	if err != nil {
		if c.Request.Context().Err() == nil {
			c.Error(err) //nolint:errcheck // recorded for the access log
			if ctx.Err() != nil {
				err = errs.Errorf("gateway.chat", errs.Timeout, "the run has not ended; GET /v1/questions/%s has it when it does", id)
			}
			_ = data(openAIError(c, err))
		}
		return
	}
	for _, p := range answerPiece.FindAllString(reply.message.Content, -1) {
		if data(chunk(api.ChatDelta{Content: p}, nil, nil)) != nil {
			return
		}
	}
	finish := reply.finish
	last := chunk(api.ChatDelta{Annotations: reply.message.Annotations, Citations: reply.message.Citations}, &finish, reply.assay)
	if data(last) != nil {
		return
	}
	if includeUsage {
		u := api.ChatCompletionChunk{ID: last.ID, Object: last.Object, Created: created, Model: last.Model,
			Choices: []api.ChatChunkChoice{}, Usage: chatUsage(ended.Result.Trace.Usage)}
		if data(u) != nil {
			return
		}
	}
	_ = write("data: [DONE]\n\n")
}

// openAIErrorType is OpenAI's error class for an HTTP status.
func openAIErrorType(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status == http.StatusForbidden:
		return "permission_error"
	case status == http.StatusNotFound:
		return "not_found_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

// openAIError is err as OpenAI's error body: the message (a status text
// for server errors, whose details are logged), the class, the field as
// param and the error kind (or the stop reason of a run that ended
// without a message) as code.
func openAIError(c *gin.Context, err error) api.OpenAIError {
	kind := errs.KindOf(err)
	if kind == errs.Other {
		kind = errs.Internal
	}
	status := statusOf[kind]
	code := string(kind)
	var se *stopError
	if errors.As(err, &se) {
		code = string(se.reason)
	}
	d := api.OpenAIErrorDetail{Message: errs.Reason(err), Type: openAIErrorType(status), Code: &code}
	if f := errs.FieldOf(err); f != "" {
		d.Param = &f
		d.Message = f + ": " + d.Message
	}
	if status >= 500 && se == nil {
		d.Message = http.StatusText(status)
	}
	if id := c.GetString(ctxRequestID); id != "" {
		d.Message += " (request " + id + ")"
	}
	return api.OpenAIError{Error: d}
}
