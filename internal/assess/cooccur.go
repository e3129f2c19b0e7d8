package assess

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// V24Model names the builtin assessor with the co-occurrence relation
// (Builtin.Cooccur) on: builtin:coverage-v24, an experiment of round 21
// (docs/log/round-21-a21-rel.md), not the default.
const V24Model = "builtin:coverage-v24"

// cooccurDice is the least Dice coefficient, over the chunks the asker
// may see, at which two words count as used together; cooccurMin the
// least number of such chunks holding both.
const (
	cooccurDice = 0.3
	cooccurMin  = 1
	// cooccurTerms caps the chunk's terms read per question word.
	cooccurTerms = 40
)

// cooccur (Builtin.Cooccur) credits each known, non-entity question term
// the first chunk lacks with a term of that chunk the asker's visible
// chunks use with it: Dice(w, c) = 2·n(w∧c) / (n(w) + n(c)) ≥ cooccurDice
// over the visible chunks that pass the run's filters (counted by
// HoldingVocabulary.Holdings, so from what the asker may see only). Nil
// when vocab cannot count, or nothing is credited.
func (b *Builtin) cooccur(ctx context.Context, vocab Vocabulary, f wire.Filters, r *reading, j *judged, covers func(map[string]bool, string) bool) (map[string][]synonym, error) {
	hv, ok := vocab.(HoldingVocabulary)
	if !ok {
		return nil, nil
	}
	inQuestion := map[string]bool{}
	for _, q := range r.qterms {
		inQuestion[q.term] = true
	}
	var cands []string
	for t := range j.terms() {
		if !inQuestion[t] && vocab.DocFreq(t) > 0 {
			cands = append(cands, t)
		}
	}
	slices.Sort(cands) // deterministic
	if len(cands) > cooccurTerms {
		cands = cands[:cooccurTerms]
	}
	out := map[string][]synonym{}
	for _, q := range r.qterms {
		if !q.known || entityTerm(r.ents, q.term) || covers(j.have, q.term) || j.dropped[q.term] {
			continue
		}
		best, bestDice := "", 0.0
		for _, c := range cands {
			h, err := hv.Holdings(ctx, []string{q.term, c}, f)
			if err != nil {
				return nil, err
			}
			if h == nil {
				return nil, nil
			}
			both := h[3]
			nw, nc := h[1]+both, h[2]+both
			if both < cooccurMin || nw+nc == 0 {
				continue
			}
			if d := 2 * float64(both) / float64(nw+nc); d >= cooccurDice && d > bestDice {
				best, bestDice = c, d
			}
		}
		if best != "" {
			out[q.term] = []synonym{{Word: best, Term: best}}
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// cooccurCredited names the words credited (`, reading "hold" as "keep"
// (used together)`).
func cooccurCredited(an *terms.Analyzer, question string, rel map[string][]synonym) string {
	var out []string
	for t, s := range rel {
		out = append(out, fmt.Sprintf("%q as %q", wordFor(an, question, t), s[0].Word))
	}
	slices.Sort(out)
	return " (reading " + strings.Join(out, ", ") + ": words your documents use together)"
}
