package assess

import (
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
)

// V57Model names the builtin assessor without Builtin.Timed and
// Builtin.Every: builtin:coverage-v57, kept selectable.
const V57Model = "builtin:coverage-v57"

// arrivalVerbs say only that a thing reaches the asker or a task comes to
// its end ("when should it turn up", "how soon will it arrive", "when will
// it be done", "when will my blender come back"): in a question asking
// when or how soon, they frame the asking of a time, as "take" and "last"
// frame "how long". A page states the time ("Standard delivery takes 3 to
// 5 working days", "Deletion requests are completed within 30 days"),
// seldom the verb the asker chose.
var arrivalVerbs = setOf("arrive", "arrives", "arrived", "arriving", "turn", "turns", "come", "comes", "coming",
	"get", "gets", "reach", "reaches", "land", "lands", "show", "shows", "done", "finished", "ready", "completed",
	"complete", "processed", "expect", "expected", "happen", "happens")

// particleVerbs say a thing arrives only with "up" after them
// (timedClassify's particle).
var particleVerbs = setOf("turn", "turns", "show", "shows")

// futureModals mark a question about a time still to come.
var futureModals = setOf("will", "should", "would", "shall", "'ll", "can", "could", "might", "may")

// dateNouns ask for a point in the calendar by name ("which booking
// dates", "from what date"): such a question is not read as asking for a
// period.
var dateNouns = setOf("date", "dates", "day", "days", "month", "months", "year", "years", "weekday", "time", "times")

// extremeTimes ask for the bound of a time to come ("what's the latest it
// will be done by", "what's the soonest it can arrive").
var extremeTimes = setOf("latest", "soonest", "earliest")

// timedClassify (Builtin.Timed, builtin:coverage-v58, round 46's a46-val)
// reads a question asking when something still to come will happen ("when
// should it turn up", "what's the latest it will be done by", "how soon
// will it arrive") as asking for a period from now, with its arrival or
// completion verb and its extreme ("latest") as frame: the documents
// answer it with a length of time ("within 30 days", "3 to 5 working
// days") or a date, and the question's own verb is not what they state.
// A question naming no arrival or completion verb, or asking for a date
// by name ("which booking dates", "from what date"), and other questions
// are returned unchanged.
//
// With particle (Builtin.Review's reviewParticle), "turn" and "show" are
// arrival verbs only before "up" ("when should it turn up"): "when will
// the X300 Pro show E4" asks for a condition.
//
// With extreme (reviewExtreme), a question asking no other type that holds
// an extreme, a future modal and an arrival verb anywhere in the clause
// that asks is read so too ("by when at the latest will it be ready?").
func timedClassify(question string, q answertype.Question, particle, extreme bool) answertype.Question {
	ws := fieldsLower(answertype.Asking(question))
	if len(ws) == 0 {
		return q
	}
	if particle {
		ws = slices.Clone(ws)
		for i, w := range ws {
			if particleVerbs[w] && (i+1 == len(ws) || ws[i+1] != "up") {
				ws[i] = "" // no arrival verb: "show E4"
			}
		}
	}
	future := slices.ContainsFunc(ws, func(w string) bool { return futureModals[w] || w == "it'll" })
	arrives := slices.ContainsFunc(ws, func(w string) bool { return arrivalVerbs[w] || extremeTimes[w] })
	dated := slices.ContainsFunc(ws, func(w string) bool { return dateNouns[w] })
	switch {
	case !arrives:
		return q
	case q.Type == answertype.Date && future && !dated:
	case q.Type == answertype.Period:
	case q.Type == answertype.Description && future && !dated && (ws[0] == "what's" || ws[0] == "what") &&
		slices.ContainsFunc(ws[:min(len(ws), 4)], func(w string) bool { return extremeTimes[w] }):
	case extreme && q.Type == answertype.Description && future && !dated &&
		slices.ContainsFunc(ws, func(w string) bool { return extremeTimes[w] }) && slices.ContainsFunc(ws, func(w string) bool { return arrivalVerbs[w] }):
		// review.go: "by when at the latest will it be ready?"
	default:
		return q
	}
	frame := slices.Clone(q.Frame)
	for _, w := range ws {
		if (arrivalVerbs[w] || extremeTimes[w]) && !slices.Contains(frame, w) {
			frame = append(frame, w)
		}
	}
	if q.Type == answertype.Period && len(frame) == len(q.Frame) {
		return q
	}
	return answertype.Question{Type: answertype.Period, Frame: frame}
}

// classKey (Builtin.Every) reports whether j, a chunk naming no product
// code that holds its most specific term only as the class of a product
// (General's namedKey: "kettle" on a page about every appliance), holds
// the next most specific known term as written: a page stating the value asked (j is
// typed) of the question's other words answers the asker's appliance as
// it answers every appliance ("Out-of-warranty repairs carry a £25
// inspection fee" for "do you charge anything just to look at my kettle").
func (j *judged) classKey(r *reading, covers func(map[string]bool, string) bool) bool {
	if !j.have[plainKey] {
		return false // a page about one product (the K50's app pairing) says its values of that product
	}
	next := -1
	for i, q := range r.qterms {
		if i == j.key || !q.known || j.dropped[q.term] || r.circ[q.term] {
			continue
		}
		if next < 0 || q.weight > r.qterms[next].weight {
			next = i
		}
	}
	return next >= 0 && covers(j.have, r.qterms[next].term) && !j.have[namedKey(r.qterms[next].term)]
}

// plainKey marks in a chunk's terms (Builtin.Every) a chunk whose title
// and text name no product code.
var plainKey = runSeparator + "plain"

// writesCode reports whether text writes a word with a letter and a digit,
// as every model code has (answertype.IsCode).
func writesCode(text string) bool {
	for _, f := range strings.Fields(text) {
		if answertype.IsCode(strings.Trim(f, ",.;:?!\"'()")) {
			return true
		}
	}
	return false
}

// ownValue (Builtin.Every) reports whether a retrieved chunk naming a
// product code holds the question's most specific term (as written, or as
// the class of the product it names) and a value of the kind asked: the
// asker's appliance has a page of its own that states the value ("Descale
// it once a month" on the K50's page), and a page about every appliance
// (the hard-water page's "more often") does not answer for it.
func (b *Builtin) ownValue(r *reading, asked answertype.Question, ev []Evidence, owns []map[string]bool, names map[string]map[string]bool, covers func(map[string]bool, string) bool) bool {
	if !r.every || r.key < 0 {
		return false
	}
	for i := range ev {
		e := &ev[i]
		if !writesCode(e.Title+" "+e.Text) || !covers(withNames(owns[i], names), r.qterms[r.key].term) {
			continue
		}
		if _, typed := b.answerIn(asked, e, r, covers); typed {
			return true
		}
	}
	return false
}
