package assess

import (
	"regexp"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
)

// Readings of whom and what a deciding expression is said of (branch
// a30-yesno, round 30; each its own Builtin switch). Round 29 left the
// no-answer questions of the design sets that a modal or an instruction of
// another subject, another thing or another purpose decides: "Business
// customers can ask for a VAT invoice" for whether a private customer can
// send a part back, "Book a repair" for whether one can have one's money
// back instead of a repair, "Book a repair" for whether a repair partner
// gets a bonus (a thing no visible document names), "To pair the K50 with
// the Hollin Home app, hold the temperature dial down …" for how to turn
// the ring light off. None names a corpus word:
//
//   - Subject ("+subject"): a modal whose subject is a noun restricted by
//     a word the question does not hold ("Business customers can …")
//     decides a yes/no question only when its sentence is about what the
//     clause that asks asks (Decides's test, decidesAsked): it says what
//     that subject may do, not what the asker may; so does an instruction
//     after it in its chunk ("Add your VAT number at checkout"), which is
//     addressed to that subject;
//   - Instead ("+instead"): a modal or an instruction whose sentence holds
//     a word of the question only in a phrase the question sets aside
//     ("instead of a repair", "rather than", "other than", "apart from",
//     "except") decides nothing the question asks;
//   - Unnamed ("+unnamed"): a modal or an instruction does not decide
//     whether one gets, has or receives a thing, or whether something is
//     a thing, that no visible document names, in any form or by a
//     substitute ("do we get a bonus", "is that a problem version"):
//     builtin:coverage-v9's "nothing answers whether there is a thing no
//     visible document mentions", for the other yes/no questions;
//   - Purpose ("+purpose"): an instruction in a sentence stating its
//     purpose ("To pair the K50 with the Hollin Home app, hold …")
//     answers a "how" question only when the part of the question that
//     asks (its sentences ending with a question mark, all of it when none
//     does) holds a word of that purpose (in any form or by a substitute; the codes the
//     question names and the background words left out).
type decider struct {
	an      *terms.Analyzer
	covers  func(map[string]bool, string) bool
	subject bool // Builtin.Subject
	instead bool // Builtin.Instead
	purpose bool // Builtin.Purpose
	// qterms are the question's terms (Subject's test of a modifier).
	qterms []string
	// aside holds the terms the question names only in a phrase setting a
	// thing aside (Builtin.Instead); asking the terms of the parts of the
	// question that end with a question mark (askingSentences) less
	// those.
	aside  map[string]bool
	asking []string
	// unnamed is the thing a yes/no question asks whether one gets or is,
	// as written, when no visible document names its head (Builtin.Unnamed).
	unnamed string
	// codes are the terms of the codes the question names; vocab the
	// visible vocabulary (background words, Purpose).
	codes map[string]bool
	vocab Vocabulary
}

var (
	// reAsideOf is a phrase a question sets a thing aside with ("instead
	// of a repair"); the thing runs to the next preposition, conjunction or
	// mark (asideStop).
	reAsideOf = regexp.MustCompile(`(?i)\b(?:instead of|rather than|other than|apart from|except for|except|besides)\s+([^,.;:?!]+)`)
	// reGetsThing is a yes/no question whether the asker (or a party) gets,
	// has or receives a thing, or whether something is a thing: the thing
	// is group 1 or 2.
	reGetsThing = regexp.MustCompile(`(?i)\b(?:do|does|did|can|could|will|would|shall|should)\s+(?:i|we|you|they|customers|partners)\s+(?:still\s+|also\s+|ever\s+|then\s+)?(?:get|have|receive|earn|be given|be paid|qualify for)\s+(?:a|an|any|some|the|my|our|your|their)\s+([^,.;:?!]+)|\b(?:is|are|was)\s+(?:that|this|it|these|those)\s+(?:a|an|any)\s+([^,.;:?!]+)`)
	// rePurpose is a sentence opening with its purpose: "To pair the K50
	// with the app, hold …".
	rePurpose = regexp.MustCompile(`(?i)^\s*(?:to|in order to)\s+([^,;:]+),`)
	// reModalIn is a modal in a sentence.
	reModalIn = regexp.MustCompile(`(?i)\b(?:` + modalWords + `)\b`)
	// reBeforeModal is the noun phrase before a modal: its words, the
	// modal right after.
	reBeforeModal = regexp.MustCompile(`(?i)((?:[\p{L}][\p{L}'-]*\s+)+)(?:` + modalWords + `)\b`)
)

// asideStop ends the thing a phrase sets aside, or the thing a question
// asks whether one gets.
var asideStop = wordSet("under", "for", "with", "in", "on", "at", "to", "from", "and", "or", "but", "if", "when",
	"because", "so", "of", "instead", "rather", "by", "after", "before", "while", "as", "since", "inside", "within", "which", "that", "who")

// determiners open a noun phrase; they are no modifier of its head.
var determiners = wordSet("the", "a", "an", "our", "your", "my", "their", "its", "his", "her", "all", "some", "any",
	"most", "many", "every", "each", "these", "those", "this", "that", "no", "only", "also", "you", "we", "they",
	"i", "he", "she", "it", "there", "which", "who", "and", "or", "but", "not")

// deciderOf reads the question for the readings above; nil when all four
// are off.
func (b *Builtin) deciderOf(question string, ents []Entity, vocab Vocabulary, related map[string][]synonym, covers func(map[string]bool, string) bool) *decider {
	if !b.Subject && !b.Instead && !b.Unnamed && !b.Purpose {
		return nil
	}
	d := &decider{an: b.an, covers: covers, subject: b.Subject, instead: b.Instead, purpose: b.Purpose,
		qterms: b.an.Terms(question), aside: map[string]bool{}, codes: map[string]bool{}, vocab: vocab}
	for _, e := range ents {
		if e.Code {
			for _, t := range e.Terms {
				d.codes[t] = true
			}
		}
	}
	outside := question
	for _, m := range reAsideOf.FindAllStringSubmatchIndex(question, -1) {
		thing := upToStop(question[m[2]:m[3]], 4)
		outside = strings.Replace(outside, question[m[0]:m[1]], " ", 1)
		for _, t := range b.an.Terms(thing) {
			d.aside[t] = true
		}
	}
	rest := b.an.Set(outside)
	for t := range d.aside {
		if rest[t] {
			delete(d.aside, t) // named outside the phrase too
		}
	}
	for _, t := range b.an.Terms(askingSentences(question)) {
		if !d.aside[t] && !slices.Contains(d.asking, t) {
			d.asking = append(d.asking, t)
		}
	}
	if b.Unnamed {
		for _, m := range reGetsThing.FindAllStringSubmatch(question, -1) {
			thing := m[1] + m[2]
			ws := strings.Fields(upToStop(thing, 3))
			if len(ws) == 0 {
				continue
			}
			ts := b.an.Terms(ws[len(ws)-1])
			if len(ts) == 1 && vocab.DocFreq(ts[0]) == 0 && len(related[ts[0]]) == 0 && !entityTerm(ents, ts[0]) {
				d.unnamed = strings.Join(ws, " ")
				break
			}
		}
	}
	return d
}

// askingSentences is the parts of question that end with a question
// mark ("how do i factory reset my K50?" of "… it just won't pair with
// my old android phone"); question when none does.
func askingSentences(question string) string {
	var out []string
	for _, s := range strings.SplitAfter(question, "?") {
		if strings.HasSuffix(strings.TrimSpace(s), "?") {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return question
	}
	return strings.Join(out, " ")
}

// upToStop is text's words up to the first asideStop word, at most n.
func upToStop(text string, n int) string {
	var out []string
	for _, w := range strings.Fields(text) {
		if asideStop[strings.ToLower(strings.Trim(w, `"'()`))] || len(out) == n {
			break
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// modalOrInstruction reports whether expr, an expression deciding a
// yes/no question, is a modal or an instruction (several words: "book
// a"), not a polarity word (decidesAsked's distinction).
func modalOrInstruction(expr string) bool {
	e := strings.TrimSpace(expr)
	return reModalWord.MatchString(e) || strings.Contains(e, " ")
}

// offDecider says why expr, an expression of the type t found in
// sentence, does not decide or answer what the question asks (see
// decider); "" when it does, or when the readings are off.
func (r *reading) offDecider(t answertype.Question, text, sentence, expr string) string {
	d := r.decider
	if d == nil {
		return ""
	}
	switch t.Type {
	case answertype.YesNo:
		if !modalOrInstruction(expr) {
			return ""
		}
		if d.unnamed != "" {
			return "no document you can see names " + strings.TrimSpace(d.unnamed)
		}
		if d.instead && len(d.aside) > 0 && d.onlyAside(sentence) && (r.about == nil || !r.about.holdsVerb(sentence) && !r.about.namesCode(sentence)) {
			return "said of what the question asks instead of"
		}
		if d.subject && r.about != nil && !r.about.decidesAsked(sentence, expr) {
			if subj := d.otherSubject(sentence, expr); subj != "" {
				return "said of " + subj + ", whom the question does not name"
			}
			if reModalWord.MatchString(strings.TrimSpace(expr)) {
				return ""
			}
			// an instruction after such a modal is addressed to its subject
			for _, s := range citation.Sentences(text) {
				if s == sentence {
					break
				}
				for _, m := range reModalIn.FindAllString(s, -1) {
					if subj := d.otherSubject(s, m); subj != "" {
						return "addressed to " + subj + ", whom the question does not name"
					}
				}
			}
		}
	case answertype.Procedure:
		if d.purpose {
			if p := d.otherPurpose(sentence); p != "" {
				return "the way to " + p + ", which the question does not ask"
			}
		}
	}
	return ""
}

// onlyAside reports whether sentence holds a term the question sets aside
// and no other term of the clause that asks (nor a substitute of one).
func (d *decider) onlyAside(sentence string) bool {
	have := d.an.Set(sentence)
	for t := range d.aside {
		if have[t] {
			return !slices.ContainsFunc(d.asking, func(t string) bool { return d.covers(have, t) })
		}
	}
	return false
}

// otherSubject is the subject of the modal expr in sentence when a word
// restricts it that the question does not hold, in any form or by a
// substitute ("Business customers"); "" otherwise.
func (d *decider) otherSubject(sentence, expr string) string {
	e := strings.TrimSpace(expr)
	for _, m := range reBeforeModal.FindAllStringSubmatchIndex(sentence, -1) {
		// the modal matched is expr: the match ends with it (an
		// instruction longer than the match is not it)
		if m[1] < len(e) || !strings.EqualFold(strings.TrimSpace(sentence[m[1]-len(e):m[1]]), e) {
			continue
		}
		ws := strings.Fields(sentence[m[2]:m[3]])
		// the noun phrase: the words back to a determiner, a pronoun or
		// a function word
		i := len(ws)
		for i > 0 && !determiners[strings.ToLower(ws[i-1])] && !closedClass[strings.ToLower(ws[i-1])] {
			i--
		}
		np := ws[i:]
		if len(np) < 2 {
			continue
		}
		for _, w := range np[:len(np)-1] {
			ts := d.an.Terms(w)
			if len(ts) != 1 || d.codes[ts[0]] || answertype.NumberWord(strings.ToLower(w)) {
				continue
			}
			mod := map[string]bool{ts[0]: true}
			if !slices.ContainsFunc(d.qterms, func(q string) bool { return d.covers(mod, q) }) {
				return strings.Join(np, " ")
			}
		}
	}
	return ""
}

// otherPurpose is the purpose sentence opens with when the part of the
// question that asks holds none of its words (codes and background words left out), in
// any form or by a substitute; "" otherwise.
func (d *decider) otherPurpose(sentence string) string {
	m := rePurpose.FindStringSubmatch(sentence)
	if m == nil {
		return ""
	}
	have := map[string]bool{}
	for _, t := range d.an.Terms(m[1]) {
		if !d.codes[t] && !background([]string{t}, d.vocab) {
			have[t] = true
		}
	}
	if len(have) == 0 || slices.ContainsFunc(d.asking, func(t string) bool { return d.covers(have, t) }) {
		return ""
	}
	return strings.TrimSpace(m[1])
}
