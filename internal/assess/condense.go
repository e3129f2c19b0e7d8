package assess

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// CarryOverModel names the builtin condenser in traces.
const CarryOverModel = "builtin:carry-over-v1"

// CondenseRequest is a conversation's last user message and the turns
// before it, oldest first.
type CondenseRequest struct {
	Question string
	History  []wire.Turn
}

// CondenseResult is the standalone question a follow-up stands for.
type CondenseResult struct {
	Question string
	// Carried is what came from earlier turns: the earlier question whose
	// frame a follow-up reused, or the entities appended to it (builtin
	// only).
	Carried []string
	Usage   wire.Spent
}

// Condenser rewrites the last message of a conversation ("and for the
// K50?") as a question that stands alone ("What is the warranty on the
// K50?"). The builtin carry-over (NewCarryOver) and the LLM assessor (a
// condense prompt) are Condensers.
type Condenser interface {
	Condense(ctx context.Context, req CondenseRequest) (CondenseResult, error)
}

// carryOver is the builtin Condenser.
type carryOver struct{ an *terms.Analyzer }

// NewCarryOver returns the builtin Condenser, CarryOver with analyzer an.
func NewCarryOver(an *terms.Analyzer) Condenser { return carryOver{an} }

// Condense implements Condenser with CarryOver.
func (c carryOver) Condense(_ context.Context, req CondenseRequest) (CondenseResult, error) {
	q, carried := CarryOver(c.an, req.History, req.Question)
	return CondenseResult{Question: q, Carried: carried, Usage: wire.Spent{Model: CarryOverModel}}, nil
}

// followUpOpeners start a message that continues the previous question
// rather than asking a new one.
var followUpOpeners = []string{"and ", "or ", "but ", "also ", "what about ", "how about ", "what of ", "same for ", "same question for ", "and what about ", "and for "}

// referring words point back at something an earlier turn named.
var referring = []string{"it", "its", "it's", "they", "them", "their", "theirs", "this", "that", "these", "those", "one", "ones"}

// noVocab is an empty vocabulary: carry-over judges entities by shape only,
// so it reads no corpus statistics.
type noVocab struct{}

func (noVocab) DocFreq(string) int { return 0 }
func (noVocab) Len() int           { return 0 }

// CarryOver is the builtin, deterministic condenser. It reads the user
// turns only (an answer's entities are the corpus's, not the asker's),
// oldest first, keeping a running standalone question; each message
// either replaces it or is completed from it:
//
//   - a message that names entities (see Entities) and is a follow-up
//     (it opens with "and", "what about", ..., or holds no content word
//     besides its entities: "the K50?") takes the running question's frame
//     with its entities replaced, kind for kind: after "What is the
//     warranty on the X200?", "and for the K50?" becomes "What is the
//     warranty on the K50?";
//   - a message that names no entity but is a follow-up or refers back
//     ("it", "that", "those", ...) gets the running question's entities
//     appended: "How do I descale it?" becomes "How do I descale it (X300)?";
//   - any other message stands alone and replaces the running question.
//
// It returns the standalone form of question and what it carried over.
func CarryOver(an *terms.Analyzer, history []wire.Turn, question string) (string, []string) {
	running := ""
	for _, t := range history {
		if t.Role == wire.RoleUser && strings.TrimSpace(t.Content) != "" {
			running, _ = carryOne(an, running, strings.TrimSpace(t.Content))
		}
	}
	return carryOne(an, running, strings.TrimSpace(question))
}

// carryOne completes cur from prev, the running standalone question.
func carryOne(an *terms.Analyzer, prev, cur string) (string, []string) {
	if prev == "" {
		return cur, nil
	}
	pe := Entities(an, prev, noVocab{})
	ce := Entities(an, cur, noVocab{})
	rest := strings.ToLower(cur)
	for _, e := range ce {
		rest = strings.ReplaceAll(rest, strings.ToLower(e.Text), " ")
	}
	opener := false
	lower := strings.ToLower(cur)
	for _, o := range followUpOpeners {
		opener = opener || strings.HasPrefix(lower, o)
	}
	elliptical := opener || len(an.Terms(rest)) == 0
	switch {
	case len(ce) > 0 && elliptical && len(pe) > 0:
		return substitute(prev, pe, ce), []string{prev}
	case len(ce) > 0 || len(pe) == 0:
		return cur, nil
	case elliptical && len(an.Terms(rest)) == 0:
		return prev, []string{prev} // "and?", "same again"
	case elliptical || refersBack(cur):
		names := make([]string, len(pe))
		for i, e := range pe {
			names[i] = e.Text
		}
		body, punct := splitEnd(cur)
		return body + " (" + strings.Join(names, ", ") + ")" + punct, names
	}
	return cur, nil
}

// substitute replaces prev's entities with cur's, codes for codes and
// names for names where it can, in order otherwise; an entity with
// nothing left to replace is added at the end.
func substitute(prev string, pe, ce []Entity) string {
	used := make([]bool, len(pe))
	out := prev
	var extra []string
	pick := func(code bool, sameKind bool) int {
		for i, e := range pe {
			if !used[i] && (!sameKind || e.Code == code) && strings.Contains(out, e.Text) {
				return i
			}
		}
		return -1
	}
	for _, e := range ce {
		i := pick(e.Code, true)
		if i < 0 {
			i = pick(e.Code, false)
		}
		if i < 0 {
			extra = append(extra, e.Text)
			continue
		}
		used[i] = true
		out = strings.Replace(out, pe[i].Text, e.Text, 1)
	}
	if len(extra) > 0 {
		body, punct := splitEnd(out)
		out = body + " (" + strings.Join(extra, ", ") + ")" + punct
	}
	return out
}

func refersBack(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if slices.Contains(referring, strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })) {
			return true
		}
	}
	return false
}

// splitEnd splits trailing sentence punctuation off s.
func splitEnd(s string) (body, punct string) {
	body = strings.TrimRight(s, "?!. ")
	return body, strings.TrimSpace(s[len(body):])
}

// maxCondenseTokens bounds a model's condensed question.
const maxCondenseTokens = 200

// Condense implements Condenser with the condense prompt: the model
// rewrites the last message as a standalone question. An empty or
// multi-paragraph reply is an errs.Schema error, which the loop treats as
// a reason to fall back (to the builtin carry-over).
func (m *LLM) Condense(ctx context.Context, req CondenseRequest) (CondenseResult, error) {
	const op = "assess.LLM.Condense"
	in := prompt.CondenseInput{Question: req.Question, ContextTokens: m.contextTokens}
	for _, t := range req.History {
		in.Turns = append(in.Turns, prompt.Turn{Role: t.Role, Content: t.Content})
	}
	p, err := prompt.BuildCondense(in, m.tok)
	if err != nil {
		return CondenseResult{}, err
	}
	zero := 0.0
	reply, err := m.chat.Chat(ctx, llm.Request{
		Model:       m.model,
		Messages:    []llm.Message{{Role: llm.System, Content: p.System}, {Role: llm.User, Content: p.User}},
		MaxTokens:   maxCondenseTokens,
		Temperature: &zero,
	})
	if err != nil {
		return CondenseResult{}, err
	}
	res := CondenseResult{Usage: wire.Spent{Model: m.model}}
	res.Usage.TokensIn, res.Usage.TokensOut, res.Usage.CostUSD = reply.Usage.PromptTokens, reply.Usage.CompletionTokens, reply.CostUSD
	q := strings.Trim(strings.TrimSpace(reply.Text), "\"'`")
	switch {
	case q == "":
		return res, errs.E(op, errs.Schema, fmt.Errorf("%s replied with no question", m.model))
	case strings.Contains(q, "\n\n") || len(q) > 4*len(req.Question)+500:
		return res, errs.E(op, errs.Schema, fmt.Errorf("%s replied with more than a question (%d bytes)", m.model, len(q)))
	}
	res.Question = strings.Join(strings.Fields(q), " ")
	return res, nil
}
