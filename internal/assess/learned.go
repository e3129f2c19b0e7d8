package assess

import (
	"context"
	"maps"
	"math"
	"slices"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// What the readings measure of each retrieved chunk, as numbers: the
// features of a learned accept decision. Round 19 (issue 24, branch
// a19-learn) fitted a logistic model on them over the Hollin development
// sets and scored it with each set left out
// (internal/assess/assessdev/learned_test.go, docs/log/round-19-a19-learn.md):
// it did not beat builtin:coverage-v21's rules at the same no-answer
// refusal, so no model decides; Candidates is kept for the harness and for
// the next attempt (a feature a reader computes, say).
//
// Each chunk is described by what builtin:coverage-v21's readings measure
// of it — the share of the question's weight it covers, whether it holds
// the most specific term and every entity, whether it holds an expression
// of the expected answer type near the question's words, the focus and
// wide readings' coverages, the sentence reading's verdict, the best
// share of the question's weight one sentence (with its neighbours) holds,
// its rank and BM25 share in the assessor's own order, whether v21's rules
// accept it — and of the question — its expected type (coarse), the share
// of its weight no visible chunk uses, the share its scene takes away,
// whether it asks about a thing no visible chunk names. No feature names a
// word or a question: each means the same on another corpus.

// featureNames are the features, in a candidate's vector order.
var featureNames = []string{
	// the question
	"expects", "yesno", "procedure", "numeric", "other_typed",
	"has_entities", "unknown_share", "scene_share", "absent", "asks_unknown",
	"spelled", "rewritten", "log_terms",
	// the chunk
	"coverage", "entity_share", "has_key", "typed", "fit", "paraphrase", "all_known",
	"focus_coverage", "focus_entities", "wide_coverage", "wide_topic", "sentence",
	"rank0", "inv_rank", "bm25_share", "title_coverage",
	"rules_accept", "rules_accept_any", "rules_best",
	"typed_coverage", "typed_focus",
	"sentence_coverage", "typed_sentence_coverage", "missing_known", "coverage_margin", "key_in_title",
	"states_sentence", "states_window", "states_window_title", "pred_sentence", "pred_window", "pred_window_title",
	"states_known_window_title", "states_key_sentence", "states_related_window_title",
}

// FeatureNames lists the features in the order of Candidate.Features.
func FeatureNames() []string { return slices.Clone(featureNames) }

// Candidate is one retrieved chunk's features.
type Candidate struct {
	ChunkID  string
	Features []float64
}

// Candidates judges req as Assess does and also returns each retrieved
// chunk's features (FeatureNames), in the assessor's order (the
// comparisons' unions left out). The verdict is Assess's: computing the
// features changes nothing of it.
func (b *Builtin) Candidates(ctx context.Context, req Request) (Result, []Candidate, error) {
	c := *b
	c.recording = true
	res, err := c.Assess(ctx, req)
	cands := res.cands
	res.cands = nil
	return res, cands, err
}

// featureInput is what features reads of one judgement.
type featureInput struct {
	asked              answertype.Question
	r                  *reading
	all                []*judged
	best               *judged
	f                  *focus
	w                  *wide
	fasked             answertype.Question
	question, original string
	rewritten, absent  bool
	sceneShare         float64
	rules              []string // the chunks v21's rules accept on, nil when they refuse
	rel                []float64
	covers             func(map[string]bool, string) bool
	wcovers            func(map[string]bool, string) bool
}

// features describes each chunk of in.all (see featureNames).
func (b *Builtin) features(in featureInput) []Candidate {
	q := make([]float64, 0, len(featureNames))
	t := in.asked.Type
	num := numeric(t)
	q = append(q, b01(t != answertype.Description), b01(t == answertype.YesNo), b01(t == answertype.Procedure), b01(num),
		b01(t != answertype.Description && t != answertype.YesNo && t != answertype.Procedure && !num))
	var total, unknown float64
	for _, w := range in.r.qterms {
		total += w.weight
		if !w.known {
			unknown += w.weight
		}
	}
	q = append(q, b01(len(in.r.ents) > 0), ratio(unknown, total), in.sceneShare, b01(in.absent),
		b01(in.f != nil && in.f.asksUnknown), b01(in.question != in.original), b01(in.rewritten), math.Log1p(float64(len(in.r.qterms))))
	maxRel := 0.0
	for _, x := range in.rel {
		maxRel = max(maxRel, x)
	}
	out := make([]Candidate, 0, len(in.all))
	for i, j := range in.all {
		if j.with != nil || j.ev == nil {
			continue
		}
		x := slices.Clone(q)
		es := 1.0
		if len(in.r.ents) > 0 {
			es = float64(j.entities) / float64(len(in.r.ents))
		}
		fc, fe := 0.0, false
		if in.f != nil {
			fc = in.f.coverage(j.terms(), in.covers)
			fe = !slices.ContainsFunc(in.f.ents, func(e Entity) bool { return !e.CoveredBy(j.have) }) && in.r.namesCode(j.have)
		}
		wc, wt := 0.0, 0
		if in.w != nil {
			wc, wt = in.w.coverage(j.have, in.wcovers)
		}
		sent := false
		if in.f != nil {
			sj, _, _, _ := b.readSentences(in.original, in.fasked, in.f, in.r, []*judged{j}, in.covers)
			sent = sj != nil
		}
		rel := 0.0
		if i < len(in.rel) {
			rel = ratio(in.rel[i], maxRel)
		}
		title := TitledMentions(b.an, j.ev.Title, "")
		var tgot float64
		for _, w := range in.r.qterms {
			if in.covers(title, w.term) {
				tgot += w.weight
			}
		}
		sc, tsc := b.sentenceCoverage(in.asked, j.ev, in.r, in.covers, total)
		var knownTotal, knownGot float64
		for _, w := range in.r.qterms {
			if w.known {
				knownTotal += w.weight
				if in.covers(j.have, w.term) {
					knownGot += w.weight
				}
			}
		}
		other := 0.0
		for _, k := range in.all {
			if k != j && k.with == nil {
				other = max(other, k.coverage)
			}
		}
		keyTitle := in.r.key >= 0 && in.covers(title, in.r.qterms[in.r.key].term)
		typed := b01(j.typed)
		x = append(x, j.coverage, es, b01(j.hasKey(in.r, in.covers)), typed, b01(j.fit), b01(j.paraphrase), b01(j.allKnown),
			fc, b01(fe), wc, b01(wt >= minTopic), b01(sent),
			b01(i == 0), 1/float64(i+1), rel, ratio(tgot, total),
			b01(len(in.rules) > 0 && in.rules[0] == j.ev.ChunkID), b01(len(in.rules) > 0), b01(in.best != nil && in.best.ev == j.ev),
			typed*j.coverage, typed*fc,
			sc, tsc, 1-ratio(knownGot, knownTotal), j.coverage-other, b01(keyTitle))
		st := b.stateSignals(in.fasked, j.ev, in.f, in.r, in.covers)
		if in.wcovers != nil {
			rt := b.stateSignals(in.fasked, j.ev, in.f, in.r, in.wcovers)
			st[8] = rt[2]
		}
		x = append(x, st[:]...)
		out = append(out, Candidate{ChunkID: j.ev.ChunkID, Features: x})
	}
	return out
}

// sentenceCoverage is the largest share of the question's weight (total)
// that one sentence of e holds with the sentences either side of it, and
// the largest for a sentence holding an expression of the expected type
// (any sentence when the question expects none).
func (b *Builtin) sentenceCoverage(asked answertype.Question, e *Evidence, r *reading, covers func(map[string]bool, string) bool, total float64) (float64, float64) {
	sents := citation.Sentences(e.Text)
	sets := make([]map[string]bool, len(sents))
	for i, s := range sents {
		sets[i] = b.an.Set(s)
	}
	var all, typed float64
	for i := range sents {
		have := map[string]bool{}
		for k := max(0, i-1); k <= min(len(sents)-1, i+1); k++ {
			maps.Copy(have, sets[k])
		}
		got := 0.0
		for _, w := range r.qterms {
			if covers(have, w.term) {
				got += w.weight
			}
		}
		c := ratio(got, total)
		all = max(all, c)
		if asked.Type == answertype.Description || len(b.finds(asked, sents[i])) > 0 {
			typed = max(typed, c)
		}
	}
	return all, typed
}

func b01(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
