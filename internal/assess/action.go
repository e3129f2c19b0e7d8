package assess

import (
	"slices"

	"github.com/assay-rag/assay/internal/answertype"
)

// V24Model names the builtin assessor with v25's rule that a decision or
// an instruction be about the asked action off (Builtin.Action):
// builtin:coverage-v24, kept selectable.
const V24Model = "builtin:coverage-v24"

// ActionRule selects variants of the Action rule while it is measured
// (assessdev TestV25): bit 1 asks for the asked verb itself when the
// clause that asks has a known one; bit 2 refuses a decision or an
// instruction when the clause that asks holds no word the sentence could
// hold; bit 4 leaves instructions (procedure questions) out; bit 8
// checks the sentence on the question's topic instead of the one holding
// the expression (which may be its neighbour); bit 16 refuses only when a
// verb of the clause that asks is unknown to the visible documents and
// has no credited relative (no word check); bit 32 reads the question's
// content words in every clause, not only the clause that asks; bit 64,
// with 16, counts a verb with any WordNet relative the documents use as
// known.
var ActionRule = 0

// action (builtin:coverage-v25, Builtin.Action) is what the sentence
// holding a yes/no question's deciding statement, or a procedure
// question's instruction, must be about: the content words of the clause
// that asks (answertype.Asking) that are no entity's and no number — the
// asked verb and its object — and, of those, the verbs.
type action struct {
	words, verbs []string
	// unknownVerb is a verb of the clause that asks that no visible
	// document uses, in any form or through a credited relative.
	unknownVerb bool
	// kin are the relatives the coverage rules credit (Builtin.Kin).
	kin map[string][]synonym
}

// actionOf reads the action a yes/no or procedure question asks about
// from its clause that asks; nil for other questions or with Action off.
func (b *Builtin) actionOf(question string, asked answertype.Question, r *reading, kin, related map[string][]synonym) *action {
	if !b.Action || asked.Type != answertype.YesNo && asked.Type != answertype.Procedure {
		return nil
	}
	if ActionRule&4 != 0 && asked.Type == answertype.Procedure {
		return nil
	}
	inClause := b.an.Set(answertype.Asking(question))
	a := &action{kin: kin}
	for _, q := range r.qterms {
		if !inClause[q.term] && ActionRule&32 == 0 || !topicTerm(r.ents, q.term) || !q.known && len(kin[q.term]) == 0 {
			continue
		}
		a.words = append(a.words, q.term)
		if r.askedVerbs[q.term] {
			a.verbs = append(a.verbs, q.term)
		}
	}
	av, _ := answertype.Verbs(question)
	for _, v := range av {
		ts := b.an.Terms(v)
		if len(ts) != 1 {
			continue
		}
		if i := slices.IndexFunc(r.qterms, func(q weighted) bool { return q.term == ts[0] }); i >= 0 && !r.qterms[i].known && len(kin[ts[0]]) == 0 && (ActionRule&64 == 0 || len(related[ts[0]]) == 0) {
			a.unknownVerb = true
		}
	}
	return a
}

// about reports whether a sentence is about the asked action: it holds
// one of its words as written, in another form (akin), through a
// substitute (covers) or through a relative the coverage rules credit.
func (a *action) about(sentence string, b *Builtin, covers func(map[string]bool, string) bool) bool {
	if a == nil {
		return true
	}
	if ActionRule&16 != 0 {
		return !a.unknownVerb
	}
	ws := a.words
	if ActionRule&1 != 0 && len(a.verbs) > 0 {
		ws = a.verbs
	}
	if len(ws) == 0 {
		return ActionRule&2 == 0
	}
	have := b.an.Set(sentence)
	return slices.ContainsFunc(ws, func(t string) bool {
		return covers(have, t) || holdsAkin(have, t) ||
			slices.ContainsFunc(a.kin[t], func(s synonym) bool { return have[s.Term] })
	})
}
