package assess

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
)

// V30Model names the builtin assessor with v31's readings of this file off
// (Builtin.Payer, SameKind): builtin:coverage-v30, kept selectable.
const V30Model = "builtin:coverage-v30"

// builtin:coverage-v31's readings of the clause that decides (branch
// a29-noans; each its own Builtin switch). Round 29 read the no-answer
// questions of the design sets the builtin answered: several were
// accepted on an amount the page states, but of another payer, of another
// kind or under another condition — "order a free replacement" for what a
// replacement costs Hollin, "Delivery is free on parts orders over £30"
// (after "Standard delivery … costs £3.95") for the price of next-day
// delivery, "Collection by courier is free for appliances under warranty"
// for the courier's charge out of warranty. A light reading of the
// decider's clause and of the question's (who pays, which kind, which
// condition), none naming a corpus word:
//
//   - Payer (on in v31): "free" (the price the one who receives a thing
//     pays) is no answer to a "how much" question asking what the
//     addressee or a named party pays ("how much do you pay the repair
//     firms": "pay" with a payee after it; "what does it cost Hollin":
//     "cost" and a name); when the addressee or a name is the subject of
//     "pay", an amount answers only in a sentence saying who pays ("pays",
//     "paid", "reimburses");
//   - SameKind (on in v31): the kind reading (restricted, otherKind)
//     sets aside a sentence naming the asked head only with another
//     modifier ("Standard delivery" for "next-day delivery"); a sentence
//     naming the head bare after such a sentence of its chunk ("Delivery
//     is free on parts orders over £30") continues what the page says of
//     that other kind, and is set aside too;
//   - Condition ("+condition", off by default): an amount whose clause
//     states a condition (a preposition of being inside — under, within,
//     inside, in — and a noun: "under warranty") whose opposite the
//     question states (out of, outside, beyond, without, no longer under,
//     and the same noun: "out of warranty", "out-of-warranty"), or the
//     reverse, is said of another case;
//   - AmountOf ("+amountof", off by default): PeriodOf's test for an
//     amount of money: a "how much" question is answered by an amount
//     whose clause holds a content word of the clause that asks (in any
//     form, or a substitute), one of its verbs or frame words, or whose
//     sentence names a code the question names, or whose chunk's title
//     holds such a word; or when a sentence of the evidence states such
//     an amount (not set aside by Condition or Payer). "Out-of-warranty
//     repairs carry a £25 inspection fee" is no price of a courier's
//     collection.
//
// Condition and AmountOf together refused one no-answer question of the
// design sets (fresh11 u84) and lost an answerable one of the confirm
// sets (fresh16, WordNet and without), so no named model turns them on.
type qualified struct {
	b         *Builtin    // its switches: Condition, Payer, AmountOf, SameKind
	conds     []condition // the conditions the question states (Builtin.Condition)
	other     string      // the payer the question names when it is not the asker: "you", a name (Builtin.Payer)
	byPay     bool        // other is the subject of "pay" ("how much do you pay …"), not the object of "cost"
	anyAmount bool        // some chunk of the evidence states an amount of what is asked (a Money question)
	whys      []string    // the reasons offQualified gave, for qualifiedAside
}

// A condition is a noun (a term) stated with a preposition of being
// inside it (in true) or outside it (in false): "under warranty",
// "out of warranty".
type condition struct {
	noun string
	in   bool
	text string // as written, for the reason
}

var (
	// reCondition finds a condition: a preposition of being inside or
	// outside, an optional determiner, a word (its noun).
	reCondition = regexp.MustCompile(`(?i)\b(no longer under|not under|out[ -]of|outside(?: of)?|beyond|without|under|within|inside|in)[ -](?:(?:the|a|an|its|your|their|our|my)\s+)?([a-z][a-z]+)\b`)
	// rePayerOther is a question asking what the addressee or a named
	// party pays: "do you pay", "does Hollin pay", "cost Hollin".
	rePayerOther = regexp.MustCompile(`(?i)\b(?:do|does|did|will|would|should)\s+([a-z]+)\s+pay\s+(?:(?:the|a|an|our|their|your|its)\s+)?([a-z]+)|\bcosts?\s+([a-z]+)\b`)
	// rePay is a sentence saying who pays.
	rePay = regexp.MustCompile(`(?i)\b(?:pays?|paid|paying|reimburses?|reimbursed)\b`)
)

// conditionsOf lists the conditions text states (see condition), their
// nouns read as terms; a noun that is a number word or a function word is
// none.
func conditionsOf(an *terms.Analyzer, text string) []condition {
	var out []condition
	for _, m := range reCondition.FindAllStringSubmatch(text, -1) {
		prep, noun := strings.ToLower(m[1]), strings.ToLower(m[2])
		if closedClass[noun] || answertype.NumberWord(noun) {
			continue
		}
		ts := an.Terms(noun)
		if len(ts) != 1 {
			continue
		}
		in := prep == "under" || prep == "within" || prep == "inside" || prep == "in"
		out = append(out, condition{noun: ts[0], in: in, text: strings.TrimSpace(m[0])})
	}
	return out
}

// qualifiedOf reads the question for v31's readings (see qualified); nil
// when all four are off.
func (b *Builtin) qualifiedOf(question string, ents []Entity, vocab Vocabulary) *qualified {
	if !b.Condition && !b.Payer && !b.AmountOf && !b.SameKind {
		return nil
	}
	q := &qualified{b: b}
	if b.Condition {
		q.conds = conditionsOf(b.an, question)
	}
	if b.Payer {
		q.other, q.byPay = payerOther(question, func(w string) bool {
			ts := b.an.Terms(strings.ToLower(w))
			return len(ts) == 1 && !closedClass[strings.ToLower(w)] &&
				(entityTerm(ents, ts[0]) && unicode.IsUpper([]rune(w)[0]) || background(ts, vocab))
		})
	}
	return q
}

// notPayee are the words after "pay" that name no payee: prepositions,
// pronouns of the thing paid, amounts and manners.
var notPayee = wordSet("for", "to", "in", "on", "at", "by", "of", "with", "it", "that", "this", "them", "up", "back",
	"out", "off", "over", "extra", "more", "less", "anything", "nothing", "much", "twice", "again", "now", "later",
	"online", "upfront", "separately", "cash", "card", "postage", "delivery", "shipping", "vat", "tax", "fee", "fees", "price")

// payerOther is the payer a question about paying names when it is not
// the asker, and whether it is the subject of "pay" (not the object of
// "cost"): the addressee or a name paying someone ("how much do you pay
// the repair firms": "pay" with its payee after it; "how much do you pay
// for delivery" is the generic "you", a customer's question), or a name
// a thing costs ("what does it cost hollin"); isName tells a name
// (an entity the question names, or a background word: the company's
// own name). "" when none is.
func payerOther(question string, isName func(w string) bool) (string, bool) {
	for _, m := range rePayerOther.FindAllStringSubmatch(question, -1) {
		if m[1] != "" && !notPayee[strings.ToLower(m[2])] && (strings.EqualFold(m[1], "you") || isName(m[1])) {
			return m[1], true
		}
		if m[3] != "" && isName(m[3]) {
			return m[3], false
		}
	}
	return "", false
}

// offQualified says, in the asker's terms, why expr, an expression of the
// type t found in sentence, a sentence of a chunk under title, is not
// what the question asks (see qualified); "" when it is, or when the
// readings are off.
func (r *reading) offQualified(t answertype.Question, title, text, sentence, expr string) string {
	q := r.qualified
	if q == nil {
		return ""
	}
	why := r.offQualifiedWhy(t, title, text, sentence, expr)
	if why != "" && !slices.Contains(q.whys, why) {
		q.whys = append(q.whys, why)
	}
	return why
}

// qualifiedAside is what a refusal for low coverage adds when the best
// chunk's expression of the expected type was set aside by v31's
// readings: "; it holds only <expr> (<why>)"; "" otherwise.
func (r *reading) qualifiedAside(ev *Evidence) string {
	q := r.qualified
	if q == nil || ev == nil {
		return ""
	}
	aside := r.aside[ev.ChunkID]
	if aside == "" || !slices.ContainsFunc(q.whys, func(w string) bool { return strings.Contains(aside, "("+w+")") }) {
		return ""
	}
	return "; it holds only " + aside
}

// offQualifiedWhy is offQualified's reading.
func (r *reading) offQualifiedWhy(t answertype.Question, title, text, sentence, expr string) string {
	q := r.qualified
	if q.b.SameKind {
		if other := q.b.continuesKind(text, sentence, r.kinds); other != "" {
			return "said of " + other + ", and the question asks of another kind"
		}
	}
	if t.Type != answertype.Money {
		return ""
	}
	if why := q.otherCase(sentence, expr); why != "" {
		return why
	}
	if q.b.AmountOf && !q.anyAmount && r.about != nil && !r.about.periodOfAsked(sentence, expr) && !r.about.holds(title) {
		return "an amount of " + strings.TrimSpace(clauseOf(sentence, expr)) + ", not of what the question asks"
	}
	return ""
}

// otherCase says why expr, an amount in sentence, is said of another
// case than the question's (Condition) or paid by another payer (Payer);
// "" when it is not.
func (q *qualified) otherCase(sentence, expr string) string {
	if len(q.conds) > 0 { // Builtin.Condition, and the question states one
		for _, c := range conditionsOf(q.b.an, clauseOf(sentence, expr)) {
			for _, qc := range q.conds {
				if c.noun == qc.noun && c.in != qc.in {
					return "said " + c.text + ", and the question asks " + qc.text
				}
			}
		}
	}
	if q.other != "" && (reFreeWord.MatchString(strings.TrimSpace(strings.ToLower(expr))) || q.byPay && !rePay.MatchString(sentence)) {
		pays := " pays"
		if strings.EqualFold(q.other, "you") {
			pays = " pay"
		}
		return "the price to the one who receives it, and the question asks what " + q.other + pays
	}
	return ""
}

// statesAmount reports whether a sentence of text states an amount of
// what the clause that asks asks (PeriodOf's test, with Elsewhere's
// strictness when a is strict) that is said of the question's case and
// payer (otherCase): AmountOf's evidence allowance.
func (q *qualified) statesAmount(a *about, t answertype.Question, text string) bool {
	return a.statesElsewhere(t, text, func(s, ex string) bool { return q.otherCase(s, ex) == "" })
}

// continuesKind is, when sentence names the head of one of kinds only
// bare ("Delivery is free …") and a sentence of text before it names that
// head only as another kind ("Standard delivery takes …"), that other
// kind as written: the bare head continues what the page was saying of
// it, not of the kind the question asks ("next-day delivery"); "" when
// none does (Builtin.SameKind).
func (b *Builtin) continuesKind(text, sentence string, kinds []kind) string {
	if len(kinds) == 0 || b.otherKind(sentence, kinds) {
		return ""
	}
	for _, k := range kinds {
		if !b.bareHead(sentence, k) {
			continue
		}
		for _, s := range citation.Sentences(text) {
			if s == sentence {
				break
			}
			if b.otherKind(s, []kind{k}) {
				return b.kindPhrase(s, k)
			}
		}
	}
	return ""
}

// bareHead reports whether every mention of k's head in sentence has no
// word before it in its clause (the sentence's first word, or after a
// comma).
func (b *Builtin) bareHead(sentence string, k kind) bool {
	fields := strings.Fields(sentence)
	seen := false
	for i, f := range fields {
		if ts := b.an.Terms(f); len(ts) != 1 || ts[0] != k.head {
			continue
		}
		if i > 0 && !strings.ContainsAny(fields[i-1], ",;:") {
			return false
		}
		seen = true
	}
	return seen
}

// kindPhrase is the first mention of k's head in sentence with the word
// before it, as written ("Standard delivery").
func (b *Builtin) kindPhrase(sentence string, k kind) string {
	fields := strings.Fields(sentence)
	for i, f := range fields {
		if ts := b.an.Terms(f); len(ts) == 1 && ts[0] == k.head && i > 0 {
			return fields[i-1] + " " + strings.Trim(f, ".,;:?!")
		}
	}
	return ""
}
