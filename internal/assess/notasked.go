package assess

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// V29Model names the builtin assessor with v30's readings of this file off
// (Builtin.Elsewhere, StreetAddress): builtin:coverage-v29, kept
// selectable.
const V29Model = "builtin:coverage-v29"

// builtin:coverage-v30's readings of an expression said of something the
// question does not ask about (branch a28-noans; each its own Builtin
// switch). Round 28 read the no-answer questions of the design sets the
// builtin answered: each was accepted on an expression of the expected
// type that the page states of another thing. Two readings, none naming a
// corpus word:
//
//   - Elsewhere: PeriodOf keeps a period said of something else when a
//     sentence elsewhere in the evidence states a period of what is asked
//     (the generator answers from it). Such a sentence must hold a
//     content word of the clause that asks that is no background word
//     (when the clause has one: if every content word is a background
//     word, every one of them counts; a background word is one in
//     more than backgroundShare of the visible chunks: the
//     company's own name, lower-cased, which Entities cannot read as a
//     name), not only one of that clause's verbs or frame words: neither
//     "Every Hollin appliance has a 2-year warranty" nor "Repairs booked
//     between 1 and 16 October may take 2 extra working days" states how
//     long "hollin" takes to pay a labour claim. The other sentences of the
//     chunk that holds the period keep v29's test (a kind read from a word
//     no page uses hides the sentence that answers: about.go);
//   - StreetAddress: a question asking for a street, postal or home address
//     (or a postcode) is answered only by a place holding a number: a town
//     named ("moving from Cleckheaton") is no street address.
type notAsked struct {
	address bool // the question asks for a street or postal address (Builtin.StreetAddress)
}

// reStreetAddress is a question asking for an address a building has.
var reStreetAddress = regexp.MustCompile(`(?i)\b(?:street|postal|post|home|full|physical) address|\bpost ?codes?\b|\bzip ?codes?\b`)

// notAskedOf reads the question for StreetAddress; nil when it is off.
func (b *Builtin) notAskedOf(question string) *notAsked {
	if !b.StreetAddress {
		return nil
	}
	return &notAsked{address: reStreetAddress.MatchString(question)}
}

// offNotAsked says, in the asker's terms, why expr, an expression of the
// type t, is not what the question asks (see notAsked); "" when it is.
func (r *reading) offNotAsked(t answertype.Question, expr string) string {
	n := r.notAsked
	if n == nil {
		return ""
	}
	if t.Type == answertype.Place && n.address && !strings.ContainsFunc(expr, unicode.IsDigit) {
		return "a place, and the question asks for a street address"
	}
	return ""
}

// dropBackground keeps in a.own (Builtin.Elsewhere) the terms of a that are
// in no more than backgroundShare of the visible chunks.
func (b *Builtin) dropBackground(a *about, vocab Vocabulary) {
	if a == nil || !b.Elsewhere {
		return
	}
	a.own = slices.DeleteFunc(slices.Clone(a.terms), func(t string) bool { return background([]string{t}, vocab) })
	a.strict = true
}

// statesPeriodElsewhere is statesPeriod for a chunk of the evidence read
// for PeriodOf's allowance; with Builtin.Elsewhere (a.strict) it reads the
// terms less the background words (a.own, when some are left), and a
// verb or frame word alone does not make a period one of what is asked.
func (a *about) statesPeriodElsewhere(t answertype.Question, text string) bool {
	return a.statesElsewhere(t, text, nil)
}

// statesElsewhere is statesPeriodElsewhere for the expressions of t, each
// counted only when said(sentence, expr) holds too (said nil: every one):
// PeriodOf's evidence allowance, and AmountOf's (qualified.statesAmount).
func (a *about) statesElsewhere(t answertype.Question, text string, said func(sentence, expr string) bool) bool {
	own := a
	if a.strict && len(a.own) > 0 {
		c := *a
		c.terms = a.own
		own = &c
	}
	for _, s := range citation.Sentences(text) {
		for _, ex := range t.Find(s) {
			if (said == nil || said(s, ex)) && own.periodOfAsked(s, ex) && !(a.strict && own.onlyVerb(s, ex)) {
				return true
			}
		}
	}
	return false
}

// onlyVerb reports whether expr, a period in sentence, is of what the
// clause that asks asks only by a verb or frame word of that clause: the
// clause that asks has content terms, the period's clause holds none of
// them, and its sentence names no code the question names.
func (a *about) onlyVerb(sentence, expr string) bool {
	return len(a.terms) > 0 && !a.holds(clauseOf(sentence, expr)) && !a.namesCode(sentence)
}
