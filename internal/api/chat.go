package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// The OpenAI-compatible chat API: POST /v1/chat/completions and GET
// /v1/models. The bodies follow OpenAI's Chat Completions API, so its SDKs
// and the tools built on them work unchanged; what assay adds is in
// documented extension fields (citations, the assay object) that those
// clients ignore. docs/api.md describes the mapping.

// ChatModel is the one model id /v1/models lists. Requests may name any
// model: assay answers every chat request with its own loop.
const ChatModel = "assay"

// Object types of the chat bodies.
const (
	ObjectChatCompletion      = "chat.completion"
	ObjectChatCompletionChunk = "chat.completion.chunk"
	ObjectList                = "list"
	ObjectModel               = "model"
)

// Chat message roles.
const (
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Finish reasons.
const (
	FinishStop          = "stop"           // an answer, or an answer that says nothing was found
	FinishContentFilter = "content_filter" // a guardrail refused the question
)

// ChatRequest is the body of POST /v1/chat/completions. It decodes
// leniently, like OpenAI's: fields assay has no use for (temperature,
// max_tokens, tools, user, ...) are accepted and ignored. The last user
// message is the question; earlier user and assistant messages are the
// conversation a follow-up is read in; system and developer messages are
// ignored (assay's instructions are its own). max_attempts, deadline_ms
// and filters are assay extensions, as on /v1/questions.
type ChatRequest struct {
	Model    string        `json:"model,omitempty"`
	Messages []ChatMessage `json:"messages"`
	Stream   bool          `json:"stream,omitempty"`
	// StreamOptions.IncludeUsage adds a last chunk, before [DONE], with
	// the usage and no choices.
	StreamOptions *ChatStreamOptions `json:"stream_options,omitempty"`
	// N must be 1 when given.
	N           *int     `json:"n,omitempty"`
	MaxAttempts *int     `json:"max_attempts,omitempty"`
	DeadlineMS  *int64   `json:"deadline_ms,omitempty"`
	Filters     *Filters `json:"filters,omitempty"`
}

// ChatStreamOptions are the options of a streamed chat completion.
type ChatStreamOptions struct {
	IncludeUsage bool `json:"include_usage,omitempty"`
}

// ChatMessage is one message of a chat request. Other OpenAI message
// fields (tool_calls, refusal, and the annotations and citations of
// assay's own replies sent back) are accepted and ignored.
type ChatMessage struct {
	Role    string      `json:"role" jsonschema:"enum=system,enum=developer,enum=user,enum=assistant,enum=tool"`
	Content ChatContent `json:"content"`
	Name    string      `json:"name,omitempty"`
}

// ChatContent is a message's text: a string, null, or an array of
// content parts, of which only text parts are accepted (joined by
// newlines).
type ChatContent string

// ChatContentPart is one part of an array content.
type ChatContentPart struct {
	Type string `json:"type" jsonschema:"enum=text"`
	Text string `json:"text"`
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *ChatContent) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*c = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return errs.FieldError("api.decode", "content", "is not a valid JSON string")
		}
		*c = ChatContent(s)
		return nil
	case len(b) > 0 && b[0] == '[':
		var parts []ChatContentPart
		if err := json.Unmarshal(b, &parts); err != nil {
			return errs.FieldError("api.decode", "content", "want a string or an array of {type, text} parts")
		}
		texts := make([]string, 0, len(parts))
		for i, p := range parts {
			if p.Type != "text" {
				return errs.FieldError("api.decode", fmt.Sprintf("content[%d].type", i), fmt.Sprintf("only text parts are supported, got %q", p.Type))
			}
			texts = append(texts, p.Text)
		}
		*c = ChatContent(strings.Join(texts, "\n"))
		return nil
	}
	return errs.FieldError("api.decode", "content", "want a string, null or an array of text parts")
}

// DecodeChat decodes a chat request: one JSON value, unknown fields
// ignored, errors naming the field (messages[2].content).
func DecodeChat(b []byte) (ChatRequest, error) {
	var raw struct {
		ChatRequest
		Messages []json.RawMessage `json:"messages"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&raw); err != nil {
		return ChatRequest{}, jsonError("api.decode", err)
	}
	if dec.More() {
		return ChatRequest{}, errs.FieldError("api.decode", "body", "has data after the JSON value")
	}
	req := raw.ChatRequest
	req.Messages = make([]ChatMessage, len(raw.Messages))
	for i, m := range raw.Messages {
		if err := json.Unmarshal(m, &req.Messages[i]); err != nil {
			return ChatRequest{}, PrefixField(fmt.Sprintf("messages[%d]", i), jsonError("api.decode", err))
		}
	}
	return req, nil
}

// ChatCompletion is the body of a chat completion that was not streamed.
type ChatCompletion struct {
	// ID is "chatcmpl-" and the question's id.
	ID      string       `json:"id"`
	Object  string       `json:"object" jsonschema:"enum=chat.completion"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []ChatChoice `json:"choices"`
	Usage   *ChatUsage   `json:"usage,omitempty"`
	// Assay is the extension: the run behind the reply.
	Assay *ChatAssay `json:"assay,omitempty"`
}

// ChatChoice is the one choice of a chat completion.
type ChatChoice struct {
	Index        int       `json:"index"`
	Message      ChatReply `json:"message"`
	FinishReason string    `json:"finish_reason" jsonschema:"enum=stop,enum=content_filter"`
}

// ChatReply is the assistant's message. Content cites its sources with
// numbered markers ([1]); Citations lists them, and Annotations (OpenAI's
// url_citation) points each marker of a source that has a URL at it.
type ChatReply struct {
	Role        string           `json:"role" jsonschema:"enum=assistant"`
	Content     string           `json:"content"`
	Annotations []ChatAnnotation `json:"annotations"`
	// Citations is the extension: the sources the markers stand for, as
	// GET /v1/questions/{id} lists them.
	Citations []CitationResponse `json:"citations"`
}

// ChatAnnotation is an OpenAI message annotation.
type ChatAnnotation struct {
	Type        string      `json:"type" jsonschema:"enum=url_citation"`
	URLCitation URLCitation `json:"url_citation"`
}

// URLCitation says which part of the content (a citation marker, by
// Unicode code point offsets, end exclusive) cites which URL.
type URLCitation struct {
	URL        string `json:"url"`
	Title      string `json:"title"`
	StartIndex int    `json:"start_index"`
	EndIndex   int    `json:"end_index"`
}

// ChatUsage is what the run's model calls consumed.
type ChatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// ChatAssay is the extension object of chat completions and chunks.
type ChatAssay struct {
	// QuestionID is the run: GET /v1/questions/{id}/trace explains it.
	QuestionID string `json:"question_id"`
	// StopReason is why the run ended: answered, or why not (a reply
	// that says nothing was found is insufficient_context,
	// repeated_query or budget_exhausted). Set once the run has ended.
	StopReason wire.StopReason `json:"stop_reason,omitempty"`
	StopDetail string          `json:"stop_detail,omitempty"`
	// Question is the standalone question the run answered, when the last
	// message was a follow-up the run rewrote.
	Question string `json:"question,omitempty"`
	// Model wrote the answer (the generator, not ChatModel).
	Model    string `json:"model,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
	// Stage is set on the progress chunks of a stream: the run entered a
	// stage (condense, search, assess, rewrite, generate).
	Stage *StageEvent `json:"stage,omitempty"`
}

// ChatCompletionChunk is one event of a streamed chat completion.
type ChatCompletionChunk struct {
	ID      string            `json:"id"`
	Object  string            `json:"object" jsonschema:"enum=chat.completion.chunk"`
	Created int64             `json:"created"`
	Model   string            `json:"model"`
	Choices []ChatChunkChoice `json:"choices"`
	// Usage is set on the last chunk (with no choices) when
	// stream_options.include_usage asked for it.
	Usage *ChatUsage `json:"usage,omitempty"`
	Assay *ChatAssay `json:"assay,omitempty"`
}

// ChatChunkChoice is the one choice of a chunk; FinishReason is null
// until the last.
type ChatChunkChoice struct {
	Index        int       `json:"index"`
	Delta        ChatDelta `json:"delta"`
	FinishReason *string   `json:"finish_reason" jsonschema:"enum=stop,enum=content_filter" jsonschema_extras:"nullable=true"`
}

// ChatDelta is a piece of the assistant's message: the role first, then
// pieces of the content, then, on the chunk with the finish reason, the
// annotations and citations of the whole content.
type ChatDelta struct {
	Role        string             `json:"role,omitempty" jsonschema:"enum=assistant"`
	Content     string             `json:"content,omitempty"`
	Annotations []ChatAnnotation   `json:"annotations,omitempty"`
	Citations   []CitationResponse `json:"citations,omitempty"`
}

// ModelList is the body of GET /v1/models.
type ModelList struct {
	Object string  `json:"object" jsonschema:"enum=list"`
	Data   []Model `json:"data"`
}

// Model is one model of ModelList.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object" jsonschema:"enum=model"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// OpenAIError is the error body of the chat routes, in OpenAI's shape,
// which its SDKs turn into their error types.
type OpenAIError struct {
	Error OpenAIErrorDetail `json:"error"`
}

// OpenAIErrorDetail: Type is OpenAI's class (invalid_request_error,
// authentication_error, permission_error, not_found_error,
// rate_limit_error, server_error), Code the assay error kind (invalid,
// rate_limited, ...) or stop reason, Param the offending field.
type OpenAIErrorDetail struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param" jsonschema_extras:"nullable=true"`
	Code    *string `json:"code" jsonschema_extras:"nullable=true"`
}
