package assess

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// V15Model names the builtin assessor with the learned acceptance on
// (Builtin.Learned): builtin:coverage-v15. It is not the default: under
// leave-one-set-out cross-validation, each fold's threshold chosen so that
// no training set refuses fewer no-answer questions than v14, it accepts
// nothing v14 refuses (492 of 725 answerable development questions right
// and 160 of 182 no-answer ones refused, as v14; docs/evaluation.md,
// round 13, a13-assess). The one-stage form it replaced was right on 4
// more and refused 3 fewer, which fails the rule a new default must pass
// (right up without refusal down, or refusal up without right down).
const V15Model = "builtin:coverage-v15"

// builtin:coverage-v15's learned acceptance is a last way to accept a
// chunk, tried when v14's rules and readings all refuse: a logistic
// regression over a few quantities the readings already compute for each
// retrieved chunk (Feature), its weights fitted on the development sets'
// first attempts and frozen below (acceptWeights, acceptThreshold). It
// judges only chunks a reading may accept at all (every entity of the
// clause that asks named whole, the kind of code asked for named, no
// question whether there is a thing no visible document mentions), and
// every quantity is computed from the question, the chunk and the
// statistics of the chunks the asker may see.

// Feature indexes one quantity of a (question, chunk) pair the learned
// acceptance weighs.
type Feature int

const (
	// FeatCoverage is the coverage rules' share of the question's IDF
	// weight the chunk covers.
	FeatCoverage Feature = iota
	// FeatWide is the wide reading's coverage (words in any form, generic
	// words left out).
	FeatWide
	// FeatFocus is the focus reading's coverage of the clause that asks.
	FeatFocus
	// FeatKey is 1 when the chunk holds the question's most specific
	// known word.
	FeatKey
	// FeatTypeFound is 1 when the question expects a particular answer
	// type and the chunk holds an expression of it near the question's
	// words; FeatTypeMissing when it expects one and the chunk holds none.
	FeatTypeFound
	FeatTypeMissing
	// FeatSentence is the largest share of the wide words' weight one
	// sentence of the chunk holds (the words together, not spread over
	// the chunk).
	FeatSentence
	// FeatRank is 1/(1+rank) in the retrieved list.
	FeatRank
	// FeatLead is the chunk's wide coverage minus the best other
	// retrieved chunk's.
	FeatLead
	// FeatUnknownAsk is the share of the content words of the clause
	// that asks that no visible chunk holds.
	FeatUnknownAsk
	// FeatUnknown is the share of the question's content words no
	// visible chunk holds.
	FeatUnknown
	// FeatCodes is the number of the question's codes (entities holding
	// a digit: "E4", "X200") the chunk names, FeatNames of its other
	// entities.
	FeatCodes
	FeatNames
	// FeatYesNo, FeatProcedure and FeatValue are 1 when the question
	// expects a yes/no decision, a procedure or a value (any other
	// particular type); all 0 when it expects none.
	FeatYesNo
	FeatProcedure
	FeatValue
	// FeatTitle is the share of the wide words' weight the chunk's title
	// alone holds.
	FeatTitle
	// FeatHeadUnknown is 1 when the question asks "what N" or "which N"
	// (askedHead) and no visible chunk holds N in any form; FeatHeadMissing
	// when some does but this chunk does not.
	FeatHeadUnknown
	FeatHeadMissing
	// NumFeatures counts the features.
	NumFeatures
)

// FeatureNames name the features, in Feature order.
var FeatureNames = [NumFeatures]string{"coverage", "wide", "focus", "key", "type_found", "type_missing", "sentence", "rank", "lead", "unknown_ask", "unknown", "codes", "names", "yes_no", "procedure", "value", "title", "head_unknown", "head_missing"}

// Candidate is one retrieved chunk as the learned acceptance sees it.
type Candidate struct {
	ChunkID  string
	Features [NumFeatures]float64
}

// candidate is a Candidate with what its reason names.
type candidate struct {
	Candidate
	j    *judged
	expr string // the expression of the expected type found near its words
	p    float64
}

// learnedCandidates computes the features of each chunk of all that a
// reading may accept (see candidates), in retrieval order. f and w are the
// question's focus and wide readings.
func (b *Builtin) learnedCandidates(question string, vocab Vocabulary, asked answertype.Question, r *reading, f *focus, w *wide, all []*judged, covers func(map[string]bool, string) bool) []candidate {
	akinCovers := func(have map[string]bool, t string) bool { return covers(have, t) || holdsAkin(have, t) }
	// Whether the question as asked expects a type (not r.expects: r is
	// the spelling-corrected question's reading, which may expect none
	// where the question as asked does), as answerIn below reads it.
	expects := asked.Type != answertype.Description
	wides := make([]float64, len(all))
	for i, j := range all {
		wides[i], _ = w.coverage(j.have, covers)
	}
	unknownAsk := 0.0
	if n := len(f.words) + len(f.unknown); n > 0 {
		unknownAsk = float64(len(f.unknown)) / float64(n)
	}
	unknown := 0
	for _, q := range r.qterms {
		if !q.known {
			unknown++
		}
	}
	head := b.askedHead(question, f.ents)
	headKnown := false
	if head != "" {
		df, _ := akinDocFreq(head, vocab)
		headKnown = df > 0
	}
	var out []candidate
	for i, j := range all {
		if j.with != nil || !r.namesCode(j.have) || slices.ContainsFunc(f.ents, func(e Entity) bool { return !e.CoveredBy(j.have) }) {
			continue
		}
		expr, typed := b.answerIn(asked, j.ev, r, akinCovers)
		c := candidate{Candidate: Candidate{ChunkID: j.ev.ChunkID}, j: j, expr: expr}
		x := &c.Features
		x[FeatCoverage] = j.coverage
		x[FeatWide] = wides[i]
		x[FeatFocus] = f.coverage(j.have, covers)
		if j.hasKey(r, covers) {
			x[FeatKey] = 1
		}
		if expects && typed {
			x[FeatTypeFound] = 1
		}
		if expects && !typed {
			x[FeatTypeMissing] = 1
		}
		x[FeatSentence] = b.bestSentence(j.ev, w, akinCovers)
		x[FeatRank] = 1 / float64(1+i)
		other := 0.0
		for k, c := range wides {
			if k != i && all[k].with == nil {
				other = max(other, c)
			}
		}
		x[FeatLead] = wides[i] - other
		x[FeatUnknownAsk] = unknownAsk
		if len(r.qterms) > 0 {
			x[FeatUnknown] = float64(unknown) / float64(len(r.qterms))
		}
		for _, e := range f.ents {
			if e.Code {
				x[FeatCodes]++
			} else {
				x[FeatNames]++
			}
		}
		switch {
		case asked.Type == answertype.YesNo:
			x[FeatYesNo] = 1
		case asked.Type == answertype.Procedure:
			x[FeatProcedure] = 1
		case expects:
			x[FeatValue] = 1
		}
		x[FeatTitle], _ = w.coverage(b.an.Set(j.ev.Title), akinCovers)
		switch {
		case head != "" && !headKnown:
			x[FeatHeadUnknown] = 1
		case head != "" && !akinCovers(j.have, head):
			x[FeatHeadMissing] = 1
		}
		out = append(out, c)
	}
	return out
}

// bestSentence is the largest share of w's weight one sentence of e (its
// title counted with each) holds.
func (b *Builtin) bestSentence(e *Evidence, w *wide, covers func(map[string]bool, string) bool) float64 {
	best := 0.0
	for _, s := range citation.Sentences(e.Text) {
		c, _ := w.coverage(TitledMentions(b.an, e.Title, s), covers)
		best = max(best, c)
	}
	return best
}

// Probability is the learned acceptance's probability that a chunk with
// features x answers the question, under weights (bias last).
func Probability(weights [NumFeatures + 1]float64, x [NumFeatures]float64) float64 {
	z := weights[NumFeatures]
	for i, v := range x {
		z += weights[i] * v
	}
	return 1 / (1 + math.Exp(-z))
}

// learned picks the candidate the learned acceptance accepts, in two
// stages: the chunk model (AcceptWeights) picks the most probable
// candidate holding an expression of the expected answer type near the
// question's words (any, for a question that expects no particular type);
// the question model (DecideWeights), on the same features, accepts it
// when its probability reaches AcceptThreshold. Nil when none.
func (b *Builtin) learned(cands []candidate) *candidate {
	var pick *candidate
	for i := range cands {
		c := &cands[i]
		c.p = Probability(b.AcceptWeights, c.Features)
		if c.Features[FeatTypeMissing] == 0 && (pick == nil || c.p > pick.p) {
			pick = c
		}
	}
	if pick == nil {
		return nil
	}
	if pick.p = Probability(b.DecideWeights, pick.Features); pick.p < b.AcceptThreshold {
		return nil
	}
	return pick
}

// learnedReason is the trace's reason for a chunk the learned acceptance
// accepted, in the asker's words: what it holds of the question, and the
// expected answer type with the expression found.
func (b *Builtin) learnedReason(question string, asked answertype.Question, r *reading, f *focus, c *candidate, covers func(map[string]bool, string) bool) string {
	var held, lacks []string
	for _, q := range r.qterms {
		if !q.known {
			continue
		}
		w := fmt.Sprintf("%q", wordFor(b.an, question, q.term))
		if covers(c.j.have, q.term) || holdsAkin(c.j.have, q.term) {
			held = append(held, w)
		} else {
			lacks = append(lacks, w)
		}
	}
	s := fmt.Sprintf("%s holds %s of the question's words your documents use", c.j.title(), strings.Join(held, ", "))
	if len(held) == 0 {
		s = fmt.Sprintf("%s holds none of the question's words your documents use", c.j.title())
	}
	if len(lacks) > 0 {
		s += fmt.Sprintf(" (not %s)", strings.Join(lacks, ", "))
	}
	if len(f.unknown) > 0 {
		s += fmt.Sprintf("; no document you can see uses %s", b.quoted(question, f.unknown))
	}
	if asked.Type != answertype.Description {
		s += fmt.Sprintf("; the question asks for %s, and it holds one near them: %q", asked.Describe(), c.expr)
	}
	return s + fmt.Sprintf("; learned acceptance %.2f (at least %.2f accepts)", c.p, b.AcceptThreshold)
}

// acceptWeights and acceptThreshold are the learned acceptance's frozen
// chunk model (in Feature order, the bias last) and threshold, fitted by
// `ASSESSDEV=1 go test ./internal/assess/assessdev -run TestFitV15 -v`
// (see its comment); the same test fails when they differ from a re-fit.
var acceptWeights = [NumFeatures + 1]float64{
	FeatCoverage: 0.5105, FeatWide: 0.1486, FeatFocus: -0.1230, FeatKey: -0.4520,
	FeatTypeFound: 0.5569, FeatTypeMissing: -1.4467, FeatSentence: 0.6265, FeatRank: 2.0591,
	FeatLead: 1.5451, FeatUnknownAsk: 0.2661, FeatUnknown: -0.3224, FeatCodes: 0.2152,
	FeatNames: 0.8359, FeatYesNo: -0.4985, FeatProcedure: -0.0303, FeatValue: -0.3609,
	FeatTitle: 0.3123, FeatHeadUnknown: 0.0252, FeatHeadMissing: -0.4213,
	NumFeatures: -2.8413, // the bias
}

// decideWeights are the question model's (see learned), fitted by the
// same test.
var decideWeights = [NumFeatures + 1]float64{
	FeatCoverage: 0.6419, FeatWide: 0.4181, FeatFocus: -0.5659, FeatKey: -0.1280,
	FeatTypeFound: -0.4660, FeatTypeMissing: 0, FeatSentence: 0.0652, FeatRank: 0.9677,
	FeatLead: 0.7557, FeatUnknownAsk: 0.2505, FeatUnknown: -0.3172, FeatCodes: -0.1438,
	FeatNames: -0.0367, FeatYesNo: -0.7128, FeatProcedure: 0.7349, FeatValue: -0.4881,
	FeatTitle: -0.2630, FeatHeadUnknown: 0.0541, FeatHeadMissing: -1.0728,
	NumFeatures: 0.6627, // the bias
}

const acceptThreshold = 0.95

// askedHead is the term of the noun a "what N" or "which N" question asks
// for (Li and Roth's head word: "what colour", "which shops", "what is
// the name of", "whats the max amount"), the last of the content words
// that follow the question word (after a copula and a determiner), before
// a word that is none or a verb of the clause that asks; "" when the
// question asks no such noun ("what does E4 mean", "which of our
// partners") or it is an entity's or a number.
func (b *Builtin) askedHead(question string, ents []Entity) string {
	text := answertype.Asking(question)
	av, _ := answertype.Verbs(question)
	verbs := map[string]bool{}
	for _, v := range av {
		verbs[strings.ToLower(v)] = true
	}
	ws := strings.Fields(strings.ToLower(text))
	clean := func(w string) string { return strings.Trim(w, ",.;:?!\"'()") }
	i := slices.IndexFunc(ws, func(w string) bool {
		switch clean(w) {
		case "what", "which", "whats", "what's":
			return true
		}
		return false
	})
	if i < 0 {
		return ""
	}
	j := i + 1
	if clean(ws[i]) == "whats" || clean(ws[i]) == "what's" {
		j = i + 1
	} else if j < len(ws) && slices.Contains([]string{"is", "are", "was", "were"}, clean(ws[j])) {
		j++
	}
	if j < len(ws) && slices.Contains([]string{"the", "a", "an", "our", "your", "my", "their", "its", "his", "her"}, clean(ws[j])) {
		j++
	}
	head := ""
	for ; j < len(ws); j++ {
		w := clean(ws[j])
		c := b.an.Content(w)
		if len(c) != 1 || verbs[w] {
			break
		}
		head = c[0]
		if w != ws[j] {
			break // punctuation ends the phrase
		}
	}
	if head == "" || entityTerm(ents, head) || strings.ContainsFunc(head, unicode.IsDigit) {
		return ""
	}
	return head
}
