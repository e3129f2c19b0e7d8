package answertype

import (
	"slices"
	"strings"
)

// Valued is Classify, and reads a question Classify leaves a statement
// (Description) as asking for a value when its words say which:
//
//   - "how" and the word that asks for a value inside a clause rather than
//     opening it ("just how fast do the blades spin", "if I use it every
//     morning how often should ...", "how long's the turnaround"): the
//     type that pair asks for;
//   - a clause opened by "what" or "which" (wherever it stands: "our deal
//     with hollin - what date does it expire?") whose words name what the
//     value measures: money ("what do we bill", "what's Hollin paying us"),
//     a date ("which booking dates", "what's the end date"), a period
//     ("what's the deadline", "the cover period"), a measure by its
//     dimension or unit ("what mains voltage", "what size jug", "what's
//     the motor rated at, in watts"), or a comparative adjective of a
//     measure ("which is dearer", "which has the stronger motor", "which
//     spins faster"); "what is it" after a scene reads the scene's words
//     ("the unit cost we pay per jar - what is it?");
//   - a request with no question word, marked by a question mark or
//     "please" ("Cost price on the HEPA filter, please?", "top rpm on the
//     x300 pro?", "K50: 1.5 or 1.7 litres?"), whose words name money or a
//     unit. A claim to check, with no mark, stays a statement.
//
// As in Classify, a unit or a dimension's noun ("in watts", "what mains
// voltage") or a comparative ("dearer") is frame, the answer saying it its
// own way; a noun naming money, a date or a period ("the cover period",
// "what date") stays content, as Classify's "what date" and "what price"
// do. A request with no question word that names a value of the kind it
// would ask for (see Question.Find: "K50: 1.5 or 1.7 litres?") asks which
// holds and stays as Classify reads it. Every
// other question reads as Classify reads it, and so does a question that
// asks a second thing after "and" (see twoPart).
//
// A question written with typographic marks reads as the same question
// written plainly (see plainMarks: "what’s", "“top rpm on the x300
// pro?”", a full-width question mark).
func Valued(question string) Question {
	question = plainMarks(question)
	q := Classify(question)
	if q.Type != Description || twoPart(question) {
		return q
	}
	v, ok := valued(question)
	if !ok {
		return q
	}
	for _, w := range q.Frame {
		if !slices.Contains(v.Frame, w) {
			v.Frame = append(v.Frame, w)
		}
	}
	return v
}

// plainMarks writes a typographic apostrophe (’ or ‘) as the plain one,
// which the word lists spell ("what’s", "long’s", "who’s"), and a
// full-width question mark as "?".
var plainMarks = strings.NewReplacer("’", "'", "‘", "'", "？", "?").Replace

// closingMarks may follow a question's final question mark: quotes and
// brackets that close around it ("“top rpm on the x300 pro?”").
const closingMarks = "\"')]}”»"

// twoPart reports whether a question asks a second thing after "and"
// ("what's the top speed in rpm and what model number ...", "remind me
// of our labour rate, and until what date ..."): its parts may expect
// different kinds of answer, so Valued reads it as Classify does. "and
// by how much" asks the size of the same value; "and how much" or "and
// how many" is let through too, though it mostly asks a second thing
// ("which part do I fit and how much labour time is allowed"): typed by
// that part such questions were answered, read as Classify reads them one
// was refused (fresh14 x67; see the round-25 rv25 log).
func twoPart(question string) bool {
	ws := words(question)
	for i, w := range ws {
		if w != "and" {
			continue
		}
		j := i + 1
		for j < len(ws) && questionPrepositions[ws[j]] {
			j++
		}
		if j < len(ws) {
			w, _ := strings.CutSuffix(ws[j], "'s")
			if whWords[w] && !(w == "how" && j+1 < len(ws) && (ws[j+1] == "much" || ws[j+1] == "many")) {
				return true
			}
		}
	}
	return false
}

// valueAfterHow are the words after "how" that ask for a value.
var valueAfterHow = set("often", "frequently", "regularly", "fast", "quickly", "quick", "slow", "long", "soon",
	"old", "many", "much")

// valuedMoney are the words beyond moneyWords that name money in a
// what-question's noun phrase ("the bill", "what's Hollin paying us",
// "what do I have to spend").
var valuedMoney = set("paying", "bill", "billed", "spend", "charged")

// dateNouns and periodNouns name a date or a period asked for by "what"
// or "which" anywhere in its noun phrase ("which booking dates", "what's
// the end date", "what's the deadline", "the cover period").
var (
	dateNouns   = set("date", "dates")
	periodNouns = set("deadline", "period", "length", "turnaround", "lifespan", "duration")
)

// sizeNouns name a measure's dimension ("what size jug": any unit of
// size; "what mains voltage": volts), beyond dimensionNouns.
var sizeNouns = map[string]string{"size": "", "volume": "volume", "power": "power", "rating": ""}

// comparativeTypes are the comparative adjectives of money, a speed or a
// measure of one dimension and the type each asks for ("which is dearer":
// two amounts); comparativeUnits the dimension of a measure's. Those that
// name no one dimension ("stronger", "bigger": a motor's power or its
// speed) read as Classify reads them: any measure would answer them.
var (
	comparativeTypes = map[string]Type{
		"dearer": Money, "cheaper": Money, "costlier": Money, "pricier": Money,
		"faster": Speed, "quicker": Speed, "slower": Speed,
		"heavier": Quantity, "lighter": Quantity, "louder": Quantity, "quieter": Quantity,
		"hotter": Quantity, "colder": Quantity, "taller": Quantity, "wider": Quantity,
	}
	comparativeUnits = map[string]string{"heavier": "mass", "lighter": "mass", "louder": "loudness", "quieter": "loudness",
		"hotter": "temperature", "colder": "temperature", "taller": "length", "wider": "length"}
)

// timePrepositions before "when" ask for the date a thing falls on
// ("built before when"). ("made before what date" and "up to what date"
// stay as Classify reads them: typed as a date, fresh9 r73 and fresh16 z54
// were refused or answered from another page with a date.)
var timePrepositions = set("before", "after", "since", "until", "till")

// valuedMoneyVerbs name money as the verb of a what-question ("what do we
// bill", "what's Hollin paying us", "what do I have to spend").
var valuedMoneyVerbs = set("pay", "paying", "bill", "billed", "spend", "charge", "charging", "owe")

// npStops end the noun phrase after "what" or "which" ("what size jug
// does ...", "what's hollin's position if ...").
var npStops = set("if", "when", "to", "that", "who", "which", "we", "i", "you", "and", "or")

func valued(question string) (Question, bool) {
	first := words(Asking(question))
	if spans := clauseSpans(Asking(question)); len(spans) > 0 {
		a := Asking(question)
		first = words(a[spans[0][0]:spans[0][1]])
	}
	// In the clause that asks: "how" and a value word, or contracted
	// ("long's"); "before when" past its opening. "by how much" after a
	// comparative asks the size of the difference the comparative names
	// ("which one spins quicker flat out and by how much": a speed; see
	// twoPart): it is read only when nothing below names the value.
	var byHow *Question
	for i := 0; i+1 < len(first); i++ {
		switch w := first[i]; {
		case timePrepositions[w] && first[i+1] == "when":
			return Question{Type: Date}, true
		case w != "how":
			continue
		}
		next, contractedIs := strings.CutSuffix(first[i+1], "'s")
		if !valueAfterHow[next] {
			continue
		}
		rest := append([]string{"how", next}, first[i+2:]...)
		if contractedIs {
			rest = append([]string{"how", next, "is"}, first[i+2:]...)
		}
		text := strings.Join(rest, " ")
		q := united(classify(text), text) // "just how much does it weigh in kilos": a mass, as Classify reads it
		switch {
		case q.Type == Description:
			continue
		case i > 0 && first[i-1] == "by" && (next == "much" || next == "many"):
			if byHow == nil {
				byHow = &q
			}
			continue
		}
		return q, true
	}
	all := words(question)
	if n := len(all); n > 1 && timePrepositions[all[n-2]] && all[n-1] == "when" {
		return Question{Type: Date}, true // "..., ones built before when?"
	}
	spans := clauseSpans(question)
	for _, sp := range spans {
		ws := contracted(opening(words(question[sp[0]:sp[1]])))
		if len(ws) < 2 || ws[0] != "what" && ws[0] != "which" {
			continue
		}
		if n := len(ws); n > 1 && timePrepositions[ws[n-2]] && ws[n-1] == "when" {
			return Question{Type: Date}, true
		}
		if ws[1] == "date" {
			// "what date": Classify's own reading where the clause
			// opens the question; past a scene ("our deal with hollin -
			// what date does it expire?", fresh7 n71) typed as a date it
			// took another page with a date. Left as Classify reads it.
			continue
		}
		np := ws[1:]
		for len(np) > 0 && (beForms[np[0]] || np[0] == "the" || np[0] == "a" || np[0] == "an") {
			np = np[1:]
		}
		if len(np) == 1 && (np[0] == "it" || np[0] == "that" || np[0] == "this" || np[0] == "they") {
			// "what is it" reads the scene before it for money ("the
			// unit cost we pay per jar - what is it?"); a measure the
			// scene names describes the thing asked about ("shows E7 on
			// the temperature display - what is it?").
			if scene := words(question[:sp[0]]); namesMoney(scene, scene) {
				return Question{Type: Money}, true
			}
			continue
		}
		for i, w := range np {
			if auxiliaries[w] || questionPrepositions[w] || npStops[w] {
				np = np[:i]
				break
			}
		}
		// A noun phrase has at most three words here ("the standard
		// guarantee length"); past them a verb may have begun ("what
		// slip shows the date").
		np = np[:min(3, len(np))]
		if q, ok := named(words(question[sp[0]:]), np); ok {
			return q, true
		}
	}
	// A request with no question word and no verb of a question, marked
	// as one.
	trimmed := strings.TrimRight(question, " \t\n\r"+closingMarks)
	if strings.HasSuffix(trimmed, "?") || slices.Contains(all, "please") {
		if !slices.ContainsFunc(all, func(w string) bool {
			w, _ = strings.CutSuffix(w, "'s")
			return whWords[w] || auxiliaries[w]
		}) {
			// A request that names values of the kind it asks for asks
			// which of them holds ("K50: 1.5 or 1.7 litres?"): an answer
			// repeating one is no answer of that kind.
			if v, ok := named(all, all); ok && len(v.Find(question)) == 0 {
				return v, true
			}
		}
	}
	if byHow != nil {
		return *byHow, true
	}
	return Question{}, false
}

// named reads the kind of value a clause names (see Valued): money by a
// noun of its noun phrase np or a verb anywhere in clause; a date, a
// period, a dimension or a unit by a noun of np; a unit named after "in"
// ("rated at, in watts") or a comparative adjective of a measure anywhere
// in clause (from the clause that asks to the question's end).
func named(clause, np []string) (Question, bool) {
	if namesMoney(clause, np) {
		return Question{Type: Money}, true
	}
	for _, w := range np {
		switch {
		case dateNouns[w]:
			return Question{Type: Date}, true
		case periodNouns[w]:
			return Question{Type: Period}, true
		}
		if dim, ok := dimensionNouns[w]; ok {
			return Question{Type: Quantity, Unit: dim, Frame: []string{w}}, true
		}
		if dim, ok := sizeNouns[w]; ok {
			return Question{Type: Quantity, Unit: dim, Frame: []string{w}}, true
		}
	}
	for i, w := range clause {
		if dim, ok := unitWords[w]; ok && (i > 0 && clause[i-1] == "in" || slices.Contains(np, w)) {
			return Question{Type: Quantity, Unit: dim, Frame: []string{w}}, true
		}
	}
	for _, w := range clause {
		if t, ok := comparativeTypes[w]; ok {
			return Question{Type: t, Unit: comparativeUnits[w], Frame: []string{w}}, true
		}
	}
	return Question{}, false
}

// namesMoney reports whether a clause names money (see named): by a noun
// of its noun phrase np or a verb anywhere in clause.
func namesMoney(clause, np []string) bool {
	return slices.ContainsFunc(np, func(w string) bool { return moneyWords[w] || valuedMoney[w] }) ||
		slices.ContainsFunc(clause, func(w string) bool { return valuedMoneyVerbs[w] })
}
