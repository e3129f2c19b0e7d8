package assess

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// V11Model names the builtin assessor with the chunk scorer on
// (Builtin.Scorer); off, it is builtin:coverage-v10 (BuiltinModel, the
// default).
const V11Model = "builtin:coverage-v11"

// The chunk scorer (builtin:coverage-v11, Builtin.Scorer) is a fourth way
// for the builtin assessor to accept, tried when the coverage rules, the
// focus reading and the wide reading refuse. It is a fitted linear model:
// a logistic regression over features of each (question, retrieved chunk)
// pair, its weights fitted on the Hollin development sets' first attempts
// (labelled: the chunk belongs to a document relevant to an answerable
// question) and frozen in scorerWeights. The fit is reproducible:
//
//	ASSESSDEV=1 go test ./internal/assess/assessdev -run TestFitScorer -v
//
// which also scores it leave-one-set-out (weights and threshold fitted on
// all sets but one, scored on the one left out) against v10.
//
// The features (chunkFeatures) judge each chunk against the others
// retrieved with it, not alone: besides how much of the question it
// covers in each reading, how far it leads the best other chunk in the
// wide reading's coverage. The chunk with the highest probability is
// accepted when it reaches scorerThreshold and it passes the checks every
// reading keeps: it names every entity the focus reading requires and the
// kind of code asked for, it holds an answer of the expected type near
// the question's words (in any of their forms), and the question does not
// ask whether there is a thing no visible document mentions.
//
// Every feature is computed from the chunk's text, the question, and
// statistics of the documents the principal may see; the retrieval
// score, whose statistics a backend may take over every document, is not
// one.

// feature names, in scorerWeights' order (after the intercept).
var featureNames = []string{
	"coverage", "entity share", "most specific term", "answer type near", "focus coverage",
	"focus entities", "wide coverage", "wide topic words", "wide lead", "coverage lead", "rank",
	"expects a type", "unknown share", "asks in unknown words", "wide key word", "focus key word",
	"held elsewhere",
}

// chunkFeatures lists each chunk's features (see featureNames) for the
// question as read by r, f and w; all are the chunks judged alone, in
// retrieval order. akin[i] is whether chunk i holds an answer of the
// expected type near the question's words in any of their forms.
func (b *Builtin) chunkFeatures(asked answertype.Question, r *reading, f *focus, w *wide, all []*judged, covers func(map[string]bool, string) bool) ([][]float64, []bool) {
	akinCovers := func(have map[string]bool, t string) bool { return covers(have, t) || holdsAkin(have, t) }
	wcov := make([]float64, len(all))
	topic := make([]int, len(all))
	for i, j := range all {
		wcov[i], topic[i] = w.coverage(j.have, covers)
	}
	unknown := 0
	for _, q := range r.qterms {
		if !q.known {
			unknown++
		}
	}
	askUnknown := 0.0
	if n := len(f.unknown) + len(f.words); n > 0 {
		askUnknown = float64(len(f.unknown)) / float64(n)
	}
	heaviest := func(ws []weighted) string {
		k := ""
		best := 0.0
		for _, q := range ws {
			if q.weight > best {
				k, best = q.term, q.weight
			}
		}
		return k
	}
	wkey, fkey := heaviest(w.words), heaviest(f.words)
	// elsewhere[i] is the share of the wide words' weight chunk i lacks
	// and another retrieved chunk holds: what the question asks that the
	// retrieved sources say, but not this one.
	elsewhere := make([]float64, len(all))
	var wtotal float64
	for _, q := range w.words {
		wtotal += q.weight
	}
	for i, j := range all {
		for _, q := range w.words {
			if akinCovers(j.have, q.term) {
				continue
			}
			if slices.ContainsFunc(all, func(o *judged) bool { return o != j && akinCovers(o.have, q.term) }) {
				elsewhere[i] += q.weight / wtotal
			}
		}
	}
	out := make([][]float64, len(all))
	typed := make([]bool, len(all))
	for i, j := range all {
		_, typed[i] = b.answerIn(asked, j.ev.Text, r, akinCovers)
		ents := 1.0
		if len(r.ents) > 0 {
			ents = float64(j.entities) / float64(len(r.ents))
		}
		fents := !slices.ContainsFunc(f.ents, func(e Entity) bool { return !e.CoveredBy(j.have) })
		wlead, clead := wcov[i], j.coverage
		first := true
		for k, o := range all {
			if k == i {
				continue
			}
			if first || wcov[i]-wcov[k] < wlead {
				wlead = wcov[i] - wcov[k]
			}
			if first || j.coverage-o.coverage < clead {
				clead = j.coverage - o.coverage
			}
			first = false
		}
		out[i] = []float64{
			j.coverage, ents, bit(j.hasKey(r, covers)), bit(typed[i]), f.coverage(j.have, covers),
			bit(fents), wcov[i], float64(min(topic[i], 3)) / 3, wlead, clead, float64(min(i, 4)) / 4,
			bit(r.expects), float64(unknown) / float64(len(r.qterms)), askUnknown,
			bit(wkey != "" && akinCovers(j.have, wkey)), bit(fkey != "" && covers(j.have, fkey)),
			elsewhere[i],
		}
	}
	return out, typed
}

func bit(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// scorerWeights are the chunk scorer's intercept and feature weights
// (featureNames' order), fitted by TestFitScorer on the nine development
// sets (Hollin, held-out, fresh–fresh7; 2026-12-02) and frozen here. The
// fit uses only the chunks v10 refuses that pass the scorer's checks, so
// "answer type near" and "focus entities" are always 1 there and their
// weights only share the intercept's.
var scorerWeights = []float64{-0.2586, 1.8979, -0.9390, 0.9889, -0.1080, 0.7529, -0.1080, 0.8491, 1.1549, 0.1054,
	0.3222, -1.2684, -0.4358, -0.7749, -0.0696, -0.5936, -0.6052, -0.3456}

// scorerThreshold is the probability the best chunk must reach, chosen
// with the weights: the lowest at which no development set refuses fewer
// no-answer questions than v10 and the share of acceptances on a relevant
// chunk does not fall.
const scorerThreshold = 0.85

// Probability is the fitted linear model's probability that a chunk with
// features x answers, under weights ws (intercept first).
// No weights give 0.
func Probability(ws, x []float64) float64 {
	if len(ws) == 0 {
		return 0
	}
	z := ws[0]
	for i, v := range x {
		if i+1 < len(ws) {
			z += ws[i+1] * v
		}
	}
	return 1 / (1 + math.Exp(-z))
}

// ChunkFeatures is one retrieved chunk's features as the chunk scorer
// sees them (see featureNames), for the development harness that fits it.
type ChunkFeatures struct {
	ChunkID string
	X       []float64
	// Eligible is whether the chunk passes the checks the scorer keeps
	// (see the chunk scorer): only an eligible chunk may be accepted.
	Eligible bool
}

// FeatureNames lists the chunk scorer's feature names, in ChunkFeatures.X's
// order.
func FeatureNames() []string { return slices.Clone(featureNames) }

// scored picks the chunk the scorer accepts among all, or nil, with its
// probability; feats and eligible are chunkFeatures' and eligibility's.
func scored(ws []float64, threshold float64, feats [][]float64, eligible []bool, all []*judged) (*judged, float64) {
	if len(ws) == 0 {
		return nil, 0 // no weights: no scorer
	}
	var pick *judged
	best := 0.0
	for i, x := range feats {
		if !eligible[i] {
			continue
		}
		if p := Probability(ws, x); p >= threshold && p > best {
			pick, best = all[i], p
		}
	}
	return pick, best
}

// eligibility reports, for each chunk, whether the scorer may accept it
// (see the chunk scorer); typed is chunkFeatures' answer-type finding.
func (b *Builtin) eligibility(asked answertype.Question, r *reading, f *focus, w *wide, all []*judged, typed []bool, absent string) []bool {
	out := make([]bool, len(all))
	if absent != "" || len(w.words) == 0 || asked.Type == answertype.Description && w.asksUnknown {
		return out
	}
	for i, j := range all {
		out[i] = typed[i] && r.namesCode(j.have) && !slices.ContainsFunc(f.ents, func(e Entity) bool { return !e.CoveredBy(j.have) })
	}
	return out
}

// scorerReason is the trace's reason for a chunk the scorer accepted, in
// the asker's visible terms: what it holds of the question's words and how
// it compares with the other chunks retrieved.
func (b *Builtin) scorerReason(question string, asked answertype.Question, w *wide, j *judged, x []float64, p float64, akinCovers func(map[string]bool, string) bool) string {
	var held []string
	for _, q := range w.words {
		if akinCovers(j.have, q.term) && !strings.ContainsFunc(q.term, unicode.IsDigit) {
			held = append(held, fmt.Sprintf("%q", wordFor(b.an, question, q.term)))
		}
	}
	s := fmt.Sprintf("%s holds %s, %.0f%% of the weight of the question's words your documents use",
		j.title(), strings.Join(held, ", "), math.Round(100*x[6]))
	if lead := math.Round(100 * x[8]); lead > 0 {
		s += fmt.Sprintf(", %.0f points more than any other source retrieved", lead)
	}
	if asked.Type != answertype.Description {
		s += fmt.Sprintf(", and %s near them: %q", asked.Describe(), j.expr)
	}
	return s + fmt.Sprintf(" (fitted chunk scorer: %.2f)", p)
}
