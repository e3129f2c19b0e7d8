package assess

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// V43Model names the builtin assessor without Builtin.Agree:
// builtin:coverage-v43, kept selectable.
const V43Model = "builtin:coverage-v43"

// agreed (Builtin.Agree; builtin:coverage-v44, round 40) reads, when the
// judgement of all the evidence (and Alone's) refuses an attempt after the
// first, the chunks every earlier attempt of the run retrieved too, in the
// assessor's order. Each is judged alone, as Alone judges a chunk; a chunk
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
	if !b.searchesDiffer(req) {
		return Result{}, false, nil
	}
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
			if !res.Assessment.Sufficient && b.weakOnly(l) {
				break // the agreed chunk answers only with a weak marker: none later is taken instead
			}
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

// agreeV44 is builtin:coverage-v44's Agree: 60% of the known weight and
// 35% of the whole (the coverage rules ask 55% and the most specific
// known word).
const agreeV44 = 106035

// agreeable reports whether l (a chunk's judgement alone) is one Agree
// accepts once every attempt of the run retrieved it: refused only for
// its coverage, and holding Agree's shares of the question's weight.
func (b *Builtin) agreeable(l *lone) bool {
	return b.shares(l) && (b.Agree/100000%10 == 0 || !weakMarker(l.expr))
}

// shares reports whether l is refused only for its coverage and holds
// Agree's shares of the question's weight (the answer's marker aside).
func (b *Builtin) shares(l *lone) bool {
	known, min := float64(b.Agree/100%100)/100, float64(b.Agree%100)/100
	return b.Agree > 0 && l.judged && l.refusedForCoverage() && l.known >= known && l.coverage >= min
}

// weakOnly reports whether l would be agreeable but for its answer, a
// weak marker (Agree's hundred-thousands digit set).
func (b *Builtin) weakOnly(l *lone) bool {
	return b.Agree/100000%10 != 0 && b.shares(l) && weakMarker(l.expr)
}

// searchesDiffer reports whether two of the run's searches (req's
// earlier queries and its own) differ materially: the content terms one
// holds and the other does not number at least Agree's ten-thousands
// digit (0: any two searches agree). A rewrite that translates one word
// ("done" for "make") differs by two; agreement between such searches is
// little more than one search's.
func (b *Builtin) searchesDiffer(req Request) bool {
	need := b.Agree / 10000 % 10
	if need == 0 {
		return true
	}
	qs := make([]map[string]bool, 0, len(req.Previous)+1)
	for _, q := range append(slices.Clone(req.Previous), req.Query) {
		m := map[string]bool{}
		for _, t := range b.an.Terms(q) {
			m[t] = true
		}
		qs = append(qs, m)
	}
	for i := range qs {
		for j := i + 1; j < len(qs); j++ {
			d := 0
			for t := range qs[i] {
				if !qs[j][t] {
					d++
				}
			}
			for t := range qs[j] {
				if !qs[i][t] {
					d++
				}
			}
			if d >= need {
				return true
			}
		}
	}
	return false
}

// weakMarker reports whether expr, the expression a chunk's typed check
// found, is a word that marks an answer of nearly any question without
// saying what it is of: a modal verb ("can", "must"), a negation ("not",
// "never", "no") or a polarity word ("free", "fine", "only"). With
// Agree's hundred-thousands digit set, a chunk refused for its coverage
// is accepted on the run's agreement only with a stronger answer.
func weakMarker(expr string) bool {
	return reWeakMarker.MatchString(strings.TrimSpace(expr))
}

// reWeakMarker: modal verbs, negations and polarity words, alone.
var reWeakMarker = regexp.MustCompile(`(?i)^(?:` + modalWords + `|could|might|will|would|not|never|no|none|n't|cannot|can't|won't|free|fine|only)$`)

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
	expr                    string // the expression of the asked type ("" when no type is asked)
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
	l.expr = j.expr
	if j.expr != "" {
		l.found = fmt.Sprintf("holds %q", j.expr)
	} else {
		l.found = "the question asks for no particular type of answer"
	}
	return l
}
