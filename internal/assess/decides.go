package assess

import "regexp"

// A reading of a yes/no question's evidence (branch a29-det, round 29;
// Builtin.Decides, "+decides", off in every named model). Round 28 found
// that an expression the typed finders take for a yes/no decision, on a
// page about something else, lets the page pass the typed check: a modal or an instruction of
// another action ("Business customers can ask for a VAT invoice", "Add
// your VAT number at checkout" for "can I send it back for a refund").
// Decides: a modal ("can", "may", "must", "should", "shall", "need") or an
// instruction decides a yes/no question only when its sentence holds a
// known content word of the clause that asks (or a substitute of one), one
// of that clause's verbs or frame words in a regular form, or a code the
// question names — the test PeriodOf applies to a period (about.go), on
// the sentence rather than the clause. A polarity word ("not", "never",
// "free", "fine", "only") is taken as before: a page answers a yes/no
// question in its own words, and a clause test on them refused 24 more
// answerable design questions than it gained ("A photo of the receipt is
// fine" beside the list of what counts as proof; docs/log/round-29-a29-det.md).

// decidesAsked reports whether expr, an expression deciding a yes/no
// question found in sentence, is said of what the clause that asks asks
// (Builtin.Decides): a polarity word always is; a modal or an
// instruction only when its sentence holds a known content word of the
// clause that asks, one of its verbs or frame words, or a code the
// question names.
func (a *about) decidesAsked(sentence, expr string) bool {
	if !modalOrInstruction(expr) {
		return true
	}
	return a.holds(sentence) || a.holdsVerb(sentence) || a.namesCode(sentence)
}

// modalWords are the modals the yes/no finder takes, as a regexp
// alternation.
const modalWords = "can|may|must|should|shall|need|needs"

// reModalWord is a modal the yes/no finder takes.
var reModalWord = regexp.MustCompile(`(?i)^(?:` + modalWords + `)$`)
