package assess

import (
	"context"
	"fmt"
	"math"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/router"

	"github.com/assay-rag/assay/internal/wire"
)

// Vocabulary is term statistics over the chunks one principal may see: how
// many contain a term, out of how many.
type Vocabulary interface {
	DocFreq(term string) int
	Len() int
}

// Corpus gives the vocabulary visible to a principal's groups. The builtin
// models never use statistics of documents the principal cannot see: a
// spelling correction or a "no word occurs" verdict would reveal them.
type Corpus interface {
	Visible(groups []string) Vocabulary
}

// BuiltinModel names the builtin assessor in traces and routes: the id
// the router routes to.
const BuiltinModel = router.BuiltinAssessModel

// Builtin is an offline assessor that needs no model. It weighs each
// content term of the question by its IDF in the corpus and scores the
// evidence by the largest share of that weight one retrieved chunk covers.
// Evidence is sufficient when that share reaches MinCoverage and the chunk
// also covers the question's most specific term (the known term with the
// highest IDF): "descale the X300 Pro" is not answered by a page about the
// X300 Pro that never mentions descaling.
//
// It is a retrieval-signal heuristic, not a reader: it cannot tell a chunk
// that mentions the right words from one that answers.
type Builtin struct {
	an     *terms.Analyzer
	corpus Corpus
	// Rewriter proposes the next query when evidence is insufficient;
	// nil proposes none.
	Rewriter *Rewriter
	// MinCoverage is the share of the question's weight one chunk must
	// cover for the evidence to be sufficient.
	MinCoverage float64
}

// NewBuiltin returns the builtin assessor over c, with no rewriter.
func NewBuiltin(an *terms.Analyzer, c Corpus) *Builtin {
	return &Builtin{an: an, corpus: c, MinCoverage: 0.55}
}

type weighted struct {
	term   string
	weight float64
	known  bool
}

// Assess implements Assessor. The question is judged as the corpus would
// spell it: with a rewriter, its misspellings are corrected first, so a
// rewrite that fixes them can find evidence that counts.
func (b *Builtin) Assess(_ context.Context, req Request) (Result, error) {
	vocab := b.corpus.Visible(req.Groups)
	question := req.Question
	if b.Rewriter != nil {
		question, _ = b.Rewriter.Spell(question, vocab)
	}
	qterms := b.weigh(question, vocab)
	res := Result{Usage: wire.Spent{Model: BuiltinModel}}
	if len(qterms) == 0 {
		res.Assessment = Assessment{Reason: "the question has no searchable terms"}
		return res, nil
	}
	var total float64
	key := -1 // the most specific known term
	for i, q := range qterms {
		total += q.weight
		if q.known && (key < 0 || q.weight > qterms[key].weight) {
			key = i
		}
	}
	best, bestTitle, bestHasKey := 0.0, "", false
	for _, e := range req.Evidence {
		have := b.an.Set(e.Title + "\n" + e.Text)
		var got float64
		for _, q := range qterms {
			if have[q.term] {
				got += q.weight
			}
		}
		if c := got / total; c > best {
			best, bestTitle = c, e.Title
			bestHasKey = key >= 0 && have[qterms[key].term]
		}
	}
	score := math.Round(best*1000) / 1000
	a := Assessment{Score: score, Sufficient: score >= b.MinCoverage && bestHasKey}
	switch {
	case key < 0:
		a.Reason = "no word of the question occurs in the documents you can see"
	case len(req.Evidence) == 0:
		a.Reason = "no evidence was retrieved"
	case a.Sufficient:
		a.Reason = fmt.Sprintf("%q covers %.0f%% of the question's weight, including %q", bestTitle, 100*score, qterms[key].term)
	case !bestHasKey && score >= b.MinCoverage:
		a.Reason = fmt.Sprintf("%q covers %.0f%% of the question's weight but not its most specific term %q", bestTitle, 100*score, qterms[key].term)
	default:
		a.Reason = fmt.Sprintf("the best source covers only %.0f%% of the question's weight", 100*score)
	}
	if !a.Sufficient && b.Rewriter != nil {
		if q, why := b.Rewriter.rewrite(req, best, vocab); q != "" {
			a.Rewrite = q
			a.Reason += "; rewrite by " + why
		}
	}
	res.Assessment = a
	return res, nil
}

// weigh gives each distinct content term of q its IDF. A term the corpus
// never contains gets the mean IDF of the known terms: it may be a synonym
// the corpus words differently ("sink" for "water"), so it counts, but it
// must not outweigh everything the corpus does say.
func (b *Builtin) weigh(q string, vocab Vocabulary) []weighted {
	n := float64(vocab.Len())
	var out []weighted
	var sum float64
	var known int
	for _, t := range b.an.Content(q) {
		df := vocab.DocFreq(t)
		w := weighted{term: t, known: df > 0}
		if w.known {
			w.weight = math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
			sum += w.weight
			known++
		}
		out = append(out, w)
	}
	unknown := math.Log(1 + (n+0.5)/0.5) // as rare as can be
	if known > 0 {
		unknown = sum / float64(known)
	}
	for i := range out {
		if !out[i].known {
			out[i].weight = unknown
		}
	}
	return out
}
