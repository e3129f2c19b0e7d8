// Package answertype reads what kind of answer a question expects (a count,
// a period, a frequency, a speed, an amount of money, a yes/no decision, a
// procedure, a place, a name, ...), which of its words only frame that
// expectation ("how often", "how fast", "can ... go in"), and finds
// expressions of that kind in text ("once a year", "22,000 RPM", "£3.95").
//
// The classes follow Li and Roth's question taxonomy ("Learning Question
// Classifiers", COLING 2002), coarsened to what a support corpus answers
// and read from the question's opening words by rule rather than learned.
// The builtin assessor asks whether a passage holds an expression of the
// expected type near the question's content words; the builtin extractive
// generator prefers the sentences that hold one.
package answertype

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Type is the kind of answer a question expects.
type Type string

const (
	// Description is any statement: what something is or means, why, or a
	// question whose form says nothing about its answer. Nothing is checked.
	Description Type = ""
	Count       Type = "count"     // how many (things)
	Period      Type = "period"    // how long, how many days/years
	Frequency   Type = "frequency" // how often
	Speed       Type = "speed"     // how fast
	Quantity    Type = "quantity"  // how big, heavy, powerful; a measure with a unit
	Money       Type = "money"     // how much does it cost, what is the price or fee
	Date        Type = "date"      // when, what date
	Condition   Type = "condition" // when should I (act): a time or the condition to act on
	YesNo       Type = "yes/no"    // can I, is it, does it, do I have to
	Procedure   Type = "procedure" // how do I, how can I, what should I do
	Place       Type = "place"     // where
	Name        Type = "name"      // who, what is it called
)

// Describe names the type in the words a reason shows the asker.
func (t Type) Describe() string {
	switch t {
	case Count:
		return "a count"
	case Period:
		return "a period of time"
	case Frequency:
		return "a frequency"
	case Speed:
		return "a speed or time"
	case Quantity:
		return "a measure with a unit"
	case Money:
		return "an amount of money"
	case Date:
		return "a date or time"
	case Condition:
		return "a time or condition"
	case YesNo:
		return "a yes/no statement"
	case Procedure:
		return "an instruction"
	case Place:
		return "a place"
	case Name:
		return "a name"
	case Material:
		return "a material or substance"
	}
	return "a statement"
}

// Question is a question as classified: its expected type and the words
// that only frame it.
type Question struct {
	Type Type
	// Frame are the question's words (lower case, as typed) that say what
	// kind of answer is wanted rather than what it is about: "often" in
	// "how often", "fast" in "how fast", "go" in "can it go in", "take" in
	// "how long does it take", and the asker's own pronouns ("us", "our").
	// They are not content to cover.
	Frame []string
	// Unit is the dimension a quantity question names by its unit
	// ("power" for "how many watts"); its answer is a measure in a unit
	// of that dimension, however the documents write it ("1,500 W").
	// Empty: any unit.
	Unit string
	// Web is true when a place question asks for a web or mail address by
	// name ("which website", "what email"): only an address answers it,
	// not a place in words ("in the workshop").
	Web bool
}

// Describe names what the question expects in the words a reason shows
// the asker: its type, or the dimension of its unit.
func (q Question) Describe() string {
	if q.Type == Quantity && q.Unit != "" {
		return "a measure of " + q.Unit
	}
	return q.Type.Describe()
}

// Find lists the expressions of the question's expected type in a
// sentence (see Find), only those in a unit of its dimension when it
// names one, and only web or mail addresses when it asks for one (Web).
func (q Question) Find(sentence string) []string {
	if q.Type == Place && q.Web {
		var out []string
		for _, m := range reURL.FindAllStringSubmatch(sentence, -1) {
			out = append(out, m[1])
		}
		return out
	}
	if q.Type == Material && q.Unit == Instrument {
		return append(FindMaterial(sentence), withPhrases(sentence)...)
	}
	if q.Type != Quantity || q.Unit == "" {
		return Find(q.Type, sentence)
	}
	return measures(dimensions[q.Unit], sentence)
}

// measures lists the measures re (a measure's pattern, see measure) finds
// in sentence. A number with a bare "C" or "F" after it ("80C") is a
// temperature only where a temperature is set or stated (see
// temperatureWords): "use water at 80C", "heat it to 80C", but not "room
// 3F" or "gate 2C".
func measures(re *regexp.Regexp, sentence string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatchIndex(sentence, -1) {
		s := sentence[m[2]:m[3]]
		if bareDegreeAt(s) && !temperatureBefore(sentence[:m[2]]) {
			continue
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

// bareDegreeAt reports whether a measure ends in a bare "C" or "F" right
// after its number (bareDegree): no other unit is a digit and "C" or "F".
func bareDegreeAt(s string) bool {
	n := len(s)
	return n >= 2 && (s[n-1] == 'C' || s[n-1] == 'F') && s[n-2] >= '0' && s[n-2] <= '9'
}

// temperatureWords set or state a temperature in the number after them
// ("at 80C", "heat to 80C", "a temperature of 80C", "above 40C", "between
// 5C and 25C"); temperatureFillers may stand between ("at least 80C", "at
// about 80C"), and temperatureJoins carry a temperature on to the next
// number ("between 5C and 25C", "at 60C or 70C"; not "rooms 3F and 4F").
var (
	temperatureWords = set("at", "to", "heat", "heats", "heated", "heating", "warm", "warms", "warmed", "cool", "cools",
		"cooled", "temperature", "temperatures", "temp", "reach", "reaches", "reached", "above", "below", "exceed",
		"exceeds", "exceeding", "max", "maximum", "min", "minimum", "between", "from")
	temperatureFillers = set("of", "least", "most", "about", "around", "approximately", "roughly", "nearly")
	temperatureJoins   = set("and", "or")
)

// temperatureBefore reports whether the text before a number ends in a
// word that sets or states a temperature (temperatureWords), fillers
// aside, or in a join after a bare temperature that does.
func temperatureBefore(before string) bool {
	ws := words(before)
	for {
		for len(ws) > 1 && temperatureFillers[ws[len(ws)-1]] {
			ws = ws[:len(ws)-1]
		}
		n := len(ws)
		if n >= 2 && temperatureJoins[ws[n-1]] && bareDegreeWord(ws[n-2]) {
			ws = ws[:n-2] // "5C and", "60 and": as "5C" or "60" was
			continue
		}
		return n > 0 && temperatureWords[ws[n-1]]
	}
}

// bareDegreeWord reports whether a word (lower case) is a number, with a
// bare "c" or "f" after it or none ("5c", "60f", "60").
func bareDegreeWord(w string) bool {
	w = strings.TrimRight(w, "cf")
	return strings.Trim(w, "0123456789.,") == "" && strings.ContainsAny(w, "0123456789")
}

// pronouns stand for the asker or the one asked, never for what a question
// is about ("what does Hollin pay us").
var pronouns = set("i", "me", "my", "mine", "we", "us", "our", "ours", "you", "your", "yours")

// comparatives say a question sets things side by side ("which has more
// speeds, the X200 or the X300 Pro", "what did the 2024 terms cover that
// the 2026 terms no longer do"): each may be answered by its own document.
var comparatives = set("more", "less", "fewer", "than", "longer", "anymore", "differ", "differs", "different",
	"difference", "differences", "compare", "compared", "comparison", "versus", "vs", "both", "change", "changed",
	// the comparative forms of the adjectives that ask for a measure or a
	// speed ("which one's faster, the Z10 or the Z20")
	"faster", "quicker", "slower", "bigger", "larger", "smaller", "heavier", "lighter", "stronger", "weaker",
	"taller", "higher", "lower", "wider", "deeper", "hotter", "colder", "warmer", "louder", "quieter",
	"cheaper", "dearer", "costlier", "better", "worse")

// Compares reports whether the question compares: it holds a comparative
// word (see comparatives).
func Compares(question string) bool {
	return slices.ContainsFunc(words(question), func(w string) bool { return comparatives[w] })
}

// jointWords say that a question asks the same of each thing it names
// ("does E4 mean the same on the X200 as on the X300 Pro?"); the builtin
// assessor's joint reading (assess.Builtin.Joint) and the generator's rule
// 2b read them through Joint.
var jointWords = set("same", "similar", "alike", "each", "between", "either")

// Joint reports whether the question asks the same of each thing it names
// ("is it the same fix on both", "does each model ...") without comparing
// them by a comparative (see Compares).
func Joint(question string) bool {
	return slices.ContainsFunc(words(question), func(w string) bool { return jointWords[w] })
}

// placeNouns asked for by "which" or "what" are answered by a web or mail
// address, codeNouns by a code.
var (
	placeNouns = set("website", "websites", "site", "url", "link", "email", "address", "web", "webpage",
		"town", "city", "country", "location", "county", "postcode")
	codeNouns = set("number", "code")
	// webNouns of them ask for a web or mail address only.
	webNouns = set("website", "websites", "site", "url", "link", "email", "web", "webpage")
	// nameNouns ask for a name.
	nameNouns = set("name", "names")
	// personNouns asked for by "which" are answered by a name ("which
	// customer", "which company"); the noun stays content.
	personNouns = set("customer", "customers", "person", "people", "company", "companies", "firm", "engineer",
		"technician", "agent", "manufacturer", "supplier", "retailer", "courier", "brand")
	// procedureNouns ask for an instruction ("what are the steps", "what's
	// the best way to").
	procedureNouns = set("steps", "process", "procedure", "way", "method", "fix", "remedy")
	// speedSuperlatives and measureSuperlatives ask for a speed or a
	// measure ("what's the fastest it spins", "what's the biggest jar").
	speedSuperlatives   = set("fastest", "quickest", "slowest", "faster", "quicker", "slower")
	measureSuperlatives = set("biggest", "largest", "smallest", "heaviest", "lightest", "highest", "longest",
		"widest", "hottest", "loudest", "quietest", "most", "least", "maximum", "minimum", "max", "min",
		"bigger", "larger", "smaller", "heavier", "lighter", "stronger", "taller", "wider", "louder", "quieter")
)

// capacityVerbs measure what a thing takes or weighs ("how much will the
// jug take"); moneyVerbs what one spends or gets ("how much do I spend").
var (
	capacityVerbs = set("hold", "holds", "take", "takes", "fit", "fits", "contain", "contains", "carry", "carries", "weigh", "weighs")
	moneyVerbs    = set("spend", "spent", "get", "earn", "earns", "owe", "owes", "save", "saves", "refund", "refunded")
)

// partitives before "of" only measure out what follows ("a new set of
// blades", "a pair of filters"): frame, not content.
var partitives = set("set", "sets", "pair", "pairs", "pack", "packs", "kind", "kinds", "type", "types", "sort", "sorts", "piece", "pieces")

// determiners open the noun phrase of a partitive.
var determiners = set("a", "an", "the", "one", "another", "this", "that", "each", "every", "any", "some", "what", "which")

// quantified reports whether the words before a partitive end in a
// determiner, or a determiner and one adjective ("a set of", "a new set
// of"); "an immune cell type of" names a kind of cell, not a measure.
func quantified(before []string) bool {
	n := len(before)
	return n > 0 && determiners[before[n-1]] || n > 1 && determiners[before[n-2]]
}

// demonstratives before "one" make it a pronoun ("that one").
var demonstratives = set("that", "this", "which", "each", "other", "another")

// hedges say how sure or how typical the asker means the answer to be,
// not what it is about ("how long does a repair usually take"), and the
// semi-modal "need" only says it is required ("does the kettle need
// descaling", "what do I need to claim").
var hedges = set("usually", "normally", "typically", "generally", "commonly", "roughly", "approximately",
	"actually", "really", "exactly", "ever", "need", "needs", "needed")

// periodVerbs only frame a question about a period: they say that time
// passes, not what passes it ("how long does the kettle take to boil",
// "how long does the battery last", "how long should I leave it", "how
// long do I have to wait").
var periodVerbs = set("take", "takes", "took", "last", "lasts", "lasted", "wait", "waits", "waiting", "leave", "leaves",
	"remain", "remains", "stay", "stays", "spend", "spends")

// Classify reads the expected answer type from the opening words of the
// clause that asks (see Asking); Frame also lists the words of a request
// around an embedded question ("can you tell me"), and the asker's
// pronouns and the hedges (see hedges), wherever in the question they
// are (the hedges only in a question: in a statement, "typically mild" is
// what is claimed).
func Classify(question string) Question {
	text, request := asking(question)
	q := united(classify(text), text)
	if q.Type == Description && strings.HasSuffix(question, text) {
		q = pointing(q, text, question[:len(question)-len(text)])
	}
	asked := asks(text, true)
	all := words(question)
	for i, w := range append(request, all...) {
		// "one" after a demonstrative stands for a thing named before
		// ("and the X300 Pro's motor, how many watts is that one"): a
		// pronoun, not the number.
		j := i - len(request) // the word's index in all
		prop := j > 0 && w == "one" && demonstratives[all[j-1]]
		part := j >= 0 && j+1 < len(all) && partitives[w] && all[j+1] == "of" && quantified(all[:j])
		if i < len(request) || pronouns[w] || prop || part || asked && hedges[w] || q.Type == Period && periodVerbs[w] {
			if !slices.Contains(q.Frame, w) {
				q.Frame = append(q.Frame, w)
			}
		}
	}
	return q
}

// pointing reads a clause that asks only "what is it" ("the repair form
// wants the model number of my Z10 - what is it?") by the noun the scene
// before it names: the pronoun points back to it, so the kind of answer
// is the kind that noun asks for (see askedNoun).
func pointing(q Question, text, scene string) Question {
	ws := contracted(opening(words(text)))
	if len(ws) != 3 || ws[0] != "what" && ws[0] != "which" || !beForms[ws[1]] ||
		ws[2] != "it" && ws[2] != "that" && ws[2] != "this" && ws[2] != "they" {
		return q
	}
	for _, w := range words(scene) {
		if placeNouns[w] || codeNouns[w] || nameNouns[w] {
			got := askedNoun([]string{w})
			got.Frame = append(q.Frame, got.Frame...)
			return got
		}
	}
	return q
}

// united gives a question the dimension of the unit its clause that asks
// names anywhere ("how much does it weigh in kilos", "how loud is it, in
// decibels"), when it asks for a measure in no unit yet; and reads "what
// wattage" or "which voltage" (a unit's noun right after the question
// word, or after "is the") as asking for a measure in that unit. The unit's
// word is frame: the answer says it its own way ("1,500 W"). Of the
// dimension nouns it reads only those that are unit words too ("wattage",
// "voltage": one unit each); "what temperature", "what weight" and "what
// capacity" stay descriptions here, as Classify reads them (the
// extractive generator's v15 reads them with DimensionNoun, and Valued,
// read by builtin:coverage-v26 and builtin:extractive-v27, as measures).
func united(q Question, text string) Question {
	ws := words(text)
	switch {
	case q.Type == Quantity && q.Unit == "":
		for _, w := range ws {
			if dim, ok := unitWords[w]; ok {
				q.Unit = dim
				q.Frame = append(q.Frame, w)
				return q
			}
		}
	case q.Type == Description:
		ws = opening(ws)
		if len(ws) < 2 || ws[0] != "what" && ws[0] != "which" && ws[0] != "what's" {
			return q
		}
		np := ws[1:]
		for len(np) > 0 && (np[0] == "is" || np[0] == "the") {
			np = np[1:]
		}
		if len(np) > 0 {
			if dim, ok := dimensionNouns[np[0]]; ok && unitWords[np[0]] == dim {
				return Question{Type: Quantity, Unit: dim, Frame: append(q.Frame, np[0])}
			}
		}
	}
	return q
}

// auxiliaries open a yes/no question.
var auxiliaries = set("can", "could", "may", "might", "must", "should", "shall", "will", "would",
	"do", "does", "did", "is", "are", "was", "were", "am", "has", "have", "had",
	"can't", "cannot", "won't", "isn't", "aren't", "doesn't", "don't", "didn't", "shouldn't", "wouldn't", "couldn't")

// lightVerbs carry no content in a yes/no question about an action ("can
// the jar go in the dishwasher" asks about the jar and the dishwasher),
// nor do the adjectives that ask for permission or safety.
var lightVerbs = set("go", "goes", "ok", "okay", "allowed", "possible", "able", "safe", "fine", "alright", "permitted")

// subjects follow "how do/can/should" in a question about a procedure.
var subjects = set("i", "we", "you", "one", "they")

// durationNouns in the noun phrase after "how much" or "how many" ask for
// a period ("how many working days", "how much labour time").
var durationNouns = set("second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "night", "nights",
	"week", "weeks", "month", "months", "year", "years", "fortnight", "fortnights", "decade", "decades",
	"time", "while", "longer", "sooner")

// timeFrame are the duration words that name no unit of the answer ("how
// much time" is answered by "35 minutes"): frame, not content. A unit
// ("how many days") stays content: the answer says it.
var timeFrame = set("time", "while", "longer", "sooner")

// IsUnit reports whether word (lower case) names a unit an answer is
// measured in: a unit of time ("days", "hour"; not "time" or "while",
// timeFrame) or of a measure ("watts", "litres"). Every page that
// states a period holds "days": a unit says how an answer is counted,
// not what it is about.
func IsUnit(word string) bool {
	_, measure := unitWords[word]
	return measure || durationNouns[word] && !timeFrame[word]
}

// NamesMoney reports whether word (as typed) is one that asks for an
// amount of money ("cost", "price", "fee", "pay"): in a question for an
// amount it names the kind of answer wanted.
func NamesMoney(word string) bool { return moneyWords[strings.ToLower(word)] }

// moneyWords in a what/how-much question ask for an amount of money.
var moneyWords = set("cost", "costs", "price", "prices", "priced", "fee", "fees", "charge", "charges", "pay", "pays", "paid", "rate", "rates", "cheap", "expensive", "postage")

// adjectiveDimensions are the dimensions some measure adjectives ask for
// ("how heavy": a mass, "how loud": a loudness); those that ask for more
// than one ("big", "high", "strong", "full") name none.
var adjectiveDimensions = map[string]string{"heavy": "mass", "light": "mass", "tall": "length", "wide": "length",
	"deep": "length", "far": "length", "thick": "length", "thin": "length", "hot": "temperature", "cold": "temperature",
	"warm": "temperature", "loud": "loudness", "quiet": "loudness", "powerful": "power"}

// AskedDimension is the dimension of the measure a question asks for by
// its adjective ("how heavy is the X300 Pro": "mass"; see Question.Unit),
// or "" when it asks for no measure that way, names its unit, or its
// adjective may ask for more than one ("how big"). Only the first word
// after "how" in the clause that asks is read, as Classify reads it.
// (Classify leaves Unit empty for these; this is an addition for callers
// that want the stricter reading.)
func AskedDimension(question string) string { return Classify(question).Dimension(question) }

// Dimension is AskedDimension for a question already classified as q
// (q = Classify(question)): the classification is not read again.
func (q Question) Dimension(question string) string {
	if q.Type != Quantity || q.Unit != "" {
		return ""
	}
	ws := words(Asking(question))
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "how" {
			return adjectiveDimensions[ws[i+1]]
		}
	}
	return ""
}

// measureAdjectives after "how" ask for a measure.
var measureAdjectives = set("big", "large", "small", "heavy", "light", "powerful", "strong", "tall", "high", "wide",
	"deep", "far", "hot", "cold", "warm", "loud", "quiet", "bright", "thick", "thin", "full")

// duration reports whether the noun phrase opening ws (up to the first
// auxiliary, "to" or preposition; after "is" or "are" the one that
// follows it: "how much is the delivery time") holds a duration noun, and
// which of its words are frame.
func duration(ws []string) (frame []string, ok bool) {
	if len(ws) > 0 && (ws[0] == "is" || ws[0] == "are" || ws[0] == "was" || ws[0] == "were") {
		ws = ws[1:]
	}
	for _, x := range ws {
		if auxiliaries[x] || x == "to" || questionPrepositions[x] {
			break
		}
		if durationNouns[x] {
			ok = true
			if timeFrame[x] {
				frame = append(frame, x)
			}
		}
	}
	return frame, ok
}

func classify(question string) Question {
	words := contracted(opening(words(question)))
	if len(words) == 0 {
		return Question{}
	}
	w := func(i int) string {
		if i < len(words) {
			return words[i]
		}
		return ""
	}
	hasMoney := slices.ContainsFunc(words, func(s string) bool { return moneyWords[s] })
	lead := w(0)
	switch lead {
	case "how":
		switch next := w(1); {
		case next == "often" || next == "frequently" || next == "regularly":
			return Question{Type: Frequency, Frame: []string{next}}
		case next == "fast" || next == "quickly" || next == "quick" || next == "rapidly" || next == "slow" || next == "slowly":
			return Question{Type: Speed, Frame: []string{next}}
		case next == "long" || next == "soon" || next == "old":
			return Question{Type: Period, Frame: []string{next}}
		case next == "many" || next == "much":
			if frame, ok := duration(words[2:]); ok {
				return Question{Type: Period, Frame: frame}
			}
			if dim, ok := unitWords[w(2)]; ok {
				// "how many watts": the unit names the dimension of the
				// answer, which may write it otherwise ("1,500 W").
				return Question{Type: Quantity, Frame: []string{w(2)}, Unit: dim}
			}
			if next == "many" {
				return Question{Type: Count}
			}
			// "how much" before an auxiliary asks how much of the thing
			// the clause's verb measures: what a container takes or holds
			// is a quantity ("how much will the jug take"), what one
			// spends, gets or owes is money ("how much do I have to spend",
			// "how much do we get for a visit"), as is "how much is it".
			if auxiliaries[w(2)] {
				if slices.ContainsFunc(words, func(s string) bool { return capacityVerbs[s] }) {
					return Question{Type: Quantity}
				}
				if hasMoney || w(2) == "is" || w(2) == "are" || w(2) == "will" ||
					slices.ContainsFunc(words, func(s string) bool { return moneyVerbs[s] }) {
					return Question{Type: Money}
				}
				return Question{Type: Quantity}
			}
			if hasMoney {
				return Question{Type: Money}
			}
			return Question{Type: Quantity}
		case measureAdjectives[next]:
			return Question{Type: Quantity, Frame: []string{next}}
		case next == "to" || auxiliaries[next] && subjects[w(2)]:
			return Question{Type: Procedure}
		case auxiliaries[next]:
			return Question{Type: Procedure} // "how does the kettle switch off"
		}
		return Question{}
	case "where":
		return Question{Type: Place}
	case "when":
		if auxiliaries[w(1)] && subjects[w(2)] {
			// "when should we swap the pump": when to act, answered by
			// a time or by the condition to act on ("if E12 returns").
			return Question{Type: Condition}
		}
		return Question{Type: Date}
	case "who", "whom", "whose":
		return Question{Type: Name}
	case "what", "which":
		// "what should I do", "what do I do", "what can I do", and
		// embedded "what to do", "what I should do"
		if auxiliaries[w(1)] && subjects[w(2)] && w(3) == "do" || w(1) == "to" && w(2) == "do" ||
			subjects[w(1)] && auxiliaries[w(2)] && w(3) == "do" {
			return Question{Type: Procedure}
		}
		switch w(1) {
		case "date", "day", "year", "month", "time":
			return Question{Type: Date}
		case "point", "stage", "moment":
			// "at what point do I get a link": when something happens,
			// a time or the condition it follows.
			return Question{Type: Condition}
		}
		if hasMoney {
			return Question{Type: Money}
		}
		// "which website", "what's the part number": the noun asked
		// for names the kind of answer (a web or mail address, a code),
		// which the documents write as such ("hollin.example/repair",
		// "BLD-X200"): it is frame, not content.
		np := words[1:]
		if len(np) > 0 && (np[0] == "is" || np[0] == "are" || np[0] == "was" || np[0] == "were") {
			np = np[1:]
		}
		if len(np) > 0 && (np[0] == "the" || np[0] == "a" || np[0] == "an") {
			np = np[1:]
		}
		if len(np) > 0 && words[len(words)-1] == "called" {
			// "what is the part called": a name.
			return Question{Type: Name, Frame: []string{"called"}}
		}
		return askedNoun(np[:min(2, len(np))])
	}
	if auxiliaries[w(0)] || w(0) == "whether" {
		var frame []string
		for _, x := range words[1:] {
			if lightVerbs[x] {
				frame = append(frame, x)
			}
		}
		return Question{Type: YesNo, Frame: frame}
	}
	// A statement or a list of keywords ("internal cost price of the X200
	// jar", a claim to check) says nothing of its answer's form.
	return Question{}
}

// askedNoun reads the kind of answer from the noun "what" or "which" asks
// for (the first two words of its noun phrase): a web or mail address or
// a place ("which website", "which town"), a code or a name ("what's the
// part number", "what is the name of", "which customer"), an instruction
// ("what are the steps", "what's the best way"), a speed or a measure by
// a superlative ("what's the fastest it spins"). The noun is frame: the
// answer says it its own way. Description when none does.
func askedNoun(np []string) Question {
	var frame []string
	kind, web := Description, false
	for _, x := range np {
		switch {
		case placeNouns[x] && kind != Name:
			kind, web = Place, web || webNouns[x]
		case (codeNouns[x] || nameNouns[x]) && kind != Place:
			kind = Name
		case personNouns[x] && kind == Description:
			return Question{Type: Name} // the person is content: "which customer" is answered by one
		case procedureNouns[x] && kind == Description:
			return Question{Type: Procedure, Frame: []string{x}}
		case speedSuperlatives[x] && kind == Description:
			return Question{Type: Speed, Frame: []string{x}}
		case measureSuperlatives[x] && kind == Description:
			return Question{Type: Quantity, Frame: []string{x}}
		default:
			continue
		}
		frame = append(frame, x)
	}
	return Question{Type: kind, Frame: frame, Web: web}
}

// contracted expands a question word contracted with "is" that opens ws
// ("what's", "whats", "where's") into the two words.
func contracted(ws []string) []string {
	if len(ws) == 0 {
		return ws
	}
	w, ok := strings.CutSuffix(ws[0], "'s")
	if !ok {
		w, ok = strings.CutSuffix(ws[0], "s")
	}
	if !ok || !whWords[w] || w == "whose" {
		return ws
	}
	return append([]string{w, "is"}, ws[1:]...)
}

// whWords open a question ("how", "what", ...).
var whWords = set("how", "what", "which", "who", "whom", "whose", "where", "when", "why")

// IsQuestionWord reports whether w, lower-case, is a question word: how,
// what, which, who, whom, whose, where, when or why.
func IsQuestionWord(w string) bool { return whWords[w] }

// questionPrepositions may come before a question word ("for how long",
// "within how many days", "up to what weight").
var questionPrepositions = set("for", "in", "within", "by", "until", "till", "after", "before", "at", "from", "to",
	"on", "of", "about", "since", "over", "under", "above", "below", "up", "during", "with")

// conjunctions may open a clause before its question word (", and how
// often ...").
var conjunctions = set("and", "but", "or", "so", "then", "also", "please", "now")

// subjectStarts open a subject: a pronoun or a determiner.
var subjectStarts = set("i", "we", "you", "they", "it", "he", "she", "this", "that", "these", "those", "there",
	"the", "a", "an", "my", "our", "your", "its", "their", "his", "her", "some", "any")

// Asking returns the part of a question its intent is in: from the first
// clause that has the form of a question. Clauses end at a comma, a
// semicolon, a colon, a dash or a sentence's end; a clause asks when it
// opens (after a conjunction, or a preposition: "for how long") with
// "how", with another question word followed by an auxiliary ("what
// should", "where can", "when does"), or with an auxiliary followed by a
// subject ("can I", "is the", "does it"). A statement that sets the scene
// ("the kettle shows a red light: what should I do", "I bought a Z10 last
// year. How long is it guaranteed for?") or a subordinate clause ("if the
// lid cracks, is the repair free", "when I descale it, how much ...") is
// passed over. When the first clause asks, or none does, the question is
// returned whole. A later clause opening with "which", "who" or "whose"
// asks only when it ends with a question mark: after a comma they mostly
// open a relative clause ("..., which is the main outcome").
//
// A question asked of the answerer inside a request ("can you tell me how
// often ...", "I'd like to know where ...", "do you know if ...") asks
// what the embedded question asks: Asking returns it, from its question
// word ("if" read as "whether").
func Asking(question string) string {
	text, _ := asking(question)
	return text
}

// asking is Asking, plus the words of the request around an embedded
// question ("can you tell me"), which only frame it.
func asking(question string) (string, []string) {
	text := question
	if spans := clauseSpans(question); len(spans) > 1 && !asks(question[spans[0][0]:spans[0][1]], true) {
		for _, sp := range spans[1:] {
			if asks(question[sp[0]:sp[1]], false) {
				text = question[sp[0]:]
				break
			}
		}
	}
	return embedded(text)
}

// AskingClauses counts the parts of question that ask (see Asking): its
// clauses, and within a clause each part a conjunction opens ("how many
// watts does it use and how do I clean its filter" asks twice), that have
// the form of a question. A lead-in ("Hi,", "I bought a Z10 last year.")
// or a subordinate clause ("if the lid cracks,") does not ask; a list
// ("the jug and lid") opens no part.
//
// A follow-up ("..., and what if it is from batch B-2291", "what about the
// X300?") asks too: a question word followed by "if" or "about" asks
// about another case of the same question wherever it stands.
func AskingClauses(question string) int {
	n := 0
	for i, sp := range clauseSpans(question) {
		clause := question[sp[0]:sp[1]]
		if asks(clause, i == 0) || followUp(clause) {
			n++
		}
		ws := strings.Fields(clause)
		for j := 1; j < len(ws)-1; j++ {
			if w := words(ws[j]); len(w) == 1 && conjunctions[w[0]] && (asks(strings.Join(ws[j:], " "), false) || followUp(strings.Join(ws[j+1:], " "))) {
				n++
			}
		}
	}
	return n
}

// followUp reports whether clause opens with a question word followed by
// "if" or "about" ("what if ...", "what about ...").
func followUp(clause string) bool {
	ws := contracted(opening(words(clause)))
	return len(ws) > 1 && whWords[ws[0]] && (ws[1] == "if" || ws[1] == "about")
}

// requestWords make up a request to be told something ("can you tell me",
// "I'd like to know", "please explain"); requestVerbs are the verbs one of
// them must have.
var (
	requestWords = set("can", "could", "would", "will", "do", "does", "please", "you", "me", "us", "i", "we", "i'd",
		"we'd", "i'm", "id", "im", "like", "want", "wanted", "need", "to", "am", "was", "just", "kindly", "let",
		"tell", "show", "explain", "know", "say", "wonder", "wondering", "ask", "asking", "remind", "advise")
	requestVerbs = set("tell", "show", "explain", "know", "say", "wonder", "wondering", "ask", "asking", "remind", "advise")
)

// embedded returns the question a request embeds (see Asking) and the
// request's words, or text itself when it embeds none.
func embedded(text string) (string, []string) {
	fields := strings.Fields(text)
	var request []string
	verb := false
	for i, f := range fields {
		w := words(f)
		if len(w) != 1 {
			break
		}
		switch {
		case i > 0 && verb && (whWords[w[0]] || w[0] == "whether"):
			return strings.Join(fields[i:], " "), request
		case i > 0 && verb && w[0] == "if":
			return "whether " + strings.Join(fields[i+1:], " "), request
		case !requestWords[w[0]]:
			return text, nil
		}
		verb = verb || requestVerbs[w[0]]
		request = append(request, w[0])
	}
	return text, nil
}

// opening drops what may come before a clause's question word without
// changing what is asked: conjunctions (", and how often"), a
// preposition ("for how long", "within how many days") and a hedge
// ("roughly how quick").
func opening(ws []string) []string {
	for len(ws) > 1 && (conjunctions[ws[0]] || (questionPrepositions[ws[0]] || hedges[ws[0]]) && whWords[ws[1]]) {
		ws = ws[1:]
	}
	return ws
}

// asks reports whether a clause has the form of a question (see Asking);
// first is true for a question's first clause, where "which", "who" and
// "whose" always ask.
func asks(clause string, first bool) bool {
	ws := contracted(opening(words(clause)))
	if len(ws) == 0 {
		return false
	}
	at := func(i int) string {
		if i < len(ws) {
			return ws[i]
		}
		return ""
	}
	marked := strings.HasSuffix(strings.TrimSpace(clause), "?")
	switch v := ws[0]; {
	case v == "how":
		return true
	case v == "which" || v == "who" || v == "whom" || v == "whose":
		return first || marked
	case whWords[v]:
		return first && v != "when" && v != "where" || auxiliaries[at(1)] || marked && len(ws) < 3
	case auxiliaries[v]:
		// "will Hollin fix it under the guarantee?": a name may follow;
		// the question mark says it asks.
		return subjectStarts[at(1)] || first || marked
	}
	return false
}

// clauseSpans splits text at clause punctuation (, ; : ? ! . and a
// spaced dash), returning each clause's start and end byte offsets. A
// full stop inside a number or a web address ("1.5", "hollin.example")
// does not end a clause.
func clauseSpans(text string) [][2]int {
	var out [][2]int
	start := 0
	flush := func(end, next int) {
		// end < start: a spaced dash right after another ("a - - b")
		// opens with the first one's trailing space; between them is no
		// clause.
		if end > start && strings.TrimSpace(text[start:end]) != "" {
			out = append(out, [2]int{start, end})
		}
		start = next
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == ',' || c == ';' || c == ':' || c == '?' || c == '!' || c == '.':
			if (c == '.' || c == ',' || c == ':') && i+1 < len(text) && text[i+1] != ' ' {
				continue // "1.5", "1,200", "hollin.example", "10:30"
			}
			flush(i+1, i+1)
		case c == ' ' && i+2 < len(text) && (text[i+1] == '-' && text[i+2] == ' '):
			flush(i, i+3)
		case c == ' ' && strings.HasPrefix(text[i+1:], "– ") || c == ' ' && strings.HasPrefix(text[i+1:], "— "):
			flush(i, i+1+len("– "))
		}
	}
	flush(len(text), len(text))
	return out
}

// words splits text into lower-case words, keeping apostrophes and
// hyphens inside them.
func words(text string) []string {
	var out []string
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// dimensionNouns name a measure's dimension rather than a unit: "what
// wattage" asks for a measure in watts and "what temperature" one in
// degrees, while "what is a watt" asks what the unit is.
var dimensionNouns = map[string]string{"wattage": "power", "voltage": "voltage", "temperature": "temperature",
	"temperatures": "temperature", "weight": "mass", "capacity": "volume"}

// DimensionNoun is the dimension of a measure a noun names (lower case)
// after "what" or "which" ("what temperature": "temperature"; see
// dimensionNouns); ok is false when it names none.
func DimensionNoun(word string) (dim string, ok bool) {
	dim, ok = dimensionNouns[word]
	return dim, ok
}

// unitWords are the unit names that, after "how many" or "how much",
// name the dimension of a measure ("how many watts"), and dimensions the
// patterns of a measure in each, with the symbols documents write.
var unitWords = map[string]string{
	"watts": "power", "watt": "power", "wattage": "power", "voltage": "voltage", "kilowatts": "power", "kw": "power",
	"volts": "voltage", "volt": "voltage", "amps": "current", "amperes": "current",
	"litres": "volume", "liters": "volume", "millilitres": "volume", "milliliters": "volume", "ml": "volume", "cups": "volume",
	"kilos": "mass", "kilograms": "mass", "kg": "mass", "grams": "mass", "ounces": "mass", "lbs": "mass",
	"centimetres": "length", "centimeters": "length", "metres": "length", "meters": "length", "millimetres": "length",
	"millimeters": "length", "inches": "length", "feet": "length", "cm": "length", "mm": "length",
	"degrees": "temperature", "rpm": "rotation speed", "revolutions": "rotation speed", "decibels": "loudness", "db": "loudness",
}

// units are the units a document writes a measure in, by the measure's
// dimension, and with no dimension a question names by its unit (a
// share, a setting): the one table behind dimensions and any measure
// (reMeasure).
var units = []struct{ dim, pattern string }{
	{"power", `w|kw|watts?|kilowatts?`},
	{"voltage", `v|volts?`},
	{"current", `amps?|amperes?`},
	{"charge", `mah`},
	{"volume", `l|litres?|liters?|ml|millilitres?|milliliters?|cl|cups?|` + fluidOunce},
	{"mass", `kg|kilos?|kilograms?|g|grams?|lbs?|pounds?|oz|ounces?`},
	{"length", `cm|mm|m|km|metres?|meters?|centimetres?|centimeters?|millimetres?|millimeters?|inch|inches|ft|feet|foot`},
	{"temperature", degreeSign + `|degrees?|celsius|fahrenheit|centigrade`},
	{"rotation speed", `rpm|revolutions?`},
	{"loudness", `db|decibels?`},
	{"", `%|per ?cent|speeds?|settings?`},
}

// askedUnits are units read only in a measure of the dimension a question
// asks for: "13 A" answers "how many amps", but "2 a day" is no measure.
// attached are those written right after the number only: a capital "C"
// or "F" is a temperature in "80C", not in "option 2 C".
var (
	askedUnits = map[string]string{"current": `a`}
	attached   = map[string]string{"temperature": bareDegree}
)

// measure is the pattern of a number (or a range) in unit u, or in unit
// attached right after the number when there is one.
func measure(u, attached string) *regexp.Regexp {
	if attached != "" {
		attached = `|` + attached
	}
	return regexp.MustCompile(`(?i)` + numStart + `(` + number + `(?:\s*(?:to|-|–)\s*` + number + `)?(?:[\s-]*(?:` + u + `)` + attached + `))(?:[^\p{L}]|$)`)
}

// dimensions are the patterns of a measure in each dimension.
var dimensions = func() map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	for _, u := range units {
		if u.dim == "" {
			continue
		}
		p := u.pattern
		if a := askedUnits[u.dim]; a != "" {
			p = a + `|` + p
		}
		out[u.dim] = measure(p, attached[u.dim])
	}
	return out
}()

// reMeasure is a measure in any unit.
var reMeasure = func() *regexp.Regexp {
	var all, bare []string
	for _, u := range units {
		all = append(all, u.pattern)
		if a := attached[u.dim]; a != "" {
			bare = append(bare, a)
		}
	}
	return measure(strings.Join(all, "|"), strings.Join(bare, "|"))
}()

// Expression patterns. Numbers are digits (with thousands separators and
// decimals) or number words; a code such as "X200" is not a number.
const (
	numWord  = `(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a hundred|a thousand|thousand|a dozen|dozen|half an?|a couple of)`
	numDigit = `(?:\d[\d,]*(?:\.\d+)?)`
	number   = `(?:` + numDigit + `|` + numWord + `)`
	// span: a number, or "a"/"an" as one of a unit ("an hour", "a year").
	span = `(?:` + number + `|an?|several|a few)`
	// numStart: a number not inside a code ("X200", "HL-X300-UK").
	// A number after a slash is a fraction's or a rating's ("4/5"), not
	// the start of a measure.
	numStart = `(?:^|[^\p{L}\d/-])`
	timeUnit = `(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|nights?|weeks?|fortnights?|months?|years?|yrs?|decades?)`
	// degreeSign is a temperature's unit after a degree sign, an ordinal
	// indicator written for one ("80ºC") or a ring ("80˚C"), and
	// bareDegree a capital "C" or "F" right after the number ("80C").
	degreeSign = `(?:[°º˚]\s?[cf])`
	bareDegree = `(?-i:[CF])`
	// fluidOunce is a volume ("64 fl oz"), where "oz" alone is a mass.
	fluidOunce = `(?:fl\.?\s?oz|fluid\s+ounces?)`
	rateUnit   = `(?:rpm|revolutions?|mph|km/h|kph|kmh|m/s|cm/s|mbps|gbps|kbps|fps|(?:per|a|an|/) ?(?:second|sec|s|minute|min|hour|hr|h))`
)

// MonthNames are the months' names and MonthAbbrevs their abbreviations,
// lower case ("may" is a full name), and DayNames the weekdays' names,
// lower case. The date pattern and the assessor's plain entities read
// months and days from these lists.
var (
	MonthNames   = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	MonthAbbrevs = []string{"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
	DayNames     = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)

// monthName matches a month's name or abbreviation, dayName a weekday's
// name or a weekday or weekend.
var (
	monthName = `(?:` + strings.Join(MonthNames, "|") + `|` + strings.Join(MonthAbbrevs, "|") + `)`
	dayName   = `(?:` + strings.Join(DayNames, "|") + `|weekdays?|weekends?)`
)

var (
	reDuration = regexp.MustCompile(`(?i)` + numStart + `(` + span + `(?:\s*(?:to|-|–|or)\s*` + number + `)?[\s-]*(?:extra |more |working |business |calendar |full |whole )?` + timeUnit + `)\b`)
	// reSpeedTime is a speed given as the time something takes: a
	// duration counted in numbers, not "a year", after "in", "within" or
	// a form of "take" ("boils in about four minutes"); "covered for 5
	// years" is a period, not how fast anything is.
	reSpeedTime = regexp.MustCompile(`(?i)\b(?:in|within|under|takes?|took|taking)\s+(?:about |around |roughly |approximately |under |less than |just |only )?(` + number + `(?:\s*(?:to|-|–|or)\s*` + number + `)?[\s-]*` + timeUnit + `)\b`)
	reDurWord   = regexp.MustCompile(`(?i)\b(overnight|immediately|straight away|right away|at once|instantly|same[- ]day|next[- ]day|lifetime|for life|indefinitely|permanently)\b`)
	reFrequency = regexp.MustCompile(`(?i)\b((?:once|twice|` + number + ` times)(?: (?:a|an|per|every|each) \w+)?|(?:every|each) (?:\w+ )?(?:` + timeUnit + `|use|time|wash|clean)|(?:a|an|per) (?:day|week|month|year|fortnight|use)\b|daily|weekly|fortnightly|monthly|quarterly|yearly|annually|hourly|nightly|regularly|(?:more |less )?often|frequently|after (?:each|every) \w+|whenever \w+|with (?:daily|weekly|regular|heavy) use)\b`)
	reRate      = regexp.MustCompile(`(?i)` + numStart + `(` + number + `\s*` + rateUnit + `)(?:\b|$)`)
	reMoney     = regexp.MustCompile(`(?i)([£$€¥]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:pounds|pence|p|dollars|cents|euros?|usd|gbp|eur)\b|\bfree(?: of charge)?\b|\bno (?:charge|cost|fee)\b|\bat no (?:extra )?cost\b)`)
	reCount     = regexp.MustCompile(`(?i)` + numStart + `(` + number + `\s+\p{L}+)`)
	reDate      = regexp.MustCompile(`(?i)\b(\d{1,2}(?:st|nd|rd|th)? ` + monthName + `(?: \d{4})?|` + monthName + ` \d{1,2}(?:st|nd|rd|th)?(?:,? \d{4})?|` + monthName + ` \d{4}|(?:in|from|until|till|before|after|since|by) ` + monthName + `|(?:19|20)\d\d|\d{1,2}/\d{1,2}/\d{2,4}|` + dayName + `|(?:today|tomorrow|yesterday|tonight))\b`)
	reRelative  = regexp.MustCompile(`(?i)\b((?:within|after|before|until|till|by|from|since|in|for|up to) (?:` + number + `[\s-]*(?:extra |working |business )?` + timeUnit + `|the (?:first|next|last|end)\b[^.,;]*))`)
	reCondition = regexp.MustCompile(`(?i)\b((?:if|once|whenever|as soon as|unless|in case)\s+[^,.;:]+)`)
	// reYesNo's "n't" never matches after a letter ("won't", "isn't": \b
	// fails inside the word), so a contraction is a yes/no expression only
	// through another word of the list; counting it is a new builtin
	// assessor (measured on branch a49-nt, round 49: no run of the 49
	// development sets or SciFact changed, in either mode).
	reYesNo    = regexp.MustCompile(`(?i)\b(not|never|no|n't|cannot|can|may|must|should|shall|need|needs|only|always|yes|free|allowed|safe|fine|ok|okay|required|recommended)\b`)
	reSequence = regexp.MustCompile(`(?i)(\bthen\b|\bfirst\b|\bnext\b|\bfinally\b|\bstep \d|^\s*to \p{L}+\b|\bby \p{L}+ing\b|\b(?:you|we) (?:can|could|should|must|need to|will|'ll)\b|\bvia\b|\bthrough\b|\bat [\w.-]+\.[a-z]{2,}\b|\bfrom (?-i:\p{Lu})\p{L}+)`)
	reURL      = regexp.MustCompile(`(?i)\b([\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://)?[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|example|co\.uk|uk|io|gov|edu)(?:/[\w/.-]*)?)\b`)
	rePlace    = regexp.MustCompile(`(?:\b(?:` + placePrepositions + `) ` + placeObject + `)`)
	// rePrepPlace is rePlace in any case, its preposition captured too.
	rePrepPlace = regexp.MustCompile(`(?i)\b(` + placePrepositions + `) ` + placeObject)
)

// placePrepositions are the prepositions the place finder reads a place
// after; placeObject is the word one governs, past a determiner.
const (
	placePrepositions = `at|in|on|from|to|into|inside|under|behind|beside|near|above|below|within`
	placeObject       = `(?:the |a |an |your |our |its |their )?(\p{L}[\p{L}-]*)`
)

// PlacePhrases returns, for each preposition the place finder reads a
// place after ("on the base", "to Wakefield", "From batch"), in any
// case, the preposition in lower case and the word it governs as
// written.
func PlacePhrases(text string) (preps, words []string) {
	for _, m := range rePrepPlace.FindAllStringSubmatch(text, -1) {
		preps = append(preps, strings.ToLower(m[1]))
		words = append(words, m[2])
	}
	return preps, words
}

// imperativeVerbs open an instruction in support text. The list is
// general English (no product's own verbs); a sentence that opens with
// any verb followed by an object ("Descale it", "Wash the jar") is an
// instruction too (see imperative).
var imperativeVerbs = set("add", "allow", "apply", "ask", "avoid", "book", "call", "change", "check", "choose",
	"clean", "click", "close", "connect", "contact", "continue", "disconnect", "do", "don't", "download", "drain",
	"dry", "email", "empty", "enter", "fill", "find", "fit", "follow", "go", "hold", "insert", "install", "keep",
	"leave", "let", "lift", "make", "move", "never", "always", "open", "order", "pair", "place", "plug", "press",
	"pull", "push", "put", "read", "register", "release", "remove", "repeat", "replace", "reset", "restart",
	"return", "rinse", "select", "send", "set", "sign", "soak", "start", "stop", "store", "submit", "switch",
	"take", "tap", "tighten", "try", "turn", "twist", "unplug", "update", "use", "visit", "wait", "wash", "wipe", "write")

// objectWords follow a verb that opens an instruction.
var objectWords = set("it", "them", "the", "a", "an", "your", "this", "that", "these", "those", "its", "their", "our", "up", "out", "off", "down", "back", "all", "any", "each", "every")

// functionWords cannot open an instruction.
var functionWords = set("the", "a", "an", "this", "that", "these", "those", "some", "any", "every", "each", "all", "most",
	"many", "much", "no", "our", "your", "my", "his", "her", "its", "their", "we", "you", "they", "he", "she", "it", "i",
	"in", "on", "at", "for", "from", "to", "with", "by", "of", "if", "when", "while", "after", "before", "as", "and",
	"or", "but", "so", "there", "here", "what", "which", "who", "how", "is", "are", "was", "were", "be", "can", "may",
	"will", "should", "must", "not", "one", "two", "three", "only", "also", "just", "about", "both", "either", "neither")

// Imperative reports whether a sentence opens with an instruction: its
// first clause up to a colon, a semicolon or a dash is one (see
// imperative). "Unplug it: the motor is hot" opens with one; "E9 means a
// sensor fault: contact support" holds one (Find finds it) but opens with
// a condition.
func Imperative(sentence string) bool {
	cs := independentClauses(sentence)
	if len(cs) == 0 {
		return false
	}
	_, ok := imperativeClause(sentence[cs[0][0]:cs[0][1]])
	return ok
}

// imperative reports whether a sentence, or its main clause after an
// opening phrase ("In hard-water areas, descale ..."), opens with an
// instruction: a general imperative verb, or any word that is not a
// function word, not an -ing or -ed form, followed by an object ("Descale
// it", "Wash the jar").
func imperative(sentence string) (string, bool) {
	for _, sp := range independentClauses(sentence) {
		if v, ok := imperativeClause(sentence[sp[0]:sp[1]]); ok {
			return v, true
		}
	}
	return "", false
}

// independentClauses splits a sentence where a new clause may begin with
// its own verb: at a colon, a semicolon or a spaced dash ("E9 means a
// sensor fault: contact support", "The fuse has blown; replace it").
func independentClauses(sentence string) [][2]int {
	var out [][2]int
	start := 0
	for _, sp := range clauseSpans(sentence) {
		end := strings.TrimRight(sentence[sp[0]:sp[1]], " ")
		if strings.HasSuffix(end, ",") {
			continue // a comma stays inside the clause (see imperativeClause)
		}
		out = append(out, [2]int{start, sp[1]})
		start = sp[1]
	}
	if start < len(sentence) {
		out = append(out, [2]int{start, len(sentence)})
	}
	return out
}

// imperativeClause is imperative for one clause.
func imperativeClause(sentence string) (string, bool) {
	clauses := []string{sentence}
	opening, rest, fronted := strings.Cut(sentence, ", ")
	if fronted {
		clauses = append(clauses, rest)
	}
	for i, c := range clauses {
		ws := words(c)
		if len(ws) < 2 {
			continue
		}
		v := ws[0]
		if imperativeVerbs[v] {
			return v + " " + ws[1], true
		}
		if functionWords[v] || strings.HasSuffix(v, "ing") || strings.HasSuffix(v, "ed") || strings.HasSuffix(v, "s") || startsUpperMid(c) {
			continue
		}
		if objectWords[ws[1]] {
			return v + " " + ws[1], true
		}
		// After a fronted prepositional phrase ("In hard-water areas,
		// descale kettles ..."), a declarative clause opens with its
		// subject (a determiner, a pronoun, a name); a lower-case content
		// word there is the verb of an instruction.
		if i == 1 && prepositions[firstWord(opening)] && unicode.IsLower([]rune(strings.TrimSpace(c))[0]) {
			return v + " " + ws[1], true
		}
	}
	return "", false
}

// prepositions open a fronted phrase before an instruction.
var prepositions = set("in", "on", "at", "for", "from", "with", "after", "before", "during", "if", "when", "once", "to", "between", "under", "without")

func firstWord(s string) string {
	ws := words(s)
	if len(ws) == 0 {
		return ""
	}
	return ws[0]
}

// startsUpperMid is a guard against a capitalised name opening a clause in
// mid-sentence ("..., Hollin the ..."): such a clause is not an instruction.
func startsUpperMid(clause string) bool {
	rs := []rune(strings.TrimSpace(clause))
	if len(rs) < 2 {
		return false
	}
	// A sentence's own first word is capitalised anyway; a name in capitals
	// past the first letter ("HL-X200") is not a verb.
	first, _, _ := strings.Cut(string(rs), " ")
	upper := 0
	for _, r := range first {
		if unicode.IsUpper(r) {
			upper++
		}
	}
	return upper > 1
}

// Find returns the expressions of type t in one sentence (empty when t is
// Description: anything answers it). For a yes/no question any
// statement with a polarity, modality or instruction decides; for a
// procedure, an instruction or a sequence.
func Find(t Type, sentence string) []string {
	var out []string
	add := func(re *regexp.Regexp) {
		for _, m := range re.FindAllStringSubmatch(sentence, -1) {
			s := m[0]
			if len(m) > 1 && m[1] != "" {
				s = m[1]
			}
			out = append(out, strings.TrimSpace(s))
		}
	}
	switch t {
	case Count:
		add(reCount)
	case Period:
		add(reDuration)
		add(reDurWord)
		add(reRelative)
		add(reDate)
	case Frequency:
		add(reFrequency)
	case Speed:
		add(reRate)
		add(reSpeedTime) // "boils in about four minutes"
	case Quantity:
		out = append(out, measures(reMeasure, sentence)...)
	case Money:
		add(reMoney)
	case Date:
		add(reDate)
		add(reRelative)
	case Condition:
		add(reDate)
		add(reRelative)
		add(reCondition)
	case YesNo:
		add(reYesNo)
		if v, ok := imperative(sentence); ok {
			out = append(out, v)
		}
	case Procedure:
		if v, ok := imperative(sentence); ok {
			out = append(out, v)
		}
		add(reSequence)
		add(reURL)
	case Place:
		add(reURL)
		add(rePlace)
	case Name:
		add(reURL)
		out = append(out, names(sentence)...)
	case Material:
		out = append(out, FindMaterial(sentence)...)
	}
	return out
}

// names lists the capitalised words and codes past a sentence's first
// word.
func names(sentence string) []string {
	var out []string
	fs := strings.Fields(sentence)
	for i, f := range fs {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		rs := []rune(w)
		if len(rs) < 2 {
			continue
		}
		if IsCode(w) || i > 0 && unicode.IsUpper(rs[0]) {
			out = append(out, w)
		}
	}
	return out
}

// IsCode reports whether a word holds both a digit and a letter, the form
// of a code: a model number ("X200", "HL-X200-UK"), a batch ("B-2291"), an
// error code ("E4").
func IsCode(w string) bool {
	return strings.IndexFunc(w, unicode.IsDigit) >= 0 && strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// beForms are the forms of "be" before a verb's -ing form ("is showing").
var beForms = set("is", "are", "was", "were", "am", "be", "been", "being", "isn't", "aren't", "wasn't", "weren't")

// ingOpeners put a verb's -ing form at the start of a clause of time or
// means ("when pairing the kettle", "by holding the dial").
var ingOpeners = set("when", "while", "whilst", "before", "after", "by", "without", "since")

// Verbs lists the words of a question that it uses as verbs, read from
// where they stand (no part-of-speech lexicon; lower case, as typed):
// scene verbs are those of the statement before the clause that asks (see
// Asking: "my X200 is showing E9", "I ran my kettle off a converter"),
// asked verbs those of the clause that asks ("can I fix that", "how long
// do I press the dial").
//
// A word is a verb when it follows an auxiliary and a subject pronoun ("do
// I press", "should we swap", "can it go"); when it follows "to" after an
// auxiliary, a hedge, a verb or a word that takes an infinitive ("have to
// put", "need to claim", "use to book", "how to pair"); when it is an -ing form after
// a form of "be" or after a word opening a clause of time or means ("is
// showing", "when pairing"); and, in a scene, when it follows a subject
// pronoun that opens its clause ("I ran", "we bought"). Adverbs between
// are passed over ("should I usually descale"). A function word,
// an auxiliary or a hedge is never one.
func Verbs(question string) (asked, scene []string) {
	text, _ := asking(question)
	head := ""
	if strings.HasSuffix(question, text) {
		head = question[:len(question)-len(text)]
	}
	for _, sp := range clauseSpans(head) {
		scene = append(scene, clauseVerbs(head[sp[0]:sp[1]], true)...)
	}
	for _, sp := range clauseSpans(text) {
		asked = append(asked, clauseVerbs(text[sp[0]:sp[1]], false)...)
	}
	return asked, scene
}

// toVerbs take a verb after "to" ("want to book", "how to claim").
var toVerbs = set("how", "what", "where", "when", "which", "want", "wants", "like", "able", "going", "try", "trying", "allowed", "supposed", "got", "ought")

// verbSubjects are the subject pronouns a verb follows.
var verbSubjects = set("i", "we", "you", "they", "it", "he", "she")

// clauseVerbs is Verbs for one clause; in a scene, a verb may follow the
// clause's opening pronoun.
func clauseVerbs(clause string, scene bool) []string {
	ws := words(clause)
	var out []string
	for i, w := range ws {
		if functionWords[w] || auxiliaries[w] || hedges[w] || whWords[w] || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			continue
		}
		j := i - 1 // past the adverbs before it ("should I usually descale")
		for j >= 0 && (hedges[ws[j]] || strings.HasSuffix(ws[j], "ly") || ws[j] == "just" || ws[j] == "also") {
			j--
		}
		verb := j >= 1 && auxiliaries[ws[j-1]] && verbSubjects[ws[j]] ||
			i >= 2 && ws[i-1] == "to" && (auxiliaries[ws[i-2]] || hedges[ws[i-2]] || toVerbs[ws[i-2]] || slices.Contains(out, ws[i-2])) ||
			i >= 1 && len(w) > 5 && strings.HasSuffix(w, "ing") && (beForms[ws[i-1]] || ingOpeners[ws[i-1]]) ||
			scene && i == 1 && verbSubjects[ws[0]]
		if verb && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// AskingParts splits question into the parts that ask: its clauses
// (clause punctuation , ; : ? ! . followed by a space or the end, and a
// spaced dash), and within a clause the parts "and", "but", "or", "also"
// or "then" opens, each kept when it has the form of a question
// (AskingClauses): "How much do we get per home visit, and when does our
// contract with Hollin end?" asks "How much do we get per home visit" and
// "when does our contract with Hollin end?". The generator reads the
// parts with it (extractive-v20's rule) and so does the assessor
// (builtin:coverage-v51's Parts).
func AskingParts(question string) []string {
	var clauses []string
	start := 0
	for i := 0; i < len(question); i++ {
		c := question[i]
		if strings.IndexByte(",;:?!.", c) >= 0 && (i+1 == len(question) || question[i+1] == ' ') ||
			c == ' ' && strings.HasPrefix(question[i:], " - ") {
			clauses = append(clauses, question[start:i+1])
			start = i + 1
		}
	}
	clauses = append(clauses, question[start:])
	var out []string
	for _, cl := range clauses {
		ws := strings.Fields(cl)
		from := 0
		for j := 1; j < len(ws)-1; j++ {
			w := strings.ToLower(strings.Trim(ws[j], ",;"))
			if (w == "and" || w == "but" || w == "or" || w == "also" || w == "then") && AskingClauses(strings.Join(ws[j+1:], " ")) > 0 {
				out = append(out, strings.Join(ws[from:j], " "))
				from = j + 1
			}
		}
		out = append(out, strings.Join(ws[from:], " "))
	}
	return slices.DeleteFunc(out, func(p string) bool { return AskingClauses(p) == 0 })
}
