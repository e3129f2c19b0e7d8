package assess

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
)

// V10Model names the builtin assessor with v12's sentence reading off
// (Builtin.Sentence): builtin:coverage-v10, kept selectable.
const V10Model = "builtin:coverage-v10"

// The sentence reading (builtin:coverage-v12, Builtin.Sentence) is a
// fourth way for the builtin assessor to accept a chunk, tried when the
// coverage rules, the focus reading and the wide reading refuse. The
// other readings count words over a whole chunk; a passage that answers a
// question for a value states that value in a sentence about the thing
// asked ("Replace the blades once a year with daily use" for "how often
// am I supposed to swap the blades out"), while a look-alike names the
// same things in one sentence and a value in another. So:
//
//   - only a question asking for a number of some kind is read this way
//     (answertype's numeric classes: a count, a period, a frequency, a
//     speed, a measure, an amount of money, a date): expressions of those
//     types are rare and specific, where a yes/no statement ("not"), an
//     instruction, a place ("in the box") or a name is in almost every
//     sentence;
//   - the thing asked is the clause that asks's words the visible corpus
//     uses, less its entities, numbers, frame and generic words (its
//     topic words); a question whose clause that asks has none is never
//     accepted this way, nor a question for an amount of money whose only
//     topic words ask for one ("what does it cost just to have someone
//     look at it": "cost" says what kind of answer is wanted, not what it
//     is for; answertype.NamesMoney);
//   - one sentence of the chunk must hold both an expression of the
//     expected type (in the unit of the dimension the question names, if
//     it names one; not one the question itself states) and its topic
//     words: all of them when SentenceAll is set, the heaviest of them
//     (IDF over the visible chunks) when SentenceKey is set, any of them
//     otherwise, in any of their forms (akin);
//   - the chunk must name every entity the focus reading requires, whole,
//     and the kind of code asked for, as in the other readings; a
//     comparison (chunks judged together) is not read this way.
//
// The first chunk among the first SentenceRank+1 retrieved that passes is
// accepted.

// numeric reports whether t is one of the answer types the sentence
// reading judges (see above).
func numeric(t answertype.Type) bool {
	switch t {
	case answertype.Count, answertype.Period, answertype.Frequency, answertype.Speed,
		answertype.Quantity, answertype.Money, answertype.Date:
		return true
	}
	return false
}

// sentenceTopic lists the focus words that say what the clause that asks
// is about: no entity's, no number, no generic word; heaviest first.
func (b *Builtin) sentenceTopic(f *focus) []weighted {
	generic := b.genericTerms()
	var out []weighted
	for _, w := range f.words {
		if generic[w.term] || !topicTerm(f.ents, w.term) {
			continue
		}
		out = append(out, w)
	}
	slices.SortStableFunc(out, func(a, b weighted) int { return cmp.Compare(b.weight, a.weight) })
	return out
}

// readSentences picks the chunk the sentence reading accepts among all (in
// retrieval order), with the topic word its sentence holds, the
// expression that answers and the score (sentenceShare), or nil; see the sentence reading. A sentence
// naming the thing asked only as another kind of it ("standard delivery"
// for "express delivery", see otherKind) is not read.
func (b *Builtin) readSentences(question string, asked answertype.Question, f *focus, r *reading, all []*judged, covers func(map[string]bool, string) bool) (*judged, string, string, float64) {
	if !numeric(asked.Type) {
		return nil, "", "", 0
	}
	topic := b.sentenceTopic(f)
	if len(topic) == 0 || asked.Type == answertype.Money && !slices.ContainsFunc(topic, func(w weighted) bool {
		return !answertype.NamesMoney(wordFor(b.an, question, w.term))
	}) {
		return nil, "", "", 0
	}
	if b.SentenceKey {
		topic = topic[:1]
	}
	var phrase map[string]bool // the phrase a count question counts (Builtin.Counted)
	if b.Counted && asked.Type == answertype.Count {
		phrase = b.an.Set(strings.Join(answertype.CountedPhrase(question), " "))
	}
	for j := range candidates(all, b.SentenceRank, f.ents, r) {
		for _, s := range citation.Sentences(j.ev.Text) {
			if b.otherKind(s, r.kinds) {
				continue // about another kind of the thing asked ("standard delivery")
			}
			exprs := slices.DeleteFunc(b.finds(asked, s), func(ex string) bool {
				return r.repeats(asked, ex) || b.Bound && r.otherValue(asked, s, ex) != "" || r.offAsked(asked, j.ev.Title, j.ev.Text, s, ex) != ""
			})
			if len(exprs) == 0 {
				continue
			}
			have := b.an.Set(s)
			held := func(w weighted) bool { return covers(have, w.term) || holdsAkin(have, w.term) }
			ex := exprs[0]
			if k := slices.IndexFunc(exprs, func(ex string) bool { return len(phrase) > 0 && phrase[lastTerm(b.an, ex)] }); k >= 0 {
				// "ten speeds" counts what "how many different speed
				// settings" names: the phrase's words are held.
				alone := held
				ex, held = exprs[k], func(w weighted) bool { return phrase[w.term] || alone(w) }
			}
			i := slices.IndexFunc(topic, held)
			if i < 0 || b.SentenceAll && slices.ContainsFunc(topic, func(w weighted) bool { return !held(w) }) {
				continue
			}
			return j, topic[i].term, ex, sentenceShare(topic, held)
		}
	}
	return nil, "", "", 0
}

// lastTerm is the analyzed term of an expression's last word ("speed"
// for "ten speeds"), or "".
func lastTerm(an *terms.Analyzer, expr string) string {
	ts := an.Terms(expr)
	if len(ts) == 0 {
		return ""
	}
	return ts[len(ts)-1]
}

// sentenceShare is the share of the topic words' weight a sentence holds
// (held): the sentence reading's score, 1 when it must hold them all
// (SentenceAll). The loop accepts a sufficient assessment only at a
// score of at least its threshold, as for the other readings, whose
// scores are their coverages.
func sentenceShare(topic []weighted, held func(weighted) bool) float64 {
	var total, got float64
	for _, w := range topic {
		total += w.weight
		if held(w) {
			got += w.weight
		}
	}
	return got / total
}

// sentenceReason is the trace's reason for a chunk the sentence reading
// accepted, in the asker's visible terms.
func (b *Builtin) sentenceReason(question string, asked answertype.Question, j *judged, word, expr string) string {
	return fmt.Sprintf("the question asks for %s about %q, and a sentence of %s names it and states one: %q", asked.Describe(), wordFor(b.an, question, word), j.title(), expr)
}
