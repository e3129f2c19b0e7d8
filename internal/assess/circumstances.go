package assess

import (
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// Builtin.Circumstances ("+circumstances", off in every named model)
// reads the circumstances an asker gives inside the clause that asks. v21 (Builtin.Scene) weighs the
// clauses before it as a scene; an asker as often puts the situation
// after the request, in a clause of condition or cause ("how often should
// the x200 blades get changed if i use it every morning", "should I
// descale more because our water is really hard"), and a page that
// answers the request does not retell it. When the coverage rules (and
// v23's relatives) refuse, each chunk is judged again with the words only
// such a clause holds (answertype.Circumstances) that it lacks weighed as
// a scene's: sceneShare of their weight when a visible chunk holds them,
// nothing when none does, and never the most specific term. A word it
// holds keeps its weight; the entities, the type check and the other
// rules are unchanged. A clause of time ("once pairing has finished",
// "before the move") is not read so: it says when the asked value holds.

// circumstanceTerms are the content terms of question that only its
// circumstances hold (answertype.Circumstances), neither its other words
// nor an entity's.
func (b *Builtin) circumstanceTerms(question string, ents []Entity) map[string]bool {
	parts := answertype.Circumstances(question)
	if len(parts) == 0 {
		return nil
	}
	rest := question
	circ := map[string]bool{}
	for _, p := range parts {
		rest = replaceOnce(rest, p)
		for t := range b.an.Set(p) {
			circ[t] = true
		}
	}
	asked := b.an.Set(rest)
	for t := range circ {
		if asked[t] || entityTerm(ents, t) {
			delete(circ, t)
		}
	}
	if len(circ) == 0 {
		return nil
	}
	return circ
}

// replaceOnce blanks the first occurrence of part in s.
func replaceOnce(s, part string) string {
	return strings.Replace(s, part, " ", 1)
}

// judgeCircumstances judges each chunk of all again by r's rules with
// the words of circ (circumstanceTerms) it lacks weighed as a scene's
// (sceneShare of their weight when the visible corpus uses them, none
// when it does not) and never its most specific term, and returns the
// best that then suffices (Builtin's order: the higher score, the first
// of equals) and what it left aside, for the reason (` (leaving aside
// "morning": ...)`); nil when none does.
func (r *reading) judgeCircumstances(all []*judged, covers func(map[string]bool, string) bool, circ map[string]bool, an *terms.Analyzer, question string) (*judged, string) {
	if len(circ) == 0 {
		return nil, ""
	}
	cr := *r
	cr.circ = circ
	var best *judged
	for _, j := range all {
		if j.ev == nil || len(j.with) > 0 {
			continue
		}
		k := cr.judge(j.have, covers, j.typed)
		if !k.fit || best != nil && !k.better(best) {
			continue
		}
		k.ev, k.expr, k.own = j.ev, j.expr, j.own
		best = k
	}
	if best == nil {
		return nil, ""
	}
	var aside []string
	for _, q := range r.qterms {
		if circ[q.term] && !covers(best.have, q.term) && !best.dropped[q.term] {
			aside = append(aside, fmt.Sprintf("%q", wordFor(an, question, q.term)))
		}
	}
	return best, fmt.Sprintf(" (leaving aside %s: the circumstances the question gives, which it need not retell)", strings.Join(aside, ", "))
}
