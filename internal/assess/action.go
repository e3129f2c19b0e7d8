package assess

import (
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// The asked action (builtin:coverage-v34, Builtin.Act; branch a32-act, round 32).
//
// A question asking for an instruction ("how do I …") is decided, in a
// chunk, by an instruction ("hold the", "then", "book a"). Four readings
// accept such a chunk without reading the question's verb: the coverage
// rules leaving out the question's verbs (reading.dropped) or covering
// every word the documents use (a paraphrase), the focus reading when the
// clause that asks holds words no document uses or falls back to its
// entities, and the wide reading. There an instruction for another action
// of the same product decides the question ("To pair the K50 …, hold the
// temperature dial down" for "how do I factory reset my K50?" and for
// "the ring light … is too bright, how do I turn it off").
//
// Act reads the asked action from the clause that asks (answertype.Asking,
// up to its first "?"): its verbs (answertype.Verbs) that the documents
// use, in their own words or through a relative the thesaurus gives, other
// than light verbs ("get", "do", "have", "make", "put", "go", "take",
// "sort", "fix", "let", "be": they say little of what is done) and verbs
// of learning ("know", "tell", "find", "check", "see", "learn": the clause
// after them says what); and the words the verb acts on (the content words
// after it, no entity's, no number, no particle, pronoun or filler, up to
// what the clause sets aside: "instead of a repair"); a pronoun right
// after the verb stands for the codes the question names ("E4 … how do I
// clear it?"). A chunk decides the question only when its title, a
// sentence holding an instruction or the accepted expression, or a
// sentence next to one, holds one of those words: its term, a form
// derived from it ("replac" in "replacement"), a substitute, a relative
// or, for a verb, a way of doing it (waysOf: "pair" for "connect"); the
// focus reading may then take a chunk below the first that does
// (focusedBelow). Two readings decide nothing: a clause whose verbs no document
// uses and which names nothing else the documents use ("how do I factory
// reset my K50"), and a light verb whose object no document names ("do we
// get a bonus").
//
// Act reads only with a thesaurus (without one a verb no document uses may
// be a paraphrase it cannot tell; the replay of round 32 lost one
// answerable confirm question that way) and only instruction questions:
// read on yes/no questions too it refused three more no-answer design
// questions (p92, r90, t85) but lost an answerable confirm question on the
// first attempt (docs/log/round-32-a32-act.md).

// V33Model names the builtin assessor with v34's reading of the asked
// action (Builtin.Act) off: builtin:coverage-v33, kept selectable.
const V33Model = "builtin:coverage-v33"

// lightVerbs say little of the action; their object does.
var lightVerbs = wordSet(strings.Fields(`get gets got getting gotten do does did doing done have has had having
	make makes made making put puts putting go goes went going gone take takes took taking taken
	sort sorts sorted sorting fix fixes fixed fixing let lets be being been`)...)

// knowVerbs ask how to learn something; the clause after them says what.
var knowVerbs = wordSet(strings.Fields(`know knows knowing tell tells find finds check see learn`)...)

// fillers are adverbs that name nothing ("what do I do now").
var fillers = wordSet(strings.Fields(`now then still just already ever really actually also even only first again well
	good enough ok okay fine right alright safe possible allowed acceptable normal true correct sure`)...)

// action is the asked action read from a question (see Act).
type action struct {
	verbs   []string // terms of the asked verbs the documents use
	objects []string // terms of the words the verbs act on
	unknown bool     // the clause asks with a verb, or a light verb's object, no document uses
	related map[string][]synonym
	ways    map[string][]string // a verb's term → the terms of its troponyms the documents use (waysOf)
	// antecedents are the code entities a pronoun right after the verb
	// stands for, whose terms objects holds (Kind reads which are products)
	antecedents []Entity
	unknownVerb bool     // the clause asks with a verb neither the documents nor a relative of theirs uses
	words       []string // the clause's words after the verb
	from        []int    // per object, the index in words it was read from (-1: a pronoun's antecedent)
}

// waysOf lists the terms of the verbs WordNet names as ways of doing verb
// (its hyponyms from a common sense, and theirs: "pair" is a way to
// "join", a way to "connect") that the documents use; nil without a
// taxonomy. A page saying how to pair says how to connect.
func (b *Builtin) waysOf(verb string, vocab Vocabulary) []string {
	tx, ok := b.Thesaurus.(Taxonomer)
	if !ok {
		return nil
	}
	var out []string
	add := func(x thesaurus.Taxon) bool {
		if x.Pos != 'v' || x.Broader || strings.Contains(x.Word, " ") {
			return false
		}
		if ts := b.an.Terms(x.Word); len(ts) == 1 && vocab.DocFreq(ts[0]) > 0 && !slices.Contains(out, ts[0]) {
			out = append(out, ts[0])
		}
		return true
	}
	for _, x := range tx.Taxa(verb) {
		if x.Common && add(x) {
			for _, y := range tx.Taxa(x.Word) {
				add(y)
			}
		}
	}
	return out
}

// askedAction reads the action the clause that asks asks about (see Act).
func (b *Builtin) askedAction(question string, asked answertype.Question, ents []Entity, vocab Vocabulary, related map[string][]synonym) *action {
	a := &action{related: related}
	known := func(t string) bool { return vocab.DocFreq(t) > 0 || len(related[t]) > 0 }
	av, _ := answertype.Verbs(question)
	verbTerms := map[string]bool{}
	first, light := "", false
	unknownVerb := false
	for _, w := range av {
		ts := b.an.Terms(w)
		if len(ts) != 1 || entityTerm(ents, ts[0]) {
			continue
		}
		verbTerms[ts[0]] = true
		if first == "" {
			first, light = w, lightVerbs[w]
		}
		if lightVerbs[w] || knowVerbs[w] || slices.Contains(a.verbs, ts[0]) {
			continue
		}
		ways := b.waysOf(w, vocab) // "pair" for "connect"
		if !known(ts[0]) && len(ways) == 0 {
			unknownVerb = true
			continue
		}
		a.verbs = append(a.verbs, ts[0])
		if len(ways) > 0 {
			if a.ways == nil {
				a.ways = map[string][]string{}
			}
			a.ways[ts[0]] = ways
		}
	}
	clause := answertype.Asking(question)
	if i := strings.Index(clause, "?"); i >= 0 {
		clause = clause[:i] // "how do i factory reset my K50? it just won't pair …"
	}
	ws := actionWords(aside(clause))
	if first == "" {
		// "will that do for a claim": a light verb after a pronoun
		if i := slices.IndexFunc(ws, func(w string) bool { return lightVerbs[w] }); i > 0 && pronouns[ws[i-1]] {
			first, light = ws[i], true
		}
	}
	if first != "" {
		// the verb, not an auxiliary spelt alike ("what do I do now")
		i := slices.IndexFunc(ws, func(w string) bool { return w == first })
		for k := i + 1; k < len(ws); k++ {
			if ws[k] == first && (pronouns[ws[k-1]] || ws[k-1] == "to" || fillers[ws[k-1]]) {
				i = k
				break
			}
		}
		if i < 0 {
			return &action{} // no reading
		}
		ws = ws[i+1:]
		if doVerbs[first] && (len(ws) == 0 || phraseEnds[ws[0]] || fillers[ws[0]]) {
			return &action{} // "what do I do now", "will that do for a claim": no action named
		}
	}
	frame := b.an.Set(strings.Join(asked.Frame, " "))
	pronoun := first != "" && len(ws) > 0 && pronouns[ws[0]]
	direct, inDirect := 0, light // a light verb's direct object: known words, and whether any word
	a.words = ws
	for k, w := range ws {
		if phraseEnds[w] && w != "and" && w != "or" {
			inDirect = false
		}
		if particles[w] || pronouns[w] || lightVerbs[w] || knowVerbs[w] || phraseEnds[w] || fillers[w] {
			continue
		}
		for _, t := range b.an.Content(w) {
			if verbTerms[t] || frame[t] || terms.IsQuestionWord(t) || entityTerm(ents, t) || strings.ContainsFunc(t, unicode.IsDigit) || slices.Contains(a.objects, t) {
				continue
			}
			isKnown := known(t)
			if inDirect && !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "ly") {
				if isKnown {
					direct = 1
				} else if direct == 0 {
					direct = -1
				}
			}
			if isKnown {
				a.objects = append(a.objects, t)
				a.from = append(a.from, k)
			}
		}
	}
	if pronoun {
		// "how do I clear it?": what the scene names by its code
		for _, e := range ents {
			if e.Code {
				for _, t := range e.Terms {
					a.objects = append(a.objects, t)
					a.from = append(a.from, -1)
				}
				a.antecedents = append(a.antecedents, e)
			}
		}
	}
	switch {
	case light && direct < 0:
		a.unknown = true // "do we get a bonus": a thing no document names
	case len(a.verbs) == 0 && len(a.objects) == 0 && unknownVerb:
		a.unknown = true // "how do I factory reset my K50"
	}
	a.unknownVerb = unknownVerb
	return a
}

// aside is text without what it sets aside ("instead of a repair").
func aside(text string) string {
	return reAsideOf.ReplaceAllString(text, "")
}

// doVerbs are "do" as a main verb: with no object it names no action.
var doVerbs = map[string]bool{"do": true, "does": true, "did": true}

// pronouns stand for a thing the clause does not name.
var pronouns = wordSet(strings.Fields(`it its that this them these those one ones mine yours something anything everything me myself you we us i`)...)

// actionWords are text's words, lower case.
func actionWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\''
	})
}

// phraseEnds end a light verb's object: prepositions and conjunctions.
var phraseEnds = wordSet(strings.Fields(`to for from with in on at of by about into onto under over after before instead rather than
	without through during inside outside if when and or but so because while as since until like`)...)

// particles complete a verb and name no thing ("back" in "get my money
// back").
var particles = wordSet(strings.Fields(`back out up off away down over round around along forth rid`)...)

// statesAction reports whether e states the action a (see Act): e's
// title, a sentence of e holding an expression of the expected type (the
// accepted one among them: Act reads instruction questions only, whose
// accepted expression answerIn finds so), or a sentence next to one,
// holds a verb of a or a word it acts on (its term, a form derived from
// it, a substitute, a relative, or a way of doing the verb: waysOf). A
// clause with no reading of an action (no verb, no object) is stated by
// any chunk; one asking an action no document names by none.
func (b *Builtin) statesAction(a *action, asked answertype.Question, e *Evidence, covers func(map[string]bool, string) bool) bool {
	if a.unknown {
		return false
	}
	want := append(slices.Clone(a.verbs), a.objects...)
	if len(want) == 0 {
		return true
	}
	sents := citation.Sentences(e.Text)
	near := make([]bool, len(sents))
	for i, s := range sents {
		if len(b.finds(asked, s)) == 0 {
			continue
		}
		for _, j := range []int{i - 1, i, i + 1} {
			if j >= 0 && j < len(sents) {
				near[j] = true
			}
		}
	}
	window := []string{e.Title}
	for i, s := range sents {
		if near[i] {
			window = append(window, s)
		}
	}
	have := b.an.Set(strings.Join(window, "\n"))
	for _, t := range want {
		if covers(have, t) || slices.ContainsFunc(a.related[t], func(s synonym) bool { return have[s.Term] }) || slices.ContainsFunc(a.ways[t], func(w string) bool { return have[w] }) {
			return true
		}
		if len(t) >= 4 {
			for h := range have {
				if strings.HasPrefix(h, t) {
					return true // "replac" in "replacement"
				}
			}
		}
	}
	return false
}

// entityOnly reports whether every word f reads is an entity's: the
// clause that asks held no word the documents use and f fell back to its
// entities.
func (f *focus) entityOnly() bool {
	for _, w := range f.words {
		if !f.entityTerm(w.term) {
			return false
		}
	}
	return true
}

// actRank is the lowest rank (0 the first) at which the focus reading,
// with Act, takes a chunk that states the asked action when none above
// it does (focusedBelow).
const actRank = 2

// focusedBelow is the focus reading of the chunks down to actRank, with
// Act, when the clause that asks has a reading of an action in words (a
// verb or what it acts on, not only for want of a reading): the first
// chunk the focus reading's test takes (focusTakes: it names the
// entities, holds an expression of the expected type, states the asked
// action and covers b.FocusCoverage of the clause that asks) is taken.
// "how do I connect the K50 to my phone?" is answered by the pairing page
// second, not the kettle's page first. The chunks down to b.FocusRank
// failed that same test in focused, so the first taken is below them
// (round 33: one test for both, so with FocusTopic, off in every named
// model, a chunk below must hold a topic word too, as one above must).
func (b *Builtin) focusedBelow(f *focus, asked answertype.Question, r *reading, all []*judged, covers func(map[string]bool, string) bool) (*judged, string, float64) {
	if len(r.act.verbs)+len(r.act.objects) == 0 {
		return nil, "", 0
	}
	for j := range candidates(all, actRank, f.ents, r) {
		if expr, c, ok := b.focusTakes(f, asked, r, j, covers); ok {
			return j, expr, c // the first: none the focus reading judged passes (focused)
		}
	}
	return nil, "", 0
}
