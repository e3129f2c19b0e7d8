package assess

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// What the readings measure of each retrieved chunk, as numbers: the
// features of a learned accept decision. Round 19 (issue 24, branch
// a19-learn) fitted a logistic model on them over 19 development sets and
// scored it with each set left out (docs/log/round-19-a19-learn.md): it
// did not beat builtin:coverage-v21's rules at the same no-answer refusal.
// Round 47 (branch a47-learn, docs/log/round-47-a47-learn.md) refitted it
// on 46 sets (4,227 first attempts): builtin:coverage-v62 (Builtin.Learned)
// accepts, when the rules refuse, the chunk the model of learned_table.go
// scores at learnedAdd or above (internal/assess/assessdev/learned47_test.go
// regenerates the table).
//
// Each chunk is described by what the default's readings measure of it —
// the share of the question's weight it covers, whether it holds the most
// specific term and every entity, whether it holds an expression of the
// expected answer type near the question's words, the focus and wide
// readings' coverages, the sentence and statement readings' verdicts, the
// best share of the question's weight one sentence (with its neighbours,
// and alone) holds, its rank and BM25 share in the assessor's own order and
// its rank and score share in the retrieval's, whether the default's whole
// verdict accepts it (Candidates sets that after Assess) — and of the
// question — its expected type (coarse), the share of its weight no
// visible chunk uses, the share its scene takes away, whether it asks
// about a thing no visible chunk names. No feature names a word or a
// question: each means the same on another corpus.

// V61Model names the builtin assessor without Builtin.Learned:
// builtin:coverage-v61 (round 47, docs/log/round-47-a47-rv.md), kept
// selectable.
const V61Model = "builtin:coverage-v61"

// V62Model names the builtin assessor without Builtin.LearnedCover:
// builtin:coverage-v62 (round 47, docs/log/round-47-a47-gate.md), kept
// selectable.
const V62Model = "builtin:coverage-v62"

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
	// round 47: where the question's words sit, and the retrieval's own order
	"single_sentence_coverage", "concentration", "typed_in_densest", "retrieval_inv_rank", "retrieval_share", "rank_agree",
}

// FeatureNames lists the features in the order of Candidate.Features.
func FeatureNames() []string { return slices.Clone(featureNames) }

// Candidate is one retrieved chunk's features.
type Candidate struct {
	ChunkID  string
	Features []float64
	// Hopeless is how the rules' refusal of the question was judged
	// hopeless (the same for every chunk of it; 0 when it was not, or
	// when the rules accept): the visible-chunk check found that no
	// visible document mentions the entities with the key term together
	// (HopelessTogether), holds the key with enough of the rest
	// (HopelessKey), or covers enough (HopelessCover); or the judgement
	// knew before that check that no search could help (HopelessBefore:
	// no key term, a thing the corpus never names, or a best chunk that
	// already has every word the corpus has). Not a feature: the gate of
	// builtin:coverage-v62's add reads it.
	Hopeless int `json:",omitempty"`
}

// The kinds of Candidate.Hopeless.
const (
	HopelessTogether = 1 + iota
	HopelessKey
	HopelessCover
	HopelessBefore
)

// Candidates judges req as Assess does and also returns each retrieved
// chunk's features (FeatureNames), in the assessor's order (the
// comparisons' unions left out). The verdict is Assess's: computing the
// features changes nothing of it.
func (b *Builtin) Candidates(ctx context.Context, req Request) (Result, []Candidate, error) {
	c := *b
	c.recording, c.Learned, c.Veto = true, false, false // the rules' verdict, with the features
	res, err := c.Assess(ctx, req)
	var cands []Candidate
	if res.cands != nil {
		cands = res.cands("")
	}
	res.cands = nil
	// The rules' features say what the default's whole verdict accepts,
	// not what the readings before the features were read accepted
	// (round 19's v21 decided there; later readings decide after).
	ra, rany := slices.Index(featureNames, "rules_accept"), slices.Index(featureNames, "rules_accept_any")
	acc := res.Assessment.Sufficient && len(res.Accepted) > 0
	for _, c := range cands {
		c.Features[ra] = b01(acc && res.Accepted[0] == c.ChunkID)
		c.Features[rany] = b01(res.Assessment.Sufficient)
	}
	return res, cands, err
}

// learnedAccept is res (the rules' verdict) unless they refuse and the
// model (learned_table.go) scores a chunk at learnedAdd or above: then
// that chunk, the highest-scored, is accepted (builtin:coverage-v62).
//
// The add is gated by the rules' hard refusals (round 47, a47-gate): it
// is never made when the visible-chunk check judged the refusal hopeless
// (no visible document mentions the question's entities with its key
// term together, holds the key with enough of the rest, or covers
// enough: Candidate.Hopeless), nor on a chunk that does not name every
// entity of the question (whole, Entity.CoveredBy: entity_share 1) or
// covers less than half of its weight (learnedGated).
//
// builtin:coverage-v63 (Builtin.LearnedCover, round 47, a47-gate2) lets
// the add past the check's "covers enough" finding (HopelessCover) on a
// yes/no question when the model scores the chunk at least
// learnedAddCoverYesNo.
func (b *Builtin) learnedAccept(req Request, res Result) Result {
	if res.Assessment.Sufficient || res.cands == nil {
		return res
	}
	cands := res.cands("") // computed only here: the rules refuse
	if len(cands) == 0 {
		return res
	}
	add := learnedAdd
	if h := cands[0].Hopeless; hardRefusal(h) {
		if !b.LearnedCover || h != HopelessCover || cands[0].Features[slices.Index(featureNames, "yesno")] != 1 {
			return res
		}
		add = max(add, learnedAddCoverYesNo)
	}
	ra, rany := slices.Index(featureNames, "rules_accept"), slices.Index(featureNames, "rules_accept_any")
	pick, best := -1, 0.0
	for i, c := range cands {
		x := slices.Clone(c.Features)
		x[ra], x[rany] = 0, 0 // the rules refuse (as the model was fitted)
		if p := learnedScore(x); !math.IsNaN(p) && (pick < 0 || p > best) {
			pick, best = i, p
		}
	}
	if pick < 0 || best < add || learnedGated(cands[pick].Features) {
		return res
	}
	id := cands[pick].ChunkID
	title := id
	if i := slices.IndexFunc(req.Evidence, func(e Evidence) bool { return e.ChunkID == id }); i >= 0 && req.Evidence[i].Title != "" {
		title = fmt.Sprintf("%q", req.Evidence[i].Title)
	}
	res.Assessment = Assessment{Sufficient: true, Score: math.Round(best*1000) / 1000,
		Reason: clipReason(fmt.Sprintf("%s is read as answering: a model fitted on the development sets' verdicts scores it %.2f (the rules refused: %s)", title, best, res.Assessment.Reason))}
	res.Accepted = []string{id}
	res.Proposals = nil
	return res
}

// hardRefusal: a refusal the visible-chunk check judged hopeless
// (Candidate.Hopeless), which the learned add never overrides.
func hardRefusal(h int) bool { return h >= HopelessTogether && h <= HopelessCover }

// learnedGated: the learned add does not take a chunk of features x
// that does not name every entity of the question (entity_share below
// 1), or that covers less than learnedCoverFloor of the question's
// weight.
func learnedGated(x []float64) bool {
	return x[slices.Index(featureNames, "entity_share")] < 1 || x[slices.Index(featureNames, "coverage")] < learnedCoverFloor
}

// learnedAddCoverYesNo: the score at which builtin:coverage-v63's add
// overrides the visible-chunk check's "covers enough" finding on a yes/no
// question (round 47, a47-gate2: chosen on each fold's training sets, 45
// of the 46 development sets but the validation set, among 0.652 … 0.9
// with the coverage floor 0.4/0.5/0.6, under a trade of refusal at most
// 1/20 of the right gained and refusal held on the training design sets:
// 0.75 in 31 of 46 folds; docs/log/round-47-a47-gate2.md).
const learnedAddCoverYesNo = 0.75

// learnedCoverFloor: half the question's weight (round 47, a47-gate;
// designed on fresh10 t93, a question whose one retrieved page about the
// asked thing covers 42% of it: the out-of-sample add lost that refusal
// alone on the design sets).
const learnedCoverFloor = 0.5

// learnedScore is the model's score of features x (learned_table.go).
func learnedScore(x []float64) float64 {
	z := learnedBias
	for i, w := range learnedWeights {
		z += w * x[i]
	}
	return 1 / (1 + math.Exp(-z))
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
	only               string // describe this chunk alone (its features as among all); every chunk when empty
}

// features describes each chunk of in.all (see featureNames), or in.only alone.
func (b *Builtin) features(in featureInput) []Candidate {
	bf := *b
	bf.found = &findsMemo{} // the readings below ask the same sentences
	b = &bf
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
	maxScore := 0.0
	for _, k := range in.all {
		if k.ev != nil {
			maxScore = max(maxScore, k.ev.Score)
		}
	}
	out := make([]Candidate, 0, len(in.all))
	for i, j := range in.all {
		if j.with != nil || j.ev == nil || in.only != "" && j.ev.ChunkID != in.only {
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
		sc, tsc, one, dense := b.sentenceCoverage(in.asked, j.ev, in.r, in.covers, total)
		rrank := 0 // the retrieval's rank of the chunk, by its score
		for _, k := range in.all {
			if k.ev != nil && k.with == nil && k.ev.Score > j.ev.Score {
				rrank++
			}
		}
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
		st := b.stateSignals(in.fasked, j.ev, in.f, in.r, in.covers, in.wcovers)
		x = append(x, st[:]...)
		x = append(x, one, ratio(one, j.coverage), b01(dense), 1/float64(rrank+1), ratio(j.ev.Score, maxScore), b01(rrank == i))
		for k, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				x[k] = 0 // a BM25 share of an empty query, say
			}
		}
		out = append(out, Candidate{ChunkID: j.ev.ChunkID, Features: x})
	}
	return out
}

// sentenceCoverage is the largest share of the question's weight (total)
// that one sentence of e holds with the sentences either side of it, and
// the largest for a sentence holding an expression of the expected type
// (any sentence when the question expects none); then the largest share
// one sentence holds alone, and whether the sentence holding the most
// (the first of equals) holds an expression of the expected type.
func (b *Builtin) sentenceCoverage(asked answertype.Question, e *Evidence, r *reading, covers func(map[string]bool, string) bool, total float64) (float64, float64, float64, bool) {
	sents := citation.Sentences(e.Text)
	sets := make([]map[string]bool, len(sents))
	for i, s := range sents {
		sets[i] = b.an.Set(s)
	}
	var all, typed, one float64
	dense := false
	for i := range sents {
		alone := 0.0
		for _, w := range r.qterms {
			if covers(sets[i], w.term) {
				alone += w.weight
			}
		}
		// typedHere: the sentence holds an expression of the expected type
		// (any sentence does when the question expects none).
		typedHere := asked.Type == answertype.Description || len(b.finds(asked, sents[i])) > 0
		if c := ratio(alone, total); c > one || i == 0 {
			one = c
			dense = asked.Type != answertype.Description && typedHere
		}
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
		if typedHere {
			typed = max(typed, c)
		}
	}
	return all, typed, one, dense
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
