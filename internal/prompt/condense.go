package prompt

import (
	"fmt"
	"strings"
	"text/template"

	"github.com/assay-rag/assay/internal/errs"
)

// condenseName is the human part of CondenseVersion.
const condenseName = "condense-v1"

var (
	condenseSystemTmpl = template.Must(template.ParseFS(templateFS, "templates/condense_system.tmpl"))
	condenseUserTmpl   = template.Must(template.ParseFS(templateFS, "templates/condense_user.tmpl"))
	condenseVersion    = templateVersion(condenseName, "templates/condense_system.tmpl", "templates/condense_user.tmpl")
)

// CondenseVersion identifies the condense prompt templates.
func CondenseVersion() string { return condenseVersion }

// Turn is one earlier message of a conversation: its role (user or
// assistant) and text.
type Turn struct {
	Role    string
	Content string
}

// CondenseInput is what a condense prompt is built from: the earlier
// turns, oldest first, and the last user message.
type CondenseInput struct {
	Turns    []Turn
	Question string
	// ContextTokens bounds the prompt; the oldest turns are left out
	// until it fits.
	ContextTokens int
}

// BuildCondense renders the prompt that asks a model to rewrite a
// follow-up ("and for the K50?") as a standalone question. The turns are
// untrusted data inside a <conversation> block, escaped like source
// attributes (no markup, one line each); the oldest are left out when the
// prompt would exceed ContextTokens.
func BuildCondense(in CondenseInput, tok Counter) (Prompt, error) {
	const op = "prompt.BuildCondense"
	switch {
	case strings.TrimSpace(in.Question) == "":
		return Prompt{}, errs.FieldError(op, "question", "must not be empty")
	case in.ContextTokens <= 0:
		return Prompt{}, errs.FieldError(op, "context_tokens", fmt.Sprintf("must be positive, got %d", in.ContextTokens))
	case tok == nil:
		return Prompt{}, errs.FieldError(op, "tokenizer", "must not be nil")
	}
	for i, t := range in.Turns {
		if t.Role != "user" && t.Role != "assistant" {
			return Prompt{}, errs.FieldError(op, fmt.Sprintf("turns[%d].role", i), fmt.Sprintf("want user or assistant, got %q", t.Role))
		}
	}
	p := Prompt{Version: condenseVersion}
	var err error
	if p.System, err = render(condenseSystemTmpl, nil); err != nil {
		return Prompt{}, errs.E(op, errs.Internal, err)
	}
	safe := make([]Turn, len(in.Turns))
	for i, t := range in.Turns {
		safe[i] = Turn{Role: t.Role, Content: attr(strings.TrimSpace(t.Content))}
	}
	question := attr(strings.TrimSpace(in.Question))
	for {
		if p.User, err = render(condenseUserTmpl, struct {
			Turns    []Turn
			Question string
		}{safe, question}); err != nil {
			return Prompt{}, errs.E(op, errs.Internal, err)
		}
		p.Tokens = tok.Count(p.System) + tok.Count(p.User) + 2*tokensPerMessage + tokensReplyPrime
		if p.Tokens <= in.ContextTokens {
			return p, nil
		}
		if len(safe) == 0 {
			return Prompt{}, errs.Errorf(op, errs.TooLarge, "the last message alone needs %d tokens, more than the %d-token budget", p.Tokens, in.ContextTokens)
		}
		safe = safe[1:] // the oldest turn goes first
	}
}
