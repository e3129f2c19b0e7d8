package assess

import (
	"maps"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// V52Model names the builtin assessor without Builtin.Measured:
// builtin:coverage-v52, kept selectable.
const V52Model = "builtin:coverage-v52"

// moneyMeasures are the words that, in a question for an amount of money,
// only name the amount or the act of paying it ("what will Hollin pay us",
// "what is the call-out payment we receive", "is there a minimum spend"):
// a page states the amount ("£20 per home visit"), seldom the verb.
var moneyMeasures = setOf("pay", "pays", "paid", "paying", "payment", "payments", "charge", "charges", "charged",
	"charging", "cost", "costs", "costing", "price", "prices", "priced", "fee", "fees", "rate", "rates", "spend",
	"spends", "spent", "spending", "bill", "billed", "billing", "earn", "earns", "earned", "receive", "receives",
	"received", "owe", "owes")

// moneyNouns name an amount of money as a thing one may be asked about
// ("is there a charge", "is there a minimum spend", "the call-out payment").
var moneyNouns = setOf("charge", "charges", "fee", "fees", "cost", "costs", "price", "prices", "payment", "payments",
	"spend", "rate", "rates")

// extremes and hedges that may stand with a money noun in a thing asked
// about ("a minimum spend", "a charge just to look at it") and say
// nothing of what it is paid for.
var moneyThingWords = setOf("minimum", "maximum", "min", "max", "extra", "additional", "just", "any", "a", "an", "some")

// capacityMeasures ask how much a thing holds ("how much can the X200 jug
// hold", "how much will the jug take"): a measure of volume answers.
var capacityMeasures = setOf("hold", "holds", "take", "takes", "fit", "fits", "contain", "contains")

func setOf(ws ...string) map[string]bool {
	out := map[string]bool{}
	for _, w := range ws {
		out[w] = true
	}
	return out
}

// measuring is what Builtin.Measured reads of a question: the terms of
// the words that only name the kind of value asked or the act of
// measuring it, and how a sentence states such a value.
type measuring struct {
	question string
	asked    answertype.Question
	terms    map[string]bool
	find     func(sentence string) []string
	// credited is set when measured credited some chunk: only then is a
	// money thing no document names ("a minimum spend") not absent.
	credited bool
}

// measuredClassify (Builtin.Measured) reads two kinds of question as
// asking for an amount of money that Classify and Valued read otherwise:
// a yes/no question asking whether there is a money noun's thing ("is
// there a minimum spend to get free delivery", "is there a charge just to
// have someone look at it") or whether one pays or is charged anything
// ("do you charge anything just to look at it", "will I have to pay
// anything"); and a statement-shaped what-question whose noun is a
// payment ("what is the call-out payment we receive for a home visit").
// An amount of money then answers them, and a page stating none does not.
func measuredClassify(question string, q answertype.Question) answertype.Question {
	ws := fieldsLower(answertype.Asking(question))
	switch q.Type {
	case answertype.YesNo:
		for i, w := range ws {
			if (w == "is" || w == "are") && i+1 < len(ws) && ws[i+1] == "there" {
				for _, t := range ws[i+2:] {
					if moneyNouns[t] {
						return answertype.Question{Type: answertype.Money, Frame: q.Frame}
					}
					if !moneyThingWords[t] {
						break
					}
				}
			}
			if (moneyMeasures[w]) && i+1 < len(ws) && (ws[i+1] == "anything" || ws[i+1] == "extra") {
				return answertype.Question{Type: answertype.Money, Frame: q.Frame}
			}
		}
	case answertype.Description:
		if len(ws) > 0 && (ws[0] == "what" || ws[0] == "which" || ws[0] == "what's") &&
			slices.ContainsFunc(ws, func(w string) bool { return w == "payment" || w == "payments" }) {
			return answertype.Question{Type: answertype.Money, Frame: q.Frame}
		}
	}
	return q
}

// fieldsLower is the question's words, lower case, without their marks.
func fieldsLower(s string) []string {
	var out []string
	for _, f := range strings.Fields(strings.ToLower(s)) {
		if f = strings.Trim(f, ",.;:?!\"'()—-"); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// measureOf is the question's measure words (see measuring): for a
// question asking for an amount of money, its money words; for one asking
// how much a thing holds ("how much (liquid) does the X200 jug hold"), its
// capacity verb and the noun "how much" measures. Nil when there are none.
func (b *Builtin) measureOf(question string, asked answertype.Question) *measuring {
	if !b.Measured {
		return nil
	}
	m := &measuring{question: question, asked: asked, terms: map[string]bool{}}
	ws := fieldsLower(question)
	add := func(w string) {
		if ts := b.an.Terms(w); len(ts) == 1 {
			m.terms[ts[0]] = true
		}
	}
	switch {
	case asked.Type == answertype.Money:
		for _, w := range ws {
			if moneyMeasures[w] || answertype.NamesMoney(w) {
				add(w)
			}
		}
		m.find = func(s string) []string {
			var out []string
			for _, ex := range answertype.Find(answertype.Money, s) {
				if hasDigit(ex) { // not "free": the recall's "free replacement" is no price paid for a jar
					out = append(out, ex)
				}
			}
			return out
		}
	case asked.Type == answertype.Quantity && (asked.Unit == "" || asked.Unit == "volume"):
		much := slices.Index(ws, "much")
		if much < 1 || ws[much-1] != "how" || !slices.ContainsFunc(ws[much:], func(w string) bool { return capacityMeasures[w] }) {
			return nil
		}
		for i, w := range ws[much+1:] {
			if capacityMeasures[w] {
				add(w)
			}
			if i == 0 && !answertype.IsUnit(w) && !isAuxiliary(w) {
				add(w) // "how much liquid": what is measured
			}
		}
		volume := answertype.Question{Type: answertype.Quantity, Unit: "volume"}
		m.find = volume.Find
	default:
		return nil
	}
	if len(m.terms) == 0 {
		return nil
	}
	return m
}

// isAuxiliary reports whether w (lower case) is an auxiliary verb.
func isAuxiliary(w string) bool {
	switch w {
	case "can", "could", "will", "would", "does", "do", "did", "is", "are", "was", "should", "shall", "may", "might", "must":
		return true
	}
	return false
}

// measured (Builtin.Measured, builtin:coverage-v53, round 45's a45-val)
// credits a question's measure words (see measureOf) to each chunk one of
// whose sentences states a value of the kind asked (an amount of money in
// figures; a measure of volume) and holds a known content word
// of the question that is no measure word, or a word of one of its
// entities: the value is what those words ask for, so the page answers
// "how much can the X200 jug hold" ("The X200 blender has ... a 2-litre
// Tritan jar") whether or not it says "hold", and "what is the call-out
// payment we receive for a home visit" ("£20 per home visit") whether or
// not it says "payment" or "receive". A page stating no such value is
// credited nothing: a value question whose value no visible page states
// is still refused, and so is a page that names the noun of a condition
// of being outside that the question states ("out-of-warranty labour")
// without stating that condition: its amount is said of the other case.
func (b *Builtin) measured(m *measuring, r *reading, ev []Evidence, owns []map[string]bool) []map[string]bool {
	if m == nil {
		return owns
	}
	content := map[string]bool{}
	for _, q := range r.qterms {
		if q.known && !m.terms[q.term] {
			content[q.term] = true
		}
	}
	for _, en := range r.ents {
		for _, t := range en.Terms {
			content[t] = true
		}
	}
	outside := b.outsideOf(m.question) // as priced reads them (rates.go)
	for i, e := range ev {
		if b.otherCase(outside, owns[i], e.Text) {
			continue // "£39 per hour of warranty labour" for out-of-warranty labour: said of the other case
		}
		stated := false
		for _, s := range citation.Sentences(e.Text) {
			if !slices.ContainsFunc(m.find(s), func(ex string) bool { return r.valueOf(m.asked, ex) }) {
				continue
			}
			have := b.an.Set(s)
			for t := range content {
				stated = stated || have[t]
			}
			if stated {
				break
			}
		}
		if !stated {
			continue
		}
		m.credited = true
		own := maps.Clone(owns[i])
		for t := range m.terms {
			own[t] = true
		}
		owns[i] = own
	}
	return owns
}

// moneyThing reports whether an absent thing (absentThing's "a minimum
// spend", "a charge just") is only an amount of money: a money noun, with
// nothing but extremes and hedges beside it. Builtin.Measured reads such a
// question as asking for an amount (measuredClassify), which a page
// stating one answers.
func moneyThing(thing string) bool {
	ws := fieldsLower(thing)
	return slices.ContainsFunc(ws, func(w string) bool { return moneyNouns[w] }) &&
		!slices.ContainsFunc(ws, func(w string) bool { return !moneyNouns[w] && !moneyThingWords[w] })
}

// valueOf reports whether expr, a value measuring found, states the value
// asked: not one the question itself names (reading.repeats).
func (r *reading) valueOf(t answertype.Question, expr string) bool {
	return !r.repeats(t, expr)
}
