// Package prompt assembles the messages a model answers from.
//
// The system message is policy, owned by us, and never holds request data.
// The user message holds the request's untrusted data: the retrieved
// sources, each inside a <source id="N" title="..."> ... </source> block,
// then the question. Source ids are short request-scoped labels chosen by
// the caller; Prompt.Sources is the explicit label → chunk mapping that
// travels beside the prompt, so nothing downstream infers a citation from
// list order.
//
// A token budget decides which sources fit: sources are taken in rank
// order and one that does not fit in what is left is dropped (a later,
// shorter one may still fit); every drop is recorded with its size. Tokens
// are counted with a real BPE tokenizer (Tokenizer, cl100k_base, compiled
// in). For models with another vocabulary the count is an estimate:
// measured on the Hollin corpus (TestTokenizerGap), o200k_base (gpt-4o)
// counts 0.988 of cl100k's tokens overall and at worst 7% off on one
// document, while the common "characters / 4" rule is 1.048 overall but up
// to 29% off on one document, which is why it is not used. Leave headroom
// in the budget for models whose vocabulary is further from cl100k.
//
// The templates are embedded; Version names them and changes whenever
// their text does. Golden files (testdata/, go test -update) pin the
// rendered prompts.
package prompt

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"text/template"

	"github.com/assay-rag/assay/internal/errs"

	"github.com/assay-rag/assay/internal/wire"
)

// NotFoundReply is what the system prompt tells the model to reply,
// exactly, when the sources do not answer the question, so that a refusal
// is detected by comparison rather than by guessing at phrasing.
const NotFoundReply = "NOT_FOUND"

// name is the human part of Version; bump it when the prompt's contract
// changes (not for wording).
const name = "answer-v1"

//go:embed templates/*.tmpl
var templateFS embed.FS

var (
	systemTmpl = template.Must(template.ParseFS(templateFS, "templates/answer_system.tmpl"))
	userTmpl   = template.Must(template.ParseFS(templateFS, "templates/answer_user.tmpl"))
	version    = templateVersion(name, "templates/answer_system.tmpl", "templates/answer_user.tmpl")
)

// templateVersion names a prompt by its contract name and a digest of its
// template files' text ("answer-v1@1a2b3c4d").
func templateVersion(name string, files ...string) string {
	h := sha256.New()
	for _, f := range files {
		b, _ := templateFS.ReadFile(f) // embedded at build time
		h.Write(b)
	}
	return name + "@" + hex.EncodeToString(h.Sum(nil))[:8]
}

// Version identifies the prompt templates: a name and a digest of their
// text.
func Version() string { return version }

// Source is one retrieved chunk offered to the model.
type Source struct {
	Label   string `json:"label"`
	ChunkID string `json:"chunk_id"`
	Title   string `json:"title"`
	// Status and Updated are shown to the model so it can prefer current
	// documents; empty ones are left out.
	Status  string `json:"status,omitempty"`
	Updated string `json:"updated,omitempty"`
	Text    string `json:"-"`
}

// Input is what a prompt is built from.
type Input struct {
	Question string
	// Sources are ranked, best first.
	Sources []Source
	// ContextTokens bounds the tokens of the source blocks together.
	ContextTokens int
}

// Dropped is a source the budget left out (defined in the wire contract).
type Dropped = wire.Dropped

// Prompt is a built prompt and the record of how it was built.
type Prompt struct {
	Version string
	System  string
	User    string
	// Sources are the sources in the prompt, in prompt order: the label →
	// chunk mapping for this request. Labels not here were never issued.
	Sources []Source
	Dropped []Dropped
	// ContextTokens counts the included source blocks; Tokens the whole
	// prompt as a chat request (messages plus their framing).
	ContextTokens int
	Tokens        int
}

// Labels returns the labels issued in this prompt.
func (p Prompt) Labels() []string {
	out := make([]string, len(p.Sources))
	for i, s := range p.Sources {
		out[i] = s.Label
	}
	return out
}

// Counter counts tokens.
type Counter interface {
	Count(s string) int
}

// Chat framing per OpenAI's accounting: each message costs 3 tokens
// beyond its content and the reply is primed with 3 more.
const (
	tokensPerMessage = 3
	tokensReplyPrime = 3
)

// Build renders the prompt for in, dropping sources that do not fit the
// budget. Errors name the field: an empty question, no sources (the model
// is never asked without evidence), a bad label or budget; and
// errs.TooLarge when not even one source fits, so a caller can route to a
// model with a larger context.
func Build(in Input, tok Counter) (Prompt, error) {
	const op = "prompt.Build"
	if strings.TrimSpace(in.Question) == "" {
		return Prompt{}, errs.FieldError(op, "question", "must not be empty")
	}
	if len(in.Sources) == 0 {
		return Prompt{}, errs.FieldError(op, "sources", "no evidence: a model is never asked without sources")
	}
	if in.ContextTokens <= 0 {
		return Prompt{}, errs.FieldError(op, "context_tokens", fmt.Sprintf("must be positive, got %d", in.ContextTokens))
	}
	if tok == nil {
		return Prompt{}, errs.FieldError(op, "tokenizer", "must not be nil")
	}
	seen := map[string]bool{}
	for i, s := range in.Sources {
		field := fmt.Sprintf("sources[%d]", i)
		switch {
		case s.Label == "" || strings.ContainsAny(s.Label, "[]\" \n"):
			return Prompt{}, errs.FieldError(op, field+".label", fmt.Sprintf("want a short label without brackets, quotes or spaces, got %q", s.Label))
		case seen[s.Label]:
			return Prompt{}, errs.FieldError(op, field+".label", fmt.Sprintf("label %q is used twice", s.Label))
		case strings.TrimSpace(s.Text) == "":
			return Prompt{}, errs.FieldError(op, field+".text", "must not be empty")
		}
		seen[s.Label] = true
	}

	p := Prompt{Version: version}
	if err := p.fit(op, in.Sources, in.ContextTokens, tok); err != nil {
		return Prompt{}, err
	}
	if len(p.Sources) == 0 {
		return Prompt{}, errs.Errorf(op, errs.TooLarge, "no source fits the %d-token context budget (the smallest needs %d)", in.ContextTokens, smallest(p.Dropped))
	}

	var err error
	if p.System, err = render(systemTmpl, struct{ NotFound string }{NotFoundReply}); err != nil {
		return Prompt{}, errs.E(op, errs.Internal, err)
	}
	safe := make([]Source, len(p.Sources))
	for i, s := range p.Sources {
		safe[i] = safeSource(s)
	}
	if p.User, err = render(userTmpl, struct {
		Sources  []Source
		Question string
	}{safe, neutralize(strings.TrimSpace(in.Question))}); err != nil {
		return Prompt{}, errs.E(op, errs.Internal, err)
	}
	p.Tokens = tok.Count(p.System) + tok.Count(p.User) + 2*tokensPerMessage + tokensReplyPrime
	return p, nil
}

// fit takes sources in rank order into p while they fit the budget of
// contextTokens, recording each one that does not (a later, shorter one
// may still fit).
func (p *Prompt) fit(op string, sources []Source, contextTokens int, tok Counter) error {
	left := contextTokens
	for _, s := range sources {
		block, err := render(userTmpl.Lookup("source"), safeSource(s))
		if err != nil {
			return errs.E(op, errs.Internal, err)
		}
		n := tok.Count(block)
		if n > left {
			p.Dropped = append(p.Dropped, Dropped{Label: s.Label, ChunkID: s.ChunkID, Tokens: n,
				Reason: fmt.Sprintf("needs %d tokens, %d of the %d-token context budget left", n, left, contextTokens)})
			continue
		}
		left -= n
		p.ContextTokens += n
		p.Sources = append(p.Sources, s)
	}
	return nil
}

func smallest(d []Dropped) int {
	m := d[0].Tokens
	for _, x := range d[1:] {
		m = min(m, x.Tokens)
	}
	return m
}

func render(t *template.Template, data any) (string, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("render %s: %w", t.Name(), err)
	}
	return b.String(), nil
}

// safeSource escapes what would let a source's data break out of its
// block: quotes and angle brackets in attribute values, and source tags
// in the text.
func safeSource(s Source) Source {
	s.Title = attr(s.Title)
	s.Status = attr(s.Status)
	s.Updated = attr(s.Updated)
	s.Text = neutralize(strings.TrimSpace(s.Text))
	return s
}

var attrEscaper = strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;", "\n", " ", "\r", " ")

func attr(s string) string { return attrEscaper.Replace(s) }

// sourceTag matches anything that would open or close a source block.
var sourceTag = regexp.MustCompile(`(?i)<(/?\s*sources?\b)`)

// neutralize escapes source tags inside data, so a document (or a
// question) cannot end its block and pose as policy or as another source.
func neutralize(s string) string { return sourceTag.ReplaceAllString(s, "&lt;$1") }
