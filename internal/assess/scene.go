package assess

import (
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
)

// V20Model names the builtin assessor with v21's scene weighting off
// (Builtin.Scene): builtin:coverage-v20, kept selectable.
const V20Model = "builtin:coverage-v20"

// builtin:coverage-v21 (Builtin.Scene) reads which part of a question
// asks. Askers who write as they speak put the request in one clause and
// the circumstances in others ("my kid knocked the blender jug off the
// counter and now it's got a crack right down the side. will the
// guarantee pay for a new one?"); up to v20 the coverage rules weighed
// every content word of the whole question alike, so a page answering the
// request was refused for not retelling the circumstances, and the most
// specific term a chunk had to hold was often a word of the scene.
//
// v21 reads the scene by grammar (answertype.Scene): the sentences with
// no clause that has the form of a question, the clauses before the first
// clause that asks in a sentence that asks, and the words before a
// question word that opens a question inside a clause ("x200 flashing E4
// and wont start what do i do"). In the coverage rules a content word only
// the scene holds then weighs sceneShare of its IDF when some visible
// chunk holds it, and nothing when none does: such a word can tell no
// chunk from another, and it is not what is asked (the focus reading
// leaves it out for the same reason). The most specific term a chunk must
// hold is the heaviest word after that. An entity's words keep their
// weight wherever they stand: the scene's "my X200" or "E4" is what the
// question is about. A question with no scene (every part asks, or none
// does: a statement, a keyword query, a claim) is weighed as before, and
// so is one whose every word would be left with no weight. The focus,
// wide and sentence readings are unchanged.

// sceneShare is the share of its IDF a scene word the visible corpus uses
// keeps (Builtin.Scene).
const sceneShare = 0.5

// sceneWeights weighs the terms of qterms that only the scene of question
// holds (answertype.Scene) as the scene's (see builtin:coverage-v21
// above), the terms of ents left as they are.
func (b *Builtin) sceneWeights(question string, qterms []weighted, ents []Entity) {
	parts := answertype.Scene(question)
	if len(parts) == 0 {
		return
	}
	rest := question
	scene := map[string]bool{}
	for _, p := range parts {
		rest = strings.Replace(rest, p, " ", 1)
		for t := range b.an.Set(p) {
			scene[t] = true
		}
	}
	asked := b.an.Set(rest) // a word the parts that ask hold too is asked
	weights := make([]float64, len(qterms))
	total := 0.0
	for i, q := range qterms {
		weights[i] = q.weight
		switch {
		case !scene[q.term] || asked[q.term] || entityTerm(ents, q.term):
		case q.known:
			weights[i] *= sceneShare
		default:
			weights[i] = 0
		}
		total += weights[i]
	}
	if total == 0 {
		return
	}
	for i := range qterms {
		qterms[i].weight = weights[i]
	}
}
