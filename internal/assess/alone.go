package assess

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/postag"
)

// V38Model names the builtin assessor without Builtin.Alone:
// builtin:coverage-v38, kept selectable.
const V38Model = "builtin:coverage-v38"

// alone (Builtin.Alone; builtin:coverage-v40 sets aloneV40, rank 1 with
// every guard; another value is named "-aloneN") reads the chunks after the first, down to a rank in the
// assessor's order, each judged alone — the question with that one chunk
// as the evidence, the readings judging it as they judge the first chunk
// — and returns the first such judgement that accepts. It is asked only
// when the judgement of all the evidence refuses, so it changes no
// acceptance, only a refusal: the focus and wide readings take only the
// first chunk (FocusRank, ReadRank 0), and a chunk below it that they
// would accept alone ("what is the hourly rate" on the partner's rates
// page, second after the partner handbook) is otherwise never read so
// (round 36, docs/log/round-36-a36-wide.md).
//
// The low four bits of Alone are the rank; the bits above them guard
// what a chunk below the first may be accepted on:
//
//   - aloneWhole: only by a reading of the whole question (the coverage
//     rules and their thesaurus tries, the wide reading), not by one of
//     the clause that asks or of one sentence (the focus, sentence and
//     states readings), which lean on the first chunk being the one
//     ranked first for the whole question.
//   - aloneKey: only a chunk holding the question's most specific known
//     word (in any of its forms or through a relative the thesaurus
//     gives): below the first, a chunk must show it is about what the
//     question is about.
//   - aloneKnown: only for a question whose clause that asks names no
//     thing no visible document names (a noun no visible chunk holds):
//     no chunk can be seen to hold what such a noun asks for, and only
//     the first chunk's rank vouches for the rest.
//   - aloneOwn: not through the thesaurus tries of the coverage rules
//     (Kin, Hyp, Defined: a question word the chunk lacks credited through
//     a relative, a hypernym or a word defined by it): below the first
//     such credits are weak, as round 31 found for KinRank ("high" as
//     "level", "care" as "treatment" on SciFact's abstracts).
//   - aloneNamed (round 37): only when the first chunk holds what the
//     question asks about — each of its entities, its most specific known
//     word and enough of its weight — but no answer of the type it asks
//     for (namesOnly): the top of the ranking is about the question and
//     only its answer is missing, as on the partner handbook that names
//     the hourly rate its partners are paid and states none. When the
//     first chunk is refused for what it is about, a chunk below it
//     accepted alone is a page about something else that happens to hold
//     the question's words and a value: what the lower chunks of a
//     question no document answers look like
//     (docs/log/round-37-a37-wide.md).
func (b *Builtin) alone(ctx context.Context, req Request, vocab Vocabulary, question string, first aloneFirst) (Result, bool, error) {
	if b.Alone&aloneNamed != 0 && !first.names {
		return Result{}, false, nil
	}
	rank := b.Alone & aloneRankMask
	c := *b // the readings a chunk below the first is judged by
	// Lacks and Candidates read the judgement of all the evidence, not
	// the chunks judged alone (the caller keeps its features).
	c.lacks, c.recording = nil, false
	if b.Alone&aloneWhole != 0 {
		c.FocusCoverage = math.Inf(1) // focusTakes and focusCompared take nothing
		c.Sentence, c.States = false, false
	}
	if b.Alone&aloneOwn != 0 {
		c.Kin, c.Hyp = false, false // judgeCredited is not asked
	}
	if b.Alone&aloneKnown != 0 && b.asksUnknown(req.Question, vocab) {
		return Result{}, false, nil
	}
	var key func(e Evidence) bool
	if b.Alone&aloneKey != 0 {
		key = b.holdsKey(first)
	}
	for i := 1; i <= rank && i < len(req.Evidence); i++ {
		if key != nil && !key(req.Evidence[i]) {
			continue
		}
		res, err := c.assessAlone(ctx, req, i, vocab, question)
		if err != nil {
			return Result{}, false, err
		}
		if !res.Assessment.Sufficient {
			continue
		}
		res.Usage.Model = b.Model()
		res.Assessment.Reason = fmt.Sprintf("judged alone, the chunk ranked %d: %s", i+1, res.Assessment.Reason)
		return res, true, nil
	}
	return Result{}, false, nil
}

// aloneFirst is what alone reads of the judgement of all the evidence:
// whether the first chunk names what the question asks about but holds no
// answer of its type (namesOnly), and the reading's most specific known
// term (the coverage rules' key, with Scene its scene's words weighed
// down; "" when none) with the thesaurus's relatives of it.
type aloneFirst struct {
	names bool
	key   string
	rel   []synonym
}

// holdsKey returns whether a chunk holds the reading's most specific known
// term (first's key) in any of its forms or through a relative the
// thesaurus gives it; every chunk holds it when the question has none.
func (b *Builtin) holdsKey(first aloneFirst) func(e Evidence) bool {
	if first.key == "" {
		return func(Evidence) bool { return true }
	}
	t, rel := first.key, first.rel
	return func(e Evidence) bool {
		have := TitledMentions(b.an, e.Title, e.Text)
		return have[t] || holdsAkin(have, t) || slices.ContainsFunc(rel, func(s synonym) bool { return have[s.Term] })
	}
}

// asksUnknown reports whether the clause that asks of question, as typed,
// holds a noun (as the part-of-speech tagger reads it there) no visible
// chunk holds: a thing asked about that no document names ("where is the
// head office", "the part number of the coupling kit"), not a verb the
// documents say otherwise ("do we get paid").
func (b *Builtin) asksUnknown(question string, vocab Vocabulary) bool {
	asked, _, ents := b.readQuestion(question, vocab)
	return len(b.unknownAsked(question, asked, ents, vocab, askedNouns)) > 0
}

// What unknownAsked reads of the clause that asks.
const (
	askedWords  = iota // its content words
	askedNouns         // its nouns
	askedPhrase        // the words of its what/which phrases (AskedPhrases)
)

// unknownAsked lists the content terms of the clause that asks of
// question (its frame and question words aside) that no visible chunk
// holds in any form the analyzer reads as the same term (readFocus's
// unknown); of, askedNouns: only those of a word the part-of-speech
// tagger reads as a noun there; askedPhrase: only those of the phrase a
// "what" or "which" asks for ("what colour").
func (b *Builtin) unknownAsked(question string, asked answertype.Question, ents []Entity, vocab Vocabulary, of int) []string {
	unknown := b.readFocus(question, asked, ents, vocab).unknown
	if len(unknown) == 0 || of == askedWords {
		return unknown
	}
	in := map[string]bool{}
	switch of {
	case askedNouns:
		for _, w := range postag.Tag(answertype.Asking(question)) {
			if strings.HasPrefix(w.Tag, "NN") {
				maps.Copy(in, b.an.Set(w.Text))
			}
		}
	case askedPhrase:
		nps, _ := answertype.AskedPhrases(question)
		for _, np := range nps {
			maps.Copy(in, b.an.Set(strings.Join(np, " ")))
		}
	}
	return slices.DeleteFunc(unknown, func(t string) bool { return !in[t] })
}

// namesOnly reports whether j (the first chunk, as the judgement of all the
// evidence read it) holds what the question asks about — every entity,
// the most specific known term, enough of its weight — but no answer of
// the type a question expecting one asks for (Builtin.Alone's aloneNamed).
func (r *reading) namesOnly(j *judged, covers func(map[string]bool, string) bool) bool {
	return r.expects && !j.typed && j.entities == len(r.ents) && j.hasKey(r, covers) && j.coverage >= r.min
}

// Builtin.Alone's bits above its rank (see alone).
const (
	aloneRankMask = 15
	aloneWhole    = 16
	aloneKey      = 32
	aloneKnown    = 64
	aloneOwn      = 128
	aloneNamed    = 256
	// aloneV40 is builtin:coverage-v40's Alone: rank 1 and every guard.
	aloneV40 = 1 | aloneWhole | aloneKey | aloneKnown | aloneOwn | aloneNamed
)
