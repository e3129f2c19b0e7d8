package prompt

import (
	"fmt"
	"strings"
	"text/template"

	"github.com/assay-rag/assay/internal/errs"
)

// assessName is the human part of AssessVersion.
const assessName = "assess-v1"

var (
	assessSystemTmpl = template.Must(template.ParseFS(templateFS, "templates/assess_system.tmpl"))
	// The user template reuses the answer prompt's source block.
	assessUserTmpl = template.Must(template.Must(userTmpl.Clone()).ParseFS(templateFS, "templates/assess_user.tmpl")).Lookup("assess_user.tmpl")
	assessVersion  = templateVersion(assessName, "templates/assess_system.tmpl", "templates/assess_user.tmpl", "templates/answer_user.tmpl")
)

// AssessVersion identifies the assessment prompt templates.
func AssessVersion() string { return assessVersion }

// AssessInput is what an assessment prompt is built from.
type AssessInput struct {
	Question string
	// Query found the sources; Previous are the queries tried before it.
	Query    string
	Previous []string
	// Sources are ranked, best first. None is allowed: the assessor may
	// still propose a rewrite for a search that found nothing.
	Sources       []Source
	ContextTokens int
}

// BuildAssessment renders the prompt that asks a model for an assessment,
// under the same budget and escaping rules as Build.
func BuildAssessment(in AssessInput, tok Counter) (Prompt, error) {
	const op = "prompt.BuildAssessment"
	if strings.TrimSpace(in.Question) == "" {
		return Prompt{}, errs.FieldError(op, "question", "must not be empty")
	}
	if in.ContextTokens <= 0 {
		return Prompt{}, errs.FieldError(op, "context_tokens", fmt.Sprintf("must be positive, got %d", in.ContextTokens))
	}
	if tok == nil {
		return Prompt{}, errs.FieldError(op, "tokenizer", "must not be nil")
	}
	for i, s := range in.Sources {
		if s.Label == "" || strings.TrimSpace(s.Text) == "" {
			return Prompt{}, errs.FieldError(op, fmt.Sprintf("sources[%d]", i), "needs a label and text")
		}
	}
	p := Prompt{Version: assessVersion}
	if err := p.fit(op, in.Sources, in.ContextTokens, tok); err != nil {
		return Prompt{}, err
	}
	if len(in.Sources) > 0 && len(p.Sources) == 0 {
		return Prompt{}, errs.Errorf(op, errs.TooLarge, "no source fits the %d-token context budget (the smallest needs %d)", in.ContextTokens, smallest(p.Dropped))
	}
	var err error
	if p.System, err = render(assessSystemTmpl, nil); err != nil {
		return Prompt{}, errs.E(op, errs.Internal, err)
	}
	safe := make([]Source, len(p.Sources))
	for i, s := range p.Sources {
		safe[i] = safeSource(s)
	}
	prev := make([]string, len(in.Previous))
	for i, q := range in.Previous {
		prev[i] = neutralize(strings.TrimSpace(q))
	}
	if p.User, err = render(assessUserTmpl, struct {
		Sources  []Source
		Question string
		Query    string
		Previous []string
	}{safe, neutralize(strings.TrimSpace(in.Question)), neutralize(strings.TrimSpace(in.Query)), prev}); err != nil {
		return Prompt{}, errs.E(op, errs.Internal, err)
	}
	p.Tokens = tok.Count(p.System) + tok.Count(p.User) + 2*tokensPerMessage + tokensReplyPrime
	return p, nil
}
