package assess

import (
	"context"
	"fmt"
	"math"

	"github.com/assay-rag/assay/internal/terms"
)

// Vocabulary is what the builtin assessor knows of the corpus: how many
// chunks contain a term, out of how many.
type Vocabulary interface {
	DocFreq(term string) int
	Len() int
}

// BuiltinModel names the builtin assessor in traces and routes.
const BuiltinModel = "builtin:coverage-v1"

// Builtin is an offline assessor that needs no model: it scores evidence by
// how much of the question's weight (IDF over the corpus) one retrieved
// chunk covers. It is a retrieval-signal heuristic, not a reader: it cannot
// tell a chunk that mentions the right words from one that answers.
type Builtin struct {
	an    *terms.Analyzer
	vocab Vocabulary
	// MinCoverage is the coverage at which evidence counts as sufficient.
	MinCoverage float64
}

// NewBuiltin returns the builtin assessor over vocab.
func NewBuiltin(an *terms.Analyzer, vocab Vocabulary) *Builtin {
	return &Builtin{an: an, vocab: vocab, MinCoverage: 0.6}
}

// Assess implements Assessor.
func (b *Builtin) Assess(_ context.Context, req Request) (Result, error) {
	weights := b.weights(req.Question)
	res := Result{Usage: Usage{Model: BuiltinModel}}
	if len(weights) == 0 {
		res.Assessment = Assessment{Reason: "the question has no searchable terms"}
		return res, nil
	}
	var total float64
	for _, w := range weights {
		total += w
	}
	best, bestTitle := 0.0, ""
	for _, e := range req.Evidence {
		have := b.an.Set(e.Title + "\n" + e.Text)
		var got float64
		for t, w := range weights {
			if have[t] {
				got += w
			}
		}
		if c := got / total; c > best {
			best, bestTitle = c, e.Title
		}
	}
	score := math.Round(best*1000) / 1000
	a := Assessment{Score: score, Sufficient: score >= b.MinCoverage}
	switch {
	case len(req.Evidence) == 0:
		a.Reason = "no evidence was retrieved"
	case a.Sufficient:
		a.Reason = fmt.Sprintf("%q covers %.0f%% of the question's weight", bestTitle, 100*score)
	default:
		a.Reason = fmt.Sprintf("the best source covers only %.0f%% of the question's weight", 100*score)
	}
	res.Assessment = a
	return res, nil
}

// weights gives each distinct content term of q its IDF. Terms absent from
// the corpus get the highest IDF: evidence cannot cover them.
func (b *Builtin) weights(q string) map[string]float64 {
	n := float64(b.vocab.Len())
	out := map[string]float64{}
	for _, t := range b.an.Content(q) {
		df := float64(b.vocab.DocFreq(t))
		out[t] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return out
}
