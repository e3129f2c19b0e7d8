package answertype

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Material is what a thing is made of, or the substance an action uses:
// "what is the jar made of", "what should I descale it with". Classify
// never reads it; MaterialQuestion does (the builtin assessor's
// builtin:coverage-v49, Builtin.Matter; the generator's
// builtin:extractive-v37).
const Material Type = "material"

// materialNouns are nouns naming a material or a substance used on a thing
// (a named material: the answer a material question expects, or, in the
// question, one of the answers it offers: "glass or plastic", "is vinegar
// ok"). A general lexicon, not the corpus's words.
var materialNouns = set("glass", "plastic", "plastics", "steel", "stainless", "aluminium", "aluminum", "copper",
	"brass", "iron", "metal", "metals", "ceramic", "porcelain", "silicone", "rubber", "wood", "bamboo", "cotton",
	"nylon", "polyester", "leather", "polypropylene", "polycarbonate", "acrylic", "borosilicate", "enamel", "chrome",
	"titanium", "acid", "vinegar", "bicarbonate", "soda", "descaler", "descalers", "detergent", "bleach", "resin")

// materialKinds are the nouns a question names the kind of answer by
// ("what material", "what kind of plastic"): frame, the answer says it its
// own way.
var materialKinds = set("material", "materials", "substance", "kind", "type", "sort", "made")

// materialModifiers qualify a named material the question offers ("white
// vinegar", "stainless steel"): frame with it.
var materialModifiers = set("white", "malt", "distilled", "clear", "stainless", "household", "ordinary", "plain",
	"regular", "normal", "hard", "soft", "tempered", "recycled")

// emphatic adverbs only stress what a question asks ("what's it actually
// made of", "just how fast"): frame in the questions read here.
var emphatic = set("actually", "really", "exactly", "just")

// MaterialQuestion reads a question asking what something is made of or
// what substance to use on it: a clause opened by "what" or "which" that
// says "made of", "made from", "made out of" or "made with" ("what's the
// X200's jug actually made of, glass or plastic?"), that asks for a
// material by its noun ("which descaler", "what kind of plastic"), or that
// ends with "with" after its verb ("what should I descale the K50 with?").
// Its frame is the words that name the kind ("made", "kind", "material")
// and the named materials it offers as answers ("glass", "vinegar"). A
// yes/no question with no such clause ("is the X300 Pro jug made of
// Tritan too?") is no material question.
func MaterialQuestion(question string) (Question, bool) {
	question = plainMarks(question)
	for _, sp := range clauseSpans(question) {
		ws := contracted(opening(words(question[sp[0]:sp[1]])))
		if len(ws) < 2 || ws[0] != "what" && ws[0] != "which" {
			continue
		}
		if slices.ContainsFunc(ws, func(s string) bool { return moneyWords[s] }) {
			continue // "what do I pay with": money
		}
		made := false
		for i, w := range ws {
			if w == "made" && i+1 < len(ws) && (ws[i+1] == "of" || ws[i+1] == "from" || ws[i+1] == "out" || ws[i+1] == "with") {
				made = true
			}
		}
		named := materialNouns[ws[1]] || materialKinds[ws[1]] && ws[1] != "made" && (len(ws) > 3 && ws[2] == "of" && (materialNouns[ws[3]] || ws[3] == "material"))
		// "what should I descale the K50 with", "what do you recommend
		// descaling it with": "what" is the object of "with" after a
		// subject's verb, not "what's the app called that it works with"
		ends := ws[len(ws)-1] == "with" && len(ws) > 3 && auxiliaries[ws[1]] && subjects[ws[2]]
		if !made && !named && !ends {
			continue
		}
		q := Question{Type: Material}
		if ends && !made && !named {
			// what one does a thing with: a material, or the
			// instrument a "with" phrase names ("wipe it with a damp
			// cloth")
			q.Unit = Instrument
		}
		all := words(question)
		for i, w := range all {
			offered := i+1 < len(all) && materialNouns[all[i+1]] && materialModifiers[w] // "white vinegar"
			if (materialNouns[w] || materialKinds[w] || w == "with" || emphatic[w] || offered) && !slices.Contains(q.Frame, w) {
				q.Frame = append(q.Frame, w)
			}
		}
		return q, true
	}
	return Question{}, false
}

// Instrument is the Unit of a material question asking what to do a
// thing with ("what should I clean the motor unit with"): a "with" phrase
// answers it as a named material does (see Question.Find).
const Instrument = "instrument"

// reWith finds the noun phrase after "with" in lower case ("wipe it with
// a damp cloth"): what an instruction does a thing with.
var reWith = regexp.MustCompile(`\bwith (?:a |an |some |the |your |its )?([a-z][\w-]*(?: [a-z][\w-]*)?)`)

// withPhrases lists reWith's noun phrases in sentence, none opening with
// a determiner ("with the Hollin Home app": a name, no instrument).
func withPhrases(sentence string) []string {
	var out []string
	for _, m := range reWith.FindAllStringSubmatch(sentence, -1) {
		first, _, _ := strings.Cut(m[1], " ")
		if npOpeners[first] || first == "your" || first == "some" {
			continue
		}
		out = append(out, m[1])
	}
	return out
}

// reMadeOf finds what a sentence says a thing is made of, from or with.
var reMadeOf = regexp.MustCompile(`(?i)\bmade (?:of|from|out of|with|in) ([\w-]+(?: [\w-]+)?)`)

// FindMaterial lists the expressions of a material in a sentence: what it
// says a thing is made of ("made from recycled glass"), a named material
// (materialNouns: "with citric acid", "a glass jug"), and a name written
// before a common noun, mid-sentence, as a material's trade name is ("a
// 2-litre Tritan jar"): a capitalised word that is no code, between a
// lower-case word or number and a lower-case word.
func FindMaterial(sentence string) []string {
	var out []string
	for _, m := range reMadeOf.FindAllStringSubmatch(sentence, -1) {
		out = append(out, m[1])
	}
	fs := strings.Fields(sentence)
	trim := func(f string) string {
		return strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	for i, f := range fs {
		w := trim(f)
		if w == "" {
			continue
		}
		if materialNouns[strings.ToLower(w)] {
			out = append(out, w)
			continue
		}
		if i == 0 || i+1 >= len(fs) || IsCode(w) || strings.ContainsAny(f, ",.;:!?") {
			continue
		}
		rs := []rune(w)
		if len(rs) < 3 || !unicode.IsUpper(rs[0]) || strings.IndexFunc(string(rs[1:]), unicode.IsUpper) >= 0 {
			continue
		}
		prev, next := trim(fs[i-1]), []rune(trim(fs[i+1]))
		if len(next) == 0 || !unicode.IsLower(next[0]) || strings.ContainsAny(fs[i-1], ",.;:!?") ||
			!npOpeners[strings.ToLower(prev)] && !strings.ContainsFunc(prev, unicode.IsDigit) {
			continue // "choose Add appliance": a verb's object, no material
		}
		out = append(out, w)
	}
	return out
}

// npOpeners open the noun phrase a material's name premodifies ("a
// Tritan jar"); a number or measure may stand between ("a 2-litre Tritan
// jar").
var npOpeners = set("a", "an", "the", "its", "their", "our", "this", "each", "every")

// motionVerbs are the verbs a speed question asks how fast something does
// ("how fast do the blades spin", "what rpm does it get up to"): what the
// speed measures, frame as "take" is in a period question.
var motionVerbs = set("spin", "spins", "spinning", "go", "goes", "going", "turn", "turns", "run", "runs", "rotate",
	"rotates", "revolve", "revolves", "get", "gets", "manage", "manages", "hit", "hits", "reach", "reaches")

// topWords name the top of a range ("the top setting", "at full whack",
// "flat out", "its fastest setting"): a stated speed is the top one (a
// specification's "high speed reaches ..."). The bottom of the range
// ("slowest", "lowest") is not among them: it stays content.
var topWords = set("top", "highest", "fastest", "quickest", "full", "max", "maximum", "flat", "peak")

// topNouns are the nouns after a top word that name the setting ("top
// setting", "full whack", "flat out", "max power").
var topNouns = set("setting", "settings", "speed", "power", "whack", "out", "level", "mode", "pelt", "tilt", "blast")

// SpeedFrame lists the words of a speed question that only say which speed
// it asks for: its motion verb ("spin", "go", "turn"), the part that moves
// when the verb's subject names one beside the thing ("the blades" in "how
// fast do the blades spin on the Pro": a lower-case noun before the verb,
// before any preposition, no code and no owner), and a phrase naming the
// top of the range ("at full whack", "on the top setting", "flat out").
func SpeedFrame(question string) []string {
	ws := words(plainMarks(question))
	var frame []string
	add := func(w string) {
		if !slices.Contains(frame, w) {
			frame = append(frame, w)
		}
	}
	for i, w := range ws {
		if emphatic[w] {
			add(w)
		}
		if topWords[w] {
			add(w)
			if i+1 < len(ws) && topNouns[ws[i+1]] {
				add(ws[i+1])
			}
		}
		if !motionVerbs[w] || i == 0 || auxiliaries[w] {
			continue
		}
		add(w)
		// the subject: back to the auxiliary before the verb ("do the
		// blades spin"), or before an auxiliary right before it back to
		// the question's words ("the fastest the X200's blades will spin")
		end := i
		if auxiliaries[ws[i-1]] {
			end = i - 1
			add(ws[i-1]) // "will": the analyzer keeps it as a word
		}
		j := end - 1
		for j >= 0 && !auxiliaries[ws[j]] && ws[j] != "how" && ws[j] != "fast" && !topWords[ws[j]] && !whWords[ws[j]] {
			j--
		}
		if j < 0 && end == i {
			continue
		}
		for _, w := range movingPart(ws, j+1, end, i) {
			add(w)
		}
	}
	return frame
}

// movingPart is the part a speed question's motion verb (at verb) says
// moves, from the verb's subject ws[from:to]: its words before any
// preposition, when they name a part of something the question names
// otherwise — after an owner ("the X200's blades") or beside a phrase
// naming the thing ("the blades on the Pro", "do the blades spin on the
// Pro blender"). A subject that names the thing itself ("does the mixer
// spin", "does the X300 Pro spin") is no part: nothing.
func movingPart(ws []string, from, to, verb int) []string {
	subj := ws[from:to]
	rest := ws[verb+1:]
	for k, w := range subj {
		if partPrepositions[w] {
			subj, rest = subj[:k], ws[from+k:]
			break
		}
	}
	owner := -1
	for k, w := range subj {
		if strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s") {
			owner = k
		}
	}
	var part []string
	switch {
	case owner >= 0:
		part = subj[owner+1:]
	case !slices.ContainsFunc(subj, IsCode) && namesOther(rest):
		part = subj
	}
	var out []string
	for _, w := range part {
		if npOpeners[w] || subjects[w] || w == "it" || IsCode(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// partPrepositions open the phrase that says where a moving part is
// ("the blades on the Pro").
var partPrepositions = set("on", "of", "in", "for", "with", "at")

// namesOther reports whether ws holds a prepositional phrase naming a
// thing: a word in the three after "on", "of", "in" ... that is no
// determiner, pronoun or word of a top-of-range phrase ("on the Pro
// blender", not "on its top setting" nor "at full whack").
func namesOther(ws []string) bool {
	for i, w := range ws {
		if !partPrepositions[w] {
			continue
		}
		for _, x := range ws[i+1 : min(len(ws), i+4)] {
			if partPrepositions[x] {
				break
			}
			if !npOpeners[x] && !subjects[x] && x != "it" && !topWords[x] && !topNouns[x] && !rangeWords[x] {
				return true
			}
		}
	}
	return false
}

// rangeWords name a place in a range that is not its top ("its lowest
// speed", "on high"): no thing.
var rangeWords = set("high", "higher", "low", "lower", "lowest", "slowest", "setting", "speed", "level", "max", "min", "minimum")
