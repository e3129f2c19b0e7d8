package generate

import (
	"context"
	"fmt"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/wire"
)

// Completer is the model client the LLM generator needs; *llm.Client is
// one.
type Completer interface {
	Chat(ctx context.Context, req llm.Request) (llm.Reply, error)
	Stream(ctx context.Context, req llm.Request, onToken func(string) error) (llm.Reply, error)
}

// LLMOptions tune the LLM generator. Zero values take the defaults.
type LLMOptions struct {
	// Tokenizer counts prompt tokens for the budget (required; a
	// *prompt.Tokenizer).
	Tokenizer prompt.Counter
	// ContextTokens bounds the sources in the prompt (default 3000).
	ContextTokens int
	// MaxAnswerTokens bounds the reply (default 512).
	MaxAnswerTokens int
	// Temperature is sent as is (default 0: the same evidence should give
	// the same answer).
	Temperature float64
}

// Defaults of LLMOptions.
const (
	DefaultContextTokens   = 3000
	DefaultMaxAnswerTokens = 512
)

// LLM answers with a model at an OpenAI-compatible endpoint, from a
// prompt that holds the sources as labelled blocks.
type LLM struct {
	client Completer
	model  string
	opts   LLMOptions
}

// NewLLM returns a generator that asks model through client. Errors name
// the bad option.
func NewLLM(client Completer, model string, opts LLMOptions) (*LLM, error) {
	const op = "generate.NewLLM"
	switch {
	case client == nil:
		return nil, errs.FieldError(op, "client", "must not be nil")
	case model == "":
		return nil, errs.FieldError(op, "model", "must not be empty")
	case opts.Tokenizer == nil:
		return nil, errs.FieldError(op, "tokenizer", "must not be nil")
	case opts.ContextTokens < 0:
		return nil, errs.FieldError(op, "context_tokens", "must not be negative")
	case opts.MaxAnswerTokens < 0:
		return nil, errs.FieldError(op, "max_answer_tokens", "must not be negative")
	case opts.Temperature < 0 || opts.Temperature > 2:
		return nil, errs.FieldError(op, "temperature", fmt.Sprintf("want 0..2, got %g", opts.Temperature))
	}
	if opts.ContextTokens == 0 {
		opts.ContextTokens = DefaultContextTokens
	}
	if opts.MaxAnswerTokens == 0 {
		opts.MaxAnswerTokens = DefaultMaxAnswerTokens
	}
	return &LLM{client: client, model: model, opts: opts}, nil
}

// Generate implements Generator. It never calls the model without
// sources. With req.OnToken set it streams. The answer's citations are
// filled by Check, which must run after it.
func (g *LLM) Generate(ctx context.Context, req Request) (Answer, error) {
	const op = "generate.LLM"
	if len(req.Sources) == 0 {
		return Answer{}, errs.FieldError(op, "sources", "no evidence: the model is never asked without sources")
	}
	in := prompt.Input{Question: req.Question, ContextTokens: g.opts.ContextTokens}
	for _, s := range req.Sources {
		in.Sources = append(in.Sources, prompt.Source{
			Label: s.Label, ChunkID: s.ID, Title: s.Title, Status: string(s.Status), Updated: s.Updated, Text: s.Text,
		})
	}
	p, err := prompt.Build(in, g.opts.Tokenizer)
	if err != nil {
		return Answer{}, errs.E(op, err)
	}
	temp := g.opts.Temperature
	creq := llm.Request{
		Model:       g.model,
		Messages:    []llm.Message{{Role: llm.System, Content: p.System}, {Role: llm.User, Content: p.User}},
		MaxTokens:   g.opts.MaxAnswerTokens,
		Temperature: &temp,
	}
	var reply llm.Reply
	if req.OnToken != nil {
		reply, err = g.client.Stream(ctx, creq, req.OnToken)
	} else {
		reply, err = g.client.Chat(ctx, creq)
	}
	ans := Answer{
		Text: reply.Text, Model: g.model, FinishReason: reply.FinishReason,
		Usage:         wire.Usage{TokensIn: reply.Usage.PromptTokens, TokensOut: reply.Usage.CompletionTokens, CostUSD: reply.CostUSD},
		PromptVersion: p.Version, Dropped: p.Dropped,
	}
	if !reply.Usage.Reported {
		// Budgets count tokens; an endpoint that reports none must not
		// make an answer free.
		ans.TokensIn, ans.TokensOut = p.Tokens, g.opts.Tokenizer.Count(reply.Text)
		ans.Warnings = append(ans.Warnings, fmt.Sprintf("usage: the endpoint reported none; tokens estimated with %s", prompt.Encoding))
	}
	if err != nil {
		return ans, errs.E(op, err)
	}
	if !reply.Priced {
		ans.Warnings = append(ans.Warnings, fmt.Sprintf("cost: no price configured for model %q; counted as 0", g.model))
	}
	if reply.FinishReason == "length" {
		ans.Warnings = append(ans.Warnings, fmt.Sprintf("the answer was cut at the %d-token limit", g.opts.MaxAnswerTokens))
	}
	if reply.Attempts > 1 {
		ans.Warnings = append(ans.Warnings, fmt.Sprintf("the model call took %d attempts", reply.Attempts))
	}
	return ans, nil
}

// compile-time check
var _ Generator = (*LLM)(nil)
