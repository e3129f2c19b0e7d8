package assess

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
)

// builtin:coverage-v29's two readings of what an expression is said of
// (Builtin.PeriodOf, Builtin.FreeOf). Round 26 read why the builtin
// answered the no-answer questions of the development sets: many were
// accepted on a page holding an expression of the asked type that the
// page states of something else — a delivery time for "how long is the
// guarantee", the deadline for submitting a claim for "how long does
// Hollin take to pay it", "free" courier collection deciding "does the
// warranty carry over to the new owner". Two readings, none naming a
// corpus word:
//
//   - PeriodOf: a period answers a "how long" question only when its own
//     clause (its sentence cut at commas, semicolons, colons and spaced
//     dashes) is about what the clause that asks asks: it holds a known
//     word of that clause naming no entity (in any form, or a substitute
//     of it), or one of that clause's verbs or frame words as written
//     ("takes" for "how long will it take"), or its sentence names a code
//     the question names ("E7 means …: unplug the blender for 20
//     minutes"). "Standard delivery takes 3 to 5 working days" is no
//     period of a guarantee on parts. The period is kept when a
//     sentence of the evidence states a period of what is asked (the
//     generator answers from it: "The agreement runs to 31 March 2027"
//     beside the handbook's "within 14 days");
//   - FreeOf (off by default, "+freeof": it lost an answerable question
//     whose page beside the accepted one answered; round 27's log):
//     "free" (and "no charge", "at no cost") decides a yes/no
//     question only when the question is about paying: it writes a word
//     asking for money ("cost", "charge", "pay", "fee", "free" …,
//     answertype.NamesMoney). "Collection by courier is free" says
//     nothing of whether a warranty carries over.
type about struct {
	an      *terms.Analyzer
	covers  func(map[string]bool, string) bool
	terms   []string // known terms of the clause that asks naming no entity
	verbs   []string // the verbs and frame words of the clause that asks, lowercased
	codes   []Entity // the codes the question names
	money   bool     // the question is about paying
	period  bool     // Builtin.PeriodOf
	free    bool     // Builtin.FreeOf
	decides bool     // Builtin.Decides (decides.go)
	strict  bool     // reading a sentence elsewhere for the evidence allowance with Builtin.Elsewhere
	own     []string // the terms less the background words (Builtin.Elsewhere), for the evidence allowance
	any     bool     // some chunk of the evidence states a period of what is asked (a Period question)
}

var (
	reClauseCut = regexp.MustCompile(`[,;:]|\s[-–—]\s`)
	reFreeWord  = regexp.MustCompile(`(?i)^(?:free|free of charge|no charge|no cost|no fee|at no (?:extra )?cost)$`)
)

// closedClass are English function words of four letters or more, never
// what a clause is about.
var closedClass = wordSet("will", "would", "could", "should", "shall", "might", "must", "does", "have", "that", "this",
	"these", "those", "with", "what", "when", "where", "which", "while", "long", "much", "many", "your", "they", "them",
	"their", "there", "then", "from", "into", "about", "been", "being", "were", "here", "some", "more", "most")

// aboutAsked reads what the question asks about (see about); nil when
// none of the readings that use it (PeriodOf, FreeOf, Decides, AmountOf)
// is on.
func (b *Builtin) aboutAsked(question string, qterms []weighted, ents []Entity, covers func(map[string]bool, string) bool) *about {
	if !b.PeriodOf && !b.FreeOf && !b.Decides && !b.AmountOf {
		return nil
	}
	a := &about{an: b.an, covers: covers, period: b.PeriodOf, free: b.FreeOf, decides: b.Decides}
	text := answertype.Asking(question)
	asking := b.an.Set(text)
	weighs := map[string]bool{}
	for _, q := range qterms {
		weighs[q.term] = true
		if q.known && asking[q.term] && topicTerm(ents, q.term) {
			a.terms = append(a.terms, q.term)
		}
	}
	av, _ := answertype.Verbs(question)
	for _, v := range av {
		a.verbs = append(a.verbs, strings.ToLower(v))
	}
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, ".,;:?!'\"()")
		if len(w) >= 4 && !closedClass[w] && !slices.Contains(a.verbs, w) &&
			!slices.ContainsFunc(b.an.Terms(w), func(t string) bool { return weighs[t] }) {
			a.verbs = append(a.verbs, w) // a frame word ("take" in "how long will it take")
		}
	}
	for _, e := range ents {
		if e.Code {
			a.codes = append(a.codes, e)
		}
	}
	for _, w := range strings.Fields(question) {
		w = strings.Trim(strings.ToLower(w), ".,;:?!'\"()")
		if answertype.NamesMoney(w) || w == "free" || w == "charged" || w == "paying" || w == "costing" {
			a.money = true
		}
	}
	return a
}

// clauseOf is the clause of sentence that holds expr: the sentence cut at
// commas, semicolons, colons and spaced dashes; the whole sentence when
// expr is not found in it.
func clauseOf(sentence, expr string) string {
	i := strings.Index(sentence, expr)
	if i < 0 {
		return sentence
	}
	start, end := 0, len(sentence)
	for _, sp := range reClauseCut.FindAllStringIndex(sentence, -1) {
		if sp[1] <= i {
			start = sp[1]
		} else if sp[0] >= i+len(expr) {
			end = sp[0]
			break
		}
	}
	return sentence[start:end]
}

// offAsked says, in the asker's terms, why expr, an expression of the
// type t found in sentence, a sentence of the chunk text under title, is not said of
// what the question asks (see about); "" when it is, or when neither
// reading is on (r.about nil). A period is kept when another sentence of
// the chunk states a period of what is asked: the page answers, though
// another reading may not read that sentence (a kind the question names
// with a word no page uses, "a full kettle", reads "The K50 smart kettle
// boils … in about four minutes" as another kind).
func (r *reading) offAsked(t answertype.Question, title, text, sentence, expr string) string {
	if why := r.offCounted(t, sentence, expr); why != "" { // review.go
		return why
	}
	if why := r.offQualified(t, title, text, sentence, expr); why != "" {
		return why
	}
	if why := r.offDecider(t, text, sentence, expr); why != "" {
		return why
	}
	a := r.about
	if a == nil {
		return r.offNotAsked(t, expr)
	}
	switch t.Type {
	case answertype.YesNo:
		if a.free && !a.money && reFreeWord.MatchString(strings.TrimSpace(expr)) {
			return "a price, and the question asks about none"
		}
		if a.decides && !a.decidesAsked(sentence, expr) {
			return "said in " + strconv.Quote(strings.TrimSpace(sentence)) + ", not of what the question asks"
		}
	case answertype.Period:
		if a.period && !a.any && !a.periodOfAsked(sentence, expr) && !a.statesPeriod(t, text) {
			clause := clauseOf(sentence, expr)
			return "a period of " + strings.TrimSpace(clause) + ", not of what the question asks"
		}
	}
	return r.offNotAsked(t, expr)
}

// holds reports whether clause holds a term of the clause that asks (see
// about), or a substitute of one; true when the clause that asks has none
// to hold.
func (a *about) holds(clause string) bool {
	if len(a.terms) == 0 {
		return true
	}
	have := a.an.Set(clause)
	return slices.ContainsFunc(a.terms, func(t string) bool { return a.covers(have, t) })
}

// holdsVerb reports whether clause writes a verb or frame word of the
// clause that asks in one of its regular forms ("takes" for "take").
func (a *about) holdsVerb(clause string) bool {
	for _, f := range strings.Fields(strings.ToLower(clause)) {
		f = strings.Trim(f, ".,;:?!'\"()")
		for _, v := range a.verbs {
			if f == v || f == v+"s" || f == v+"es" || f == v+"ed" || f == v+"d" || f == v+"ing" ||
				strings.HasSuffix(v, "e") && f == strings.TrimSuffix(v, "e")+"ing" {
				return true
			}
		}
	}
	return false
}

// namesCode reports whether sentence names a code the question names.
func (a *about) namesCode(sentence string) bool {
	have := a.an.Set(sentence)
	return slices.ContainsFunc(a.codes, func(e Entity) bool {
		return !slices.ContainsFunc(e.Terms, func(t string) bool { return !have[t] })
	})
}

// periodOfAsked reports whether expr, a period in sentence, is said of
// what the clause that asks asks (see about).
func (a *about) periodOfAsked(sentence, expr string) bool {
	clause := clauseOf(sentence, expr)
	return a.holds(clause) || a.holdsVerb(clause) || a.namesCode(sentence)
}

// statesPeriod reports whether a sentence of text states a period of what
// the clause that asks asks.
func (a *about) statesPeriod(t answertype.Question, text string) bool {
	for _, s := range citation.Sentences(text) {
		for _, ex := range t.Find(s) {
			if a.periodOfAsked(s, ex) {
				return true
			}
		}
	}
	return false
}
