package assess

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/assay-rag/assay/internal/answertype"
)

// V44Model names the builtin assessor without Builtin.Agree:
// builtin:coverage-v44, kept selectable.
const V44Model = "builtin:coverage-v44"

// agreed (Builtin.Agree; round 40's a40-acc, builtin:coverage-v45 in
// round 42) reads, when the judgement of all the evidence (and Alone's)
// refuses an attempt after the first, the chunks every earlier attempt of
// the run retrieved too, in the assessor's order. Each is judged alone by
// every reading (unlike Alone, whose aloneWhole and aloneOwn bits turn the
// focus, sentence and states readings and Kin and Hyp off); a chunk
// that judgement refuses only for how much of the question it covers (the
// coverage rules' MinCoverage, or the most specific known word it lacks)
// — it mentions every entity of the question, holds an answer of the type
// asked for, and the question asks after nothing no visible document
// names — is accepted when it holds at least Agree's hundreds (in
// percent) of the weight of the question's words the asker's documents
// use and at least its units (in percent) of the question's whole weight.
//
// Each rewrite of the loop searches other words for the same question
// (a relative put in, a word left out, the clause that asks alone); a
// chunk that every one of them retrieves is what the question's words,
// however put, lead to, and the rewrites' agreement is evidence the
// coverage of one wording cannot give. So the mechanism asks for less
// coverage of a chunk the more the run's searches agree on it: nothing
// from one search (the first attempt, the one-pass baseline), the lower
// threshold from every attempt's. A chunk the judgement alone accepts, or
// refuses for an entity it does not mention, for holding no answer of the
// asked type or for another check, is left as it is.
func (b *Builtin) agreed(ctx context.Context, req Request, vocab Vocabulary, question string) (Result, bool, error) {
	c := *b // the readings a chunk is judged alone by, as Alone's
	c.lacks, c.recording = nil, false
	for _, e := range req.Evidence {
		if !inEvery(e.ChunkID, req.PreviousChunks) {
			continue
		}
		one := req
		one.Evidence = []Evidence{e}
		one.PreviousChunks = nil
		res, err := c.assess(ctx, one, vocab, question, true)
		if err != nil {
			return Result{}, false, err
		}
		l := &res.lone
		if res.Assessment.Sufficient || !b.agreeable(l) {
			continue
		}
		out := Result{Usage: res.Usage, Accepted: []string{e.ChunkID}}
		out.Usage.Model = b.Model()
		out.Assessment = Assessment{Sufficient: true, Score: math.Round(max(l.coverage, b.MinCoverage)*1000) / 1000,
			Reason: fmt.Sprintf("retrieved by every one of the run's %d searches, %q covers %.0f%% of the weight of the question's words your documents use (%.0f%% of its whole weight) with every name it gives and %s",
				len(req.PreviousChunks)+1, e.Title, math.Round(100*l.known), math.Round(100*l.coverage), l.found)}
		return out, true, nil
	}
	return Result{}, false, nil
}

// agreeV46 is round 41's a41-second Agree (its builtin:coverage-v46,
// never main's): 60% of the known weight and 35% of the whole (the
// coverage rules ask 55% and the most specific known word).
const agreeV46 = 6035

// agreeV45 is builtin:coverage-v45's Agree (round 42, a42-agree3):
// agreeV46's shares, the chunk holding the most specific known word
// (agreeGuard 2) and the question's what/which phrase holding no word
// the caller's visible documents do not know (agreeAsked 6).
const agreeV45 = 626035

// agreeable reports whether l (a chunk's judgement alone) is one Agree
// accepts once every attempt of the run retrieved it: refused only for
// its coverage, and holding Agree's shares of the question's weight.
func (b *Builtin) agreeable(l *lone) bool {
	known, min := float64(b.Agree/100%100)/100, float64(b.Agree%100)/100
	if b.Agree > 0 && l.judged && l.refusedForCoverage() && l.known >= known && l.coverage >= min {
		if l.unasked || l.translated || l.unheaded {
			return false
		}
		switch b.agreeGuard() {
		case 2, 3: // refused for its coverage only: it holds the most specific word
			return l.hasKey
		case 4, 5: // refused for its most specific word only
			return l.coverage >= l.min
		}
		return true
	}
	return false
}

// agreeGuard is Agree's ten-thousands digit (round 41, a41-agree2): 0
// none; odd: the first attempt's confirm keeps the visible-chunk check
// (reach), so a question whose asked words no visible document holds
// with the rest is refused at once; 2, 3: the chunk must hold the most
// specific known word; 4, 5: it must meet the coverage rules' share.
func (b *Builtin) agreeGuard() int { return b.Agree / 10000 % 10 }

// agreeAsked is Agree's hundred-thousands digit (round 42, a42-agree3):
// what its acceptance asks of the question's words beyond the chunk's
// share of them. 1, 3, 4, 6: the clause that asks holds no word the
// caller's visible documents do not know (unknownAsked: any content word
// 1 and 3, a noun 4, a word of its what/which phrase 6), unless the chunk
// holds the known word the loop's search put in its place; 5, 7, 8: as 4,
// 6 and 1 with any relative the thesaurus gives the word that the chunk
// holds for it. A question asking after a thing no document names is not
// answered by a page that holds every other word of it. 2 and 3: the
// chunk holds each known word of the question it is credited with
// itself, not only a word a search put in its place (a translation of a
// word the documents use says something else than they do).
func (b *Builtin) agreeAsked() int { return b.Agree / 100000 % 10 }

// askedOf reads, for Agree's hundred-thousands digit (agreeAsked), what
// l's chunk j holds of the question's asked words: whether an asked word
// no visible document knows is neither in it nor replaced by a word it
// holds (unasked), and whether it holds a known word of the question only
// through a substitute (translated).
func (b *Builtin) askedOf(l *lone, r *reading, j *judged, question string, asked answertype.Question, ents []Entity, vocab Vocabulary, related map[string][]synonym, covers func(map[string]bool, string) bool) {
	a := b.agreeAsked()
	of, relatives := -1, false
	switch a {
	case 1, 3, 8:
		of, relatives = askedWords, a == 8
	case 4, 5:
		of, relatives = askedNouns, a == 5
	case 6, 7:
		of, relatives = askedPhrase, a == 7
	}
	if of >= 0 {
		l.unasked = slices.ContainsFunc(b.unknownAsked(question, asked, ents, vocab, of), func(t string) bool {
			return !covers(j.have, t) && !(relatives && slices.ContainsFunc(related[t], func(s synonym) bool { return j.have[s.Term] }))
		})
	}
	if a == 2 || a == 3 {
		for _, q := range r.qterms {
			if q.known && !j.dropped[q.term] && !j.have[q.term] && covers(j.have, q.term) {
				l.translated = true
			}
		}
	}
}

// headOf reads, for Agree's millions digit (agreeHead), whether l's
// chunk j covers each word of the clause that asks the digit reads that no
// visible document knows (unknownHead).
func (b *Builtin) headOf(l *lone, j *judged, question string, asked answertype.Question, ents []Entity, vocab Vocabulary, covers func(map[string]bool, string) bool) {
	l.unheaded = slices.ContainsFunc(b.unknownHead(question, asked, ents, vocab), func(t string) bool { return !covers(j.have, t) })
}

// inEvery reports whether id is among each of lists.
func inEvery(id string, lists [][]string) bool {
	for _, l := range lists {
		if !slices.Contains(l, id) {
			return false
		}
	}
	return len(lists) > 0
}

// lone is what a judgement read of its first chunk (Builtin.Agree).
type lone struct {
	judged                  bool // false: no chunk was read, or absent
	entities, typed, hasKey bool
	coverage, known         float64
	min                     float64
	found                   string // what the chunk holds of the asked type
	// unasked and translated are what askedOf read (Agree's
	// hundred-thousands digit).
	unasked, translated bool
	// unheaded: a word of the clause that asks Agree's millions digit
	// reads (agreeHead) no visible document knows and the chunk does not
	// cover (headOf).
	unheaded bool
}

// refusedForCoverage reports whether the coverage rules refused the chunk
// for its coverage or its most specific word alone: it mentions every
// entity and holds an answer of the asked type.
func (l *lone) refusedForCoverage() bool {
	return l.entities && l.typed && (!l.hasKey || l.coverage < l.min)
}

// loneOf reads j (the first chunk) for Builtin.Agree: its checks, its
// coverage, and the share of the weight of the question's known terms
// (those the asker's visible documents use, verbs left out of j's
// judgement aside) it holds.
func (r *reading) loneOf(j *judged, covers func(map[string]bool, string) bool) *lone {
	l := &lone{judged: true, entities: j.entities == len(r.ents), typed: j.typed, hasKey: j.hasKey(r, covers), coverage: j.coverage, min: r.min}
	var total, got float64
	for _, q := range r.qterms {
		if j.dropped[q.term] || !q.known {
			continue
		}
		total += q.weight
		if covers(j.have, q.term) {
			got += q.weight
		}
	}
	if total > 0 {
		l.known = got / total
	}
	if j.expr != "" {
		l.found = fmt.Sprintf("holds %q", j.expr)
	} else {
		l.found = "the question asks for no particular type of answer"
	}
	return l
}
