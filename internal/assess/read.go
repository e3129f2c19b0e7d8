package assess

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
)

// V9Model names the builtin assessor with v10's wide reading off
// (Builtin.Read): builtin:coverage-v9, kept selectable.
const V9Model = "builtin:coverage-v9"

// The wide reading (builtin:coverage-v10, Builtin.Read) is a third way
// for the builtin assessor to accept a chunk, tried when the coverage
// rules and the focus reading refuse. Askers who write as they speak
// ("my kid knocked the blender jug off the counter ... will the guarantee
// pay for a new one?") use many words no visible document uses; the
// coverage rules weigh each such word as much as an average known one, and
// the focus reading keeps only the clause that asks, which may hold no
// word the documents use at all. The wide reading judges a chunk on every
// word of the question, scene and clause that asks alike, that can tell
// one visible chunk from another:
//
//   - a word no visible chunk holds is left out, as in the focus
//     reading: it cannot tell chunks apart; whether the chunk answers is
//     left to the other checks;
//   - a word is matched through its derivations and spellings (akin):
//     "monthly" and "month", "guaranteed" and "guarantee", "organise" and
//     "organize", "centre" and "center" are one word; a question word no
//     visible chunk holds counts when a derivation of it is one they hold;
//   - generic words (genericWords: "new", "one", "thing", "put", "still")
//     never count: in a corpus of a few thousand chunks they are rare
//     enough to look specific, and say nothing of what is asked;
//   - every entity the focus reading requires must be named whole, a code
//     asked for by its noun must come with its noun, and an answer of the
//     expected type must sit near the question's words, as in the other
//     readings; nothing is accepted for a question whether there is a
//     thing no visible document mentions (absentThing).
//
//   - a question that expects no particular type and whose clause that
//     asks holds a word no visible chunk holds is never accepted this
//     way, as in the focus reading;
//   - the chunk must hold at least minTopic words of the question that
//     are no entity's and no number.
//
// A chunk among the first ReadRank+1 retrieved is accepted when it covers
// ReadCoverage of the weight (IDF over the visible chunks) of those words.
// Everything is counted over the chunks the principal may see.

// V14Model names the builtin assessor with v16's related reading off
// (Builtin.Related): builtin:coverage-v14, kept selectable.
const V14Model = "builtin:coverage-v14"

// V16Model names the builtin assessor with v17's joint reading off
// (Builtin.Joint): builtin:coverage-v16, kept selectable.
const V16Model = "builtin:coverage-v16"

// builtin:coverage-v16 (Builtin.Related) lets the wide reading count a
// question word as held by a chunk that holds a word the thesaurus
// relates to it (WordNet's synonyms and derivations) and the asker's
// visible chunks use (Builtin.related): "how much water can the K50 hold"
// is judged on a chunk stating its "capacity" as on one saying "holds".
// Everything else about the reading stands: only the first ReadRank+1
// retrieved chunks, every entity named whole, at least minTopic topic
// words held, ReadCoverage of the weight, and an answer of the expected
// type near the question's words (or their relatives). The coverage
// rules, the focus reading and the sentence reading are unchanged:
// relatives in the focus reading accepted two no-answer questions on the
// development sets (docs/log/evaluation.md, round 14). v15 (round 13's
// learned acceptance, never a default) was removed in the same round.
// The trace's reason names each relative the chunk was credited with.

// relatedCovers extends covers (Builtin.Related): a chunk holding a
// visible relative of a question term covers it.
func relatedCovers(covers func(map[string]bool, string) bool, related map[string][]synonym) func(map[string]bool, string) bool {
	if len(related) == 0 {
		return covers
	}
	return func(have map[string]bool, t string) bool {
		return covers(have, t) || slices.ContainsFunc(related[t], func(s synonym) bool { return have[s.Term] })
	}
}

// genericWords are English words too general to tell what a question is
// about, as the analyzer spells them: light verbs, vague nouns, and
// adverbs of degree and time. Stored as typed; see genericTerms. A word
// whose stem a content word shares is left out ("us", stemmed as "use"
// and "used" are).
var genericWords = []string{
	"new", "one", "ones", "thing", "things", "something", "anything", "stuff", "bit", "lot", "way", "kind", "sort",
	"put", "get", "got", "go", "goes", "going", "gone", "went", "come", "came", "make", "made", "take", "took",
	"want", "need", "give", "let", "keep", "try", "tell", "say", "says", "said", "know", "think", "see", "look",
	"still", "just", "really", "actually", "even", "also", "ever", "now", "then", "will", "would", "should",
	"could", "might", "must", "shall", "sure", "right", "wrong", "good", "bad", "ok", "okay", "please", "thanks",
	"me", "you", "we", "they", "them", "someone", "anyone", "people", "time", "times",
}

// hedgeWords (builtin:coverage-v14, Builtin.Hedges) are adverbs and
// adjectives of what is usual or approximate ("how long's the usual
// turnaround", "roughly how long"): they say how exact an answer the
// asker expects, not what it is about. Words that also name a kind in
// technical text ("normal", "normally", whose stem is "normal", "average",
// "ordinary": "normal human aging",
// "average power") are not among them (a SciFact claim about "normal
// human aging" was accepted on other ageing papers with "normal" here).
var hedgeWords = []string{"usual", "usually", "typical", "typically", "roughly", "approximately",
	"approx", "generally"}

// genericTerms returns the analyzed terms of genericWords.
// NewBuiltin computes them once; a Builtin made otherwise computes them on
// each call.
func (b *Builtin) genericTerms() map[string]bool {
	if b.Hedges && b.hedged != nil {
		return b.hedged
	}
	if !b.Hedges && b.generic != nil {
		return b.generic
	}
	out := map[string]bool{}
	words := genericWords
	if b.Hedges {
		words = append(slices.Clone(words), hedgeWords...)
	}
	for _, w := range words {
		for _, t := range b.an.Terms(w) {
			out[t] = true
		}
	}
	return out
}

// spellings are British spellings and their American forms, as the
// analyzer's stems end or hold them ("organis" for "organiz", "centr" for
// "center").
var spellings = [][2]string{{"is", "iz"}, {"our", "or"}, {"tr", "ter"}, {"ys", "yz"}, {"ogu", "og"}, {"ll", "l"}}

// spelled returns a term in one spelling (see spellings): the American
// form of each British ending it holds.
func spelled(t string) string {
	for _, s := range spellings {
		if strings.HasSuffix(t, s[0]) {
			return strings.TrimSuffix(t, s[0]) + s[1]
		}
	}
	return t
}

// minAkin is the shortest stem that is matched through derivation; a
// shorter one ("part", "set") is too often another word's start.
const minAkin = 5

// maxSuffix is the longest ending derivation may add to a stem ("monthli"
// from "month", "guarante" from "guarant").
const maxSuffix = 3

// akin reports whether two analyzed terms are one word in other forms
// (see the wide reading): equal in one spelling, or one a stem of at
// least minAkin letters that the other extends by at most maxSuffix.
func akin(a, b string) bool {
	if a == b {
		return true
	}
	if strings.Contains(a, runSeparator) || strings.Contains(b, runSeparator) {
		return false
	}
	a, b = spelled(a), spelled(b)
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= minAkin && len(b)-len(a) <= maxSuffix && strings.HasPrefix(b, a)
}

// akinDocFreq is the visible document frequency of t or, when no visible
// chunk holds t, of the most used of its forms the visible corpus holds
// (its stem cut back to minAkin letters, in one spelling), with that form.
func akinDocFreq(t string, vocab Vocabulary) (int, string) {
	if df := vocab.DocFreq(t); df > 0 {
		return df, t
	}
	best, form := 0, ""
	for _, c := range akinForms(t) {
		if df := vocab.DocFreq(c); df > best {
			best, form = df, c
		}
	}
	return best, form
}

// akinForms lists the forms of t a visible chunk may hold instead (see
// akin) that can be looked up: its spelling variants and its stem cut back
// by up to maxSuffix letters, no shorter than minAkin.
func akinForms(t string) []string {
	var out []string
	add := func(s string) {
		if s != t && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, s := range spellings {
		if strings.HasSuffix(t, s[1]) {
			add(strings.TrimSuffix(t, s[1]) + s[0])
		}
		if strings.HasSuffix(t, s[0]) {
			add(strings.TrimSuffix(t, s[0]) + s[1])
		}
	}
	for n := len(t) - 1; n >= minAkin && len(t)-n <= maxSuffix; n-- {
		add(t[:n])
	}
	return out
}

// holdsAkin reports whether a chunk holding have holds t in some form.
func holdsAkin(have map[string]bool, t string) bool {
	if have[t] {
		return true
	}
	for h := range have {
		if akin(t, h) {
			return true
		}
	}
	return false
}

// wide is a question as the wide reading weighs it.
type wide struct {
	words []weighted // the known, non-generic content terms, key first
	ents  []Entity
	// entity holds the entities' terms; asksUnknown is true when the
	// clause that asks holds a word no visible chunk holds.
	entity      map[string]bool
	asksUnknown bool
}

// readWide reads question the wide way; f is its focus reading (for the
// entities a chunk must name).
func (b *Builtin) readWide(question string, asked answertype.Question, f *focus, vocab Vocabulary) *wide {
	frame := b.an.Set(strings.Join(asked.Frame, " "))
	generic := b.genericTerms()
	w := &wide{ents: f.ents, asksUnknown: len(f.unknown) > 0, entity: map[string]bool{}}
	for _, e := range f.ents {
		for _, t := range e.Terms {
			w.entity[t] = true
		}
	}
	n := vocab.Len()
	for _, t := range b.an.Content(question) {
		if frame[t] || generic[t] || terms.IsQuestionWord(t) || slices.ContainsFunc(w.words, func(q weighted) bool { return akin(q.term, t) }) {
			continue
		}
		df, _ := akinDocFreq(t, vocab)
		if df == 0 {
			continue
		}
		w.words = append(w.words, weighted{term: t, known: true, weight: backend.IDF(n, df)})
	}
	slices.SortStableFunc(w.words, func(a, b weighted) int { return cmp.Compare(b.weight, a.weight) })
	return w
}

// coverage is the share of the wide words' weight a chunk holding have
// covers (in any form), and how many words that are no entity's and no
// number it covers.
func (w *wide) coverage(have map[string]bool, covers func(map[string]bool, string) bool) (float64, int) {
	var total, got float64
	topic := 0
	for _, q := range w.words {
		total += q.weight
		if covers(have, q.term) || holdsAkin(have, q.term) {
			got += q.weight
			if !w.entity[q.term] && !strings.ContainsFunc(q.term, unicode.IsDigit) {
				topic++
			}
		}
	}
	if total == 0 {
		return 0, 0
	}
	return got / total, topic
}

// minTopic is how many words of the question that name no entity and are
// no number a chunk must hold for the wide reading to accept it: the
// entities say what the question is about, these what it asks of it, and
// a number ("30 days") is a value a chunk may state otherwise.
const minTopic = 1

// readWidely picks the chunk the wide reading accepts among all (in
// retrieval order), or nil; see the wide reading.
func (b *Builtin) readWidely(asked answertype.Question, w *wide, r *reading, all []*judged, covers func(map[string]bool, string) bool) (*judged, float64) {
	if len(w.words) == 0 || asked.Type == answertype.Description && w.asksUnknown {
		return nil, 0
	}
	akinCovers := func(have map[string]bool, t string) bool { return covers(have, t) || holdsAkin(have, t) }
	for j := range candidates(all, b.ReadRank, w.ents, r) {
		c, topic := w.coverage(j.have, covers)
		if c < b.ReadCoverage || topic < minTopic {
			continue
		}
		expr, typed := b.answerIn(asked, j.ev, r, akinCovers)
		if !typed || r.act != nil && !b.statesAction(r.act, asked, j.ev, covers) { // action.go
			continue
		}
		j.expr = expr
		return j, c
	}
	return nil, 0
}

// wideReason is the trace's reason for a chunk the wide reading accepted.
// covers is how the chunk's words were matched without relatives, related
// the relatives the reading also matched them by (Builtin.Related; none
// when off): each word held only through a relative is named with it —
// the word as the asker spelt it, the relative as the thesaurus spells it
// (a word whose term the chunk holds; the chunk may spell it otherwise).
func (b *Builtin) wideReason(question string, asked answertype.Question, w *wide, j *judged, cov float64, covers func(map[string]bool, string) bool, related map[string][]synonym) string {
	s := fmt.Sprintf("%s covers %.0f%% of the weight of the question's words your documents use, in any of their forms", j.title(), math.Round(100*cov))
	var as []string
	for _, q := range w.words {
		if covers(j.have, q.term) || holdsAkin(j.have, q.term) {
			continue
		}
		for _, syn := range related[q.term] {
			if j.have[syn.Term] {
				as = append(as, fmt.Sprintf("%q as %q", wordFor(b.an, question, q.term), syn.Word))
				break
			}
		}
	}
	if len(as) > 0 {
		s += " or words related to them (" + strings.Join(as, ", ") + ")"
	}
	if asked.Type != answertype.Description {
		s += fmt.Sprintf(", and holds %s near them: %q", asked.Describe(), j.expr)
	}
	return s
}
