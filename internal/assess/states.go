package assess

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// V21Model names the builtin assessor with v22's statement reading off
// (Builtin.States): builtin:coverage-v21, kept selectable.
const V21Model = "builtin:coverage-v21"

// The statement reading (builtin:coverage-v22, Builtin.States) is a fifth
// way for the builtin assessor to accept a chunk, tried last, when the
// coverage rules and the focus, wide and sentence readings all refuse. It
// asks whether a sentence of the first chunk states what the question
// asks: a value of the kind asked, about the thing asked.
//
// Round 20 measured it before writing it (docs/log/round-20-a20-accept.md,
// internal/assess/assessdev/states_test.go): of the answerable questions
// v21 refuses although the first chunk is a relevant document's, that
// chunk's sentences hold the words of the clause that asks hardly more
// often than a no-answer question's first chunk does (67 of 182 against 32
// of 268 at half their weight, with an answer of the expected type; 11
// against 14 for yes/no questions) — v21 refuses them because their words
// differ from the documents' ("jug" for "jar", "call-out" for "home
// visit"), not because no sentence states the answer. Only for the
// questions asking for a number of some kind did the two groups part (15
// against 2): the sentence holding a value of the expected type also holds
// most of the rest of the clause that asks in the answerable group's
// relevant chunks, and rarely in the no-answer group's (those ask for a
// value the page does not give, so the value it does give sits
// elsewhere). So:
//
//   - only a question asking for a number of some kind is read this way
//     (the sentence reading's numeric classes: a count, a period, a
//     frequency, a speed, a measure, an amount of money, a date), and only
//     its first chunk (in the assessor's own order), which must name every
//     entity the focus reading requires, whole, and the kind of code asked
//     for;
//   - a sentence must state a value of the expected type (in the unit of
//     the dimension the question names, not of another kind, not one the
//     question itself states) written with a number, in digits or in words:
//     "free" or "no charge" says nothing of how much a thing costs in
//     total;
//   - that sentence, the sentences either side of it and the chunk's
//     title together must hold statesShare of the weight of the clause
//     that asks's topic words (its words the visible corpus uses, less
//     entities, numbers, frame and generic words; see sentenceTopic), in
//     any of their forms. A word of a product's full name the chunk names
//     ("kettle" where the evidence writes "K50 Smart Kettle", see named.go)
//     is no topic word here: it says which thing the page is about, as an
//     entity does, and not what the question asks of it ("how long is the
//     guarantee on a Hollin kettle" is not answered by "the K50 smart
//     kettle ... can keep water warm for up to two hours"). The words of
//     the clause that asks no visible chunk holds are left out, as in the
//     focus reading: the value stated beside the rest of the question is
//     the evidence that they are a paraphrase.
//
// The score is the share held; the loop's threshold applies as to the
// other readings.

// statesShare is the share of the topic words' weight the statement
// reading's sentence must hold with its neighbours and the title.
const statesShare = 0.6

// statement is what the statement reading found in a chunk: the share of
// the topic words' weight held, the value stated and the words held.
type statement struct {
	share float64
	expr  string
	words []string
}

// readStates picks the first chunk if the statement reading accepts it
// (see above), with what it found; nil when it does not.
func (b *Builtin) readStates(asked answertype.Question, f *focus, r *reading, all []*judged, covers func(map[string]bool, string) bool) (*judged, statement) {
	if !numeric(asked.Type) {
		return nil, statement{}
	}
	topic := b.sentenceTopic(f)
	if len(topic) == 0 {
		return nil, statement{}
	}
	ev := make([]Evidence, 0, len(all))
	for _, j := range all {
		if j.with == nil && j.ev != nil {
			ev = append(ev, *j.ev)
		}
	}
	names := b.productNames(ev)
	for j := range candidates(all, 0, f.ents, r) {
		own := TitledMentions(b.an, j.ev.Title, j.ev.Text)
		naming := map[string]bool{}
		for code, ws := range names {
			if own[code] {
				maps.Copy(naming, ws)
			}
		}
		words := slices.DeleteFunc(slices.Clone(topic), func(w weighted) bool { return naming[w.term] })
		if len(words) == 0 {
			continue
		}
		if st := b.stated(asked, j.ev, words, r, covers); st.share >= statesShare {
			return j, st
		}
	}
	return nil, statement{}
}

// stated is the statement of a value of the expected type in e whose
// sentence (with its neighbours and e's title) holds the largest share of
// topic's weight (see the statement reading).
func (b *Builtin) stated(asked answertype.Question, e *Evidence, topic []weighted, r *reading, covers func(map[string]bool, string) bool) statement {
	sents := citation.Sentences(e.Text)
	sets := make([]map[string]bool, len(sents))
	for i, s := range sents {
		sets[i] = b.an.Set(s)
	}
	title := b.an.Set(e.Title)
	var best statement
	for i, s := range sents {
		if b.otherKind(s, r.kinds) {
			continue
		}
		exprs := slices.DeleteFunc(b.finds(asked, s), func(ex string) bool {
			return r.repeats(asked, ex) || !valued(ex) || b.Bound && r.otherValue(asked, s, ex) != "" || r.offAsked(asked, e.Title, e.Text, s, ex) != ""
		})
		if len(exprs) == 0 {
			continue
		}
		have := maps.Clone(title)
		for k := max(0, i-1); k <= min(len(sents)-1, i+1); k++ {
			maps.Copy(have, sets[k])
		}
		held := func(w weighted) bool { return covers(have, w.term) || holdsAkin(have, w.term) }
		if share := sentenceShare(topic, held); share > best.share {
			best = statement{share: share, expr: exprs[0], words: nil}
			for _, w := range topic {
				if held(w) {
					best.words = append(best.words, w.term)
				}
			}
		}
	}
	return best
}

// valued reports whether an expression states a value with a number: a
// digit, or a number in words ("ten speeds").
func valued(expr string) bool {
	for _, w := range strings.Fields(expr) {
		if strings.ContainsAny(w, "0123456789") || answertype.NumberWord(strings.ToLower(strings.Trim(w, ",.;:-()"))) {
			return true
		}
	}
	return false
}

// statesReason is the trace's reason for a chunk the statement reading
// accepted, in the asker's visible terms.
func (b *Builtin) statesReason(question string, asked answertype.Question, j *judged, st statement) string {
	return fmt.Sprintf("the question asks for %s, and a sentence of %s states one, %q, beside %s (%.0f%% of the weight of the words the clause that asks shares with your documents)",
		asked.Describe(), j.title(), st.expr, b.quoted(question, st.words), math.Round(100*st.share))
}

// stateSignals measures, for the harness (learned.go's features states_*
// and pred_*; internal/assess/assessdev/states_test.go), whether a
// sentence of a chunk states what the question asks: the largest share
// of the weight of the clause that asks's topic words (the focus words
// when it has none) held by a sentence holding an expression of the
// expected type (any sentence when it expects none), by it with the
// sentences either side of it, and by those and the title; the same for
// the clause that asks's verbs (-1 when it has none the corpus uses);
// the share of the question's known weight the last holds; whether the
// heaviest topic word is in the sentence itself; and the third share again
// read by wcovers, the wide reading's covers, when not nil (learned.go:
// the thesaurus's relatives).
func (b *Builtin) stateSignals(asked answertype.Question, e *Evidence, f *focus, r *reading, covers, wcovers func(map[string]bool, string) bool) [9]float64 {
	out := [9]float64{}
	if f == nil {
		return out
	}
	topic := b.sentenceTopic(f)
	if len(topic) == 0 {
		topic = f.words
	}
	var pred []weighted
	for _, w := range f.words {
		if r.askedVerbs[w.term] {
			pred = append(pred, w)
		}
	}
	if len(pred) == 0 {
		out[3], out[4], out[5] = -1, -1, -1
	}
	sents := citation.Sentences(e.Text)
	sets := make([]map[string]bool, len(sents))
	for i, s := range sents {
		sets[i] = b.an.Set(s)
	}
	title := b.an.Set(e.Title)
	held := func(have map[string]bool) func(weighted) bool {
		return func(w weighted) bool { return covers(have, w.term) || holdsAkin(have, w.term) }
	}
	wheld := held
	if wcovers != nil {
		wheld = func(have map[string]bool) func(weighted) bool {
			return func(w weighted) bool { return wcovers(have, w.term) || holdsAkin(have, w.term) }
		}
	}
	for i, s := range sents {
		if asked.Type != answertype.Description {
			exprs := slices.DeleteFunc(b.finds(asked, s), func(ex string) bool {
				return r.repeats(asked, ex) || b.Bound && r.otherValue(asked, s, ex) != "" || r.offAsked(asked, e.Title, e.Text, s, ex) != ""
			})
			if len(exprs) == 0 || b.otherKind(s, r.kinds) {
				continue
			}
		}
		win := map[string]bool{}
		for k := max(0, i-1); k <= min(len(sents)-1, i+1); k++ {
			maps.Copy(win, sets[k])
		}
		wt := maps.Clone(win)
		maps.Copy(wt, title)
		var knownTotal, got float64
		for _, w := range r.qterms {
			if w.known {
				knownTotal += w.weight
				if held(wt)(w) {
					got += w.weight
				}
			}
		}
		out[6] = max(out[6], ratio(got, knownTotal))
		for n, have := range []map[string]bool{sets[i], win, wt} {
			if len(topic) > 0 {
				out[n] = max(out[n], sentenceShare(topic, held(have)))
			}
			if len(pred) > 0 {
				out[3+n] = max(out[3+n], sentenceShare(pred, held(have)))
			}
		}
		if len(topic) > 0 && held(sets[i])(topic[0]) {
			out[7] = 1
		}
		if len(topic) > 0 {
			out[8] = max(out[8], sentenceShare(topic, wheld(wt)))
		}
	}
	return out
}
