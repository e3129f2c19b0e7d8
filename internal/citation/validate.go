package citation

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/prompt"
)

// Rule names a validator.
type Rule string

// The validators, in the order Validate applies them.
const (
	RuleEmpty   Rule = "empty"   // no words at all
	RuleRefusal Rule = "refusal" // the model declined or found nothing
	RuleUncited Rule = "uncited" // sources were issued and none is cited
)

// Rejection says which validator rejected an answer and why.
type Rejection struct {
	Rule   Rule
	Detail string
}

func (r *Rejection) Error() string { return fmt.Sprintf("answer rejected (%s): %s", r.Rule, r.Detail) }

// refusalOpenings are how models decline when they do not use the
// NOT_FOUND reply the prompt asks for. They count only in an answer that
// cites nothing: "I'm sorry, but blade wear is not covered [1]" answers.
var refusalOpenings = []string{
	"i'm sorry", "i am sorry", "sorry,", "i cannot", "i can't", "i can not", "i'm unable", "i am unable",
	"i don't know", "i do not know", "i don't have", "i do not have", "as an ai",
	"the sources do not", "the provided sources do not", "the sources don't", "none of the sources",
	"there is no information", "no information", "i could not find", "i couldn't find",
}

// Validate rejects an answer that must not be shown. issued are the labels
// of the sources the model was given. The error wraps a *Rejection:
// errs.Schema for an empty or uncited answer (the reply broke the answer
// contract), errs.Refused for a refusal. Both are final: retrying the same
// prompt is not the fix.
func Validate(answer string, issued []string) error {
	const op = "citation.Validate"
	words := stripMarkers(answer)
	if !strings.ContainsFunc(words, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return errs.E(op, errs.Schema, &Rejection{RuleEmpty, "the answer has no words"})
	}
	cited := Cited(answer, issued)
	if r := refusal(words, len(cited) > 0); r != "" {
		return errs.E(op, errs.Refused, &Rejection{RuleRefusal, r})
	}
	if len(issued) > 0 && len(cited) == 0 {
		return errs.E(op, errs.Schema, &Rejection{RuleUncited, fmt.Sprintf("%d sources were issued and the answer cites none of them", len(issued))})
	}
	return nil
}

func refusal(words string, cites bool) string {
	trimmed := strings.Trim(words, " .\"'`*")
	if strings.EqualFold(trimmed, prompt.NotFoundReply) {
		return "the model replied " + prompt.NotFoundReply + ": the sources do not answer the question"
	}
	if cites {
		return ""
	}
	lower := strings.ToLower(words)
	for _, o := range refusalOpenings {
		if strings.HasPrefix(lower, o) {
			return fmt.Sprintf("the answer opens with %q and cites nothing", words[:min(len(words), len(o))])
		}
	}
	if strings.Contains(words, prompt.NotFoundReply) {
		return "the answer contains " + prompt.NotFoundReply + " and cites nothing"
	}
	return ""
}
