package assess

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// FeatureNames name, in order, the features the fitted acceptance model
// (Acceptance) reads for one candidate: a retrieved chunk, or for a
// comparison the chunks judged together (see reading.compared). Every
// feature is computed from the question, the candidate's text and the
// statistics of the documents the asker may see, nothing else:
//
//   - coverage: the IDF-weighted share of the question's content words
//     (its frame words left out, see answertype) the candidate holds, a
//     word no visible chunk holds weighing the mean of the known ones;
//   - known_coverage: the same share over the known words only;
//   - unknown_share: the share of the content words no visible chunk holds;
//   - key_term: 1 when it holds the question's most specific known word
//     (the highest IDF);
//   - rare_coverage: the share of the question's rarer known words (IDF
//     at least the mean of the known ones) it holds;
//   - type_found, type_missing: the question expects an answer of a type
//     (a period, a count, a place, a yes/no decision, a procedure ...) and
//     the candidate holds, or does not hold, an expression of it near the
//     question's words (answertype); both 0 when it expects none;
//   - entities: 1 when the question names entities (the candidate names
//     every one whole, or it is not a candidate);
//   - sentence_coverage: the largest coverage of any three consecutive
//     sentences of the candidate (the question's words close together);
//   - title_coverage: the coverage of the candidate's title alone;
//   - verb_coverage: the share of the verbs of the clause that asks it
//     holds (1 when that clause has none among the content words);
//   - rank: 1/(1+rank) of its first chunk in the retrieved list;
//   - relative_score: its first chunk's retrieval score over the top
//     hit's (0 when scores are not positive);
//   - content_words: ln(1 + the number of content words);
//   - thesaurus_coverage: coverage counting a word the thesaurus relates
//     to a question word (and the asker's documents use) as covering it;
//     equal to coverage without a thesaurus;
//   - unknown_asked: the share of the content words of the clause that
//     asks (answertype.Asking), verbs left out, that no visible chunk
//     holds: a restriction no document can meet ("per mile").
var FeatureNames = []string{
	"coverage", "known_coverage", "unknown_share", "key_term", "rare_coverage",
	"type_found", "type_missing", "entities", "sentence_coverage", "title_coverage",
	"verb_coverage", "rank", "relative_score", "content_words",
	"thesaurus_coverage", "unknown_asked",
}

// Acceptance is the fitted acceptance model: a logistic regression over
// FeatureNames whose bias already holds the decision threshold, so a
// candidate is accepted when its probability is at least one half. It is
// data, fitted by internal/assess/acceptfit (see docs/evaluation.md).
type Acceptance struct {
	// Model is the model id it was fitted for.
	Model    string    `json:"model"`
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	Bias     float64   `json:"bias"`
	// Threshold is the probability of the unshifted model the bias was
	// shifted by (for the record; Probability already applies it).
	Threshold float64 `json:"threshold"`
	// Fitted says how, for the record.
	Fitted string `json:"fitted"`
}

//go:embed acceptance.json
var acceptanceJSON []byte

// DefaultAcceptance is the committed fitted model (acceptance.json).
func DefaultAcceptance() (*Acceptance, error) {
	return ParseAcceptance(acceptanceJSON)
}

// ParseAcceptance reads an Acceptance, checking its features are
// FeatureNames in order.
func ParseAcceptance(data []byte) (*Acceptance, error) {
	var a Acceptance
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("acceptance model: %w", err)
	}
	if !slices.Equal(a.Features, FeatureNames) || len(a.Weights) != len(FeatureNames) {
		return nil, fmt.Errorf("acceptance model: features %v with %d weights, want %v", a.Features, len(a.Weights), FeatureNames)
	}
	return &a, nil
}

// Probability is the model's acceptance probability for features x.
func (a *Acceptance) Probability(x []float64) float64 {
	z := a.Bias
	for i, w := range a.Weights {
		z += w * x[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// Candidate is one candidate as the acceptance model reads it.
type Candidate struct {
	// ChunkIDs are its chunks: one, or a comparison's several.
	ChunkIDs []string
	// Entities is false when it does not name every entity of the
	// question whole: the model never accepts it (a safety rule).
	Entities bool
	Features []float64
}

// features computes FeatureNames for a judged candidate j (have: what it
// mentions; texts: its titles and bodies; rank and score: of its first
// chunk; top: the top hit's score).
func (b *Builtin) features(p *prep, j *judged, titles, bodies []string, rank int, score, top float64) []float64 {
	r := p.r
	share := func(have map[string]bool) float64 {
		var got, total float64
		for _, q := range r.qterms {
			total += q.weight
			if p.covers(have, q.term) {
				got += q.weight
			}
		}
		if total == 0 {
			return 0
		}
		return got / total
	}
	x := make([]float64, len(FeatureNames))
	var knownGot, knownTotal, meanKnown float64
	known, unknown := 0, 0
	for _, q := range r.qterms {
		if q.known {
			knownTotal += q.weight
			known++
			if p.covers(j.have, q.term) {
				knownGot += q.weight
			}
		} else {
			unknown++
		}
	}
	x[0] = share(j.have)
	if knownTotal > 0 {
		x[1] = knownGot / knownTotal
		meanKnown = knownTotal / float64(known)
	}
	x[2] = float64(unknown) / float64(len(r.qterms))
	if p.key >= 0 && p.covers(j.have, r.qterms[p.key].term) {
		x[3] = 1
	}
	rare, rareGot := 0, 0
	for _, q := range r.qterms {
		if q.known && q.weight >= meanKnown {
			rare++
			if p.covers(j.have, q.term) {
				rareGot++
			}
		}
	}
	if rare > 0 {
		x[4] = float64(rareGot) / float64(rare)
	}
	if r.expects {
		if j.typed {
			x[5] = 1
		} else {
			x[6] = 1
		}
	}
	if len(r.ents) > 0 {
		x[7] = 1
	}
	for _, body := range bodies {
		sents := citation.Sentences(body)
		for i := range sents {
			have := map[string]bool{}
			for k := max(0, i-1); k <= min(len(sents)-1, i+1); k++ {
				for t := range b.an.Set(sents[k]) {
					have[t] = true
				}
			}
			x[8] = max(x[8], share(have))
		}
	}
	for _, t := range titles {
		x[9] = max(x[9], share(b.an.Set(t)))
	}
	verbs, verbsGot := 0, 0
	for t := range r.askedVerbs {
		verbs++
		if p.covers(j.have, t) {
			verbsGot++
		}
	}
	x[10] = 1
	if verbs > 0 {
		x[10] = float64(verbsGot) / float64(verbs)
	}
	x[11] = 1 / float64(1+rank)
	if top > 0 && score > 0 {
		x[12] = min(1, score/top)
	}
	x[13] = math.Log(1 + float64(len(r.qterms)))
	var tGot, tTotal float64
	for _, q := range r.qterms {
		tTotal += q.weight
		if p.covers(j.have, q.term) || slices.ContainsFunc(p.related[q.term], func(s synonym) bool { return j.have[s.Term] }) {
			tGot += q.weight
		}
	}
	if tTotal > 0 {
		x[14] = tGot / tTotal
	}
	content := map[string]bool{}
	for _, q := range r.qterms {
		content[q.term] = q.known
	}
	asked, unknownAsked := 0, 0
	for _, t := range b.an.Content(answertype.Asking(p.question)) {
		k, ok := content[t]
		if !ok || r.askedVerbs[t] || r.sceneVerbs[t] {
			continue
		}
		asked++
		if !k {
			unknownAsked++
		}
	}
	if asked > 0 {
		x[15] = float64(unknownAsked) / float64(asked)
	}
	return x
}

// candidates lists every candidate of a prepared request with its
// features, in the order of the evidence, a comparison's joint candidate
// last; judged are the evidence's chunks as judge scored them.
func (b *Builtin) candidates(p *prep, req Request, all []*judged) ([]Candidate, []*judged) {
	top := 0.0
	if len(req.Evidence) > 0 {
		top = req.Evidence[0].Score
	}
	var out []Candidate
	var js []*judged
	for i, j := range all {
		e := req.Evidence[i]
		out = append(out, Candidate{
			ChunkIDs: []string{e.ChunkID},
			Entities: j.entities == len(p.r.ents),
			Features: b.features(p, j, []string{e.Title}, []string{e.Text}, i, e.Score, top),
		})
		js = append(js, j)
	}
	if len(p.ents) > 1 && answertype.Compares(p.question) {
		if u := p.r.compared(all, p.covers); u != nil {
			evs := append([]*Evidence{u.ev}, u.with...)
			c := Candidate{Entities: u.entities == len(p.r.ents)}
			var titles, bodies []string
			rank := len(req.Evidence)
			for _, e := range evs {
				c.ChunkIDs = append(c.ChunkIDs, e.ChunkID)
				titles, bodies = append(titles, e.Title), append(bodies, e.Text)
			}
			for k := range req.Evidence {
				if req.Evidence[k].ChunkID == u.ev.ChunkID {
					rank = k
				}
			}
			c.Features = b.features(p, u, titles, bodies, rank, u.ev.Score, top)
			out = append(out, c)
			js = append(js, u)
		}
	}
	return out, js
}

// Candidates returns the candidates the acceptance model would read for
// req, with their features: what internal/assess/acceptfit fits on. It
// judges the question as Assess does (spelling corrected when a rewriter
// is set).
func (b *Builtin) Candidates(req Request) []Candidate {
	p := b.prepare(req)
	if p.r == nil {
		return nil
	}
	c, _ := b.candidates(p, req, b.judgeAll(p, req))
	return c
}
