package assess

import (
	"context"
	"fmt"
	"strconv"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/prompt"

	"github.com/assay-rag/assay/internal/wire"
)

// Chatter is the model call the LLM assessor needs; *llm.Client is one.
type Chatter interface {
	Chat(ctx context.Context, req llm.Request) (llm.Reply, error)
}

// LLM asks a model for the assessment. The reply must match Schema(): the
// schema is sent as the response format and every reply is validated
// against it and the semantic checks. A reply that fails gets one repair
// request quoting the failure; a second failure is an errs.Schema error,
// which the loop treats as a reason to escalate to the fallback model.
type LLM struct {
	chat          Chatter
	tok           prompt.Counter
	model         string
	contextTokens int
}

// maxAssessmentTokens bounds the reply: a score, a flag, a query and a
// sentence.
const maxAssessmentTokens = 400

// NewLLM returns an assessor that asks model through chat, offering at
// most contextTokens of sources.
func NewLLM(chat Chatter, tok prompt.Counter, model string, contextTokens int) (*LLM, error) {
	const op = "assess.NewLLM"
	switch {
	case chat == nil:
		return nil, errs.FieldError(op, "chat", "must not be nil")
	case tok == nil:
		return nil, errs.FieldError(op, "tokenizer", "must not be nil")
	case model == "":
		return nil, errs.FieldError(op, "model", "must not be empty")
	case contextTokens <= 0:
		return nil, errs.FieldError(op, "context_tokens", "must be positive")
	}
	return &LLM{chat: chat, tok: tok, model: model, contextTokens: contextTokens}, nil
}

// Assess implements Assessor.
func (m *LLM) Assess(ctx context.Context, req Request) (Result, error) {
	const op = "assess.LLM"
	in := prompt.AssessInput{Question: req.Question, Query: req.Query, Previous: req.Previous, ContextTokens: m.contextTokens}
	for i, e := range req.Evidence {
		in.Sources = append(in.Sources, prompt.Source{Label: strconv.Itoa(i + 1), ChunkID: e.ChunkID, Title: e.Title, Text: e.Text})
	}
	p, err := prompt.BuildAssessment(in, m.tok)
	if err != nil {
		return Result{}, err
	}
	zero := 0.0
	msgs := []llm.Message{{Role: llm.System, Content: p.System}, {Role: llm.User, Content: p.User}}
	call := llm.Request{
		Model: m.model, Messages: msgs, MaxTokens: maxAssessmentTokens, Temperature: &zero,
		Schema: &llm.Schema{Name: SchemaName, Schema: Schema(), Strict: true},
	}
	res := Result{Usage: wire.Spent{Model: m.model}}
	for try := 1; ; try++ {
		reply, err := m.chat.Chat(ctx, call)
		if err != nil {
			// The tokens of an invalid first reply stay counted when its
			// repair fails: the endpoint billed them.
			return res, err
		}
		res.Usage.TokensIn += reply.Usage.PromptTokens
		res.Usage.TokensOut += reply.Usage.CompletionTokens
		res.Usage.CostUSD += reply.CostUSD
		a, perr := Parse(reply.Text)
		if perr == nil {
			res.Assessment = a
			return res, nil
		}
		if try == 2 {
			return res, errs.E(op, errs.Schema, fmt.Errorf("%s: still invalid after one repair: %w", m.model, perr))
		}
		// One repair: show the model its reply and what was wrong with it.
		call.Messages = append(call.Messages,
			llm.Message{Role: llm.Assistant, Content: reply.Text},
			llm.Message{Role: llm.User, Content: "That reply is invalid: " + perr.Error() +
				". Reply again with only the JSON object, with exactly the fields score, sufficient, rewrite and reason."})
	}
}
