package assess

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
)

// StrategyTogether (builtin:strategies-v5) searches for the question's
// words that some visible chunk holds together, when that chunk holds
// more of the question than every retrieved one: a query of just those
// words ranks it first.
const StrategyTogether = "together"

// maxTogetherTerms bounds the question terms together counts chunks by
// (HoldingVocabulary.Holdings takes at most 64, and a question's content
// words are far fewer).
const maxTogetherTerms = 16

type together struct{}

func (together) Name() string { return StrategyTogether }

// Propose looks, among the chunks the asker may see that pass the run's
// filters (HoldingVocabulary.Holdings: counts over visible chunks only),
// for the set of the question's content terms held together that weighs
// most (inverse document frequency over the visible chunks, every entity
// of the question among them). It proposes those words, as the question
// spells them, when that set weighs more than what every retrieved chunk
// holds of the question and some visible chunk holding it was not
// retrieved: a search can then return a chunk the assessor has not
// judged, which holds more of the question than anything it has. It
// proposes nothing when the vocabulary cannot count holdings, or when the
// retrieved chunks already hold the most any visible chunk does.
func (together) Propose(ctx context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	hv, ok := s.Vocab.(HoldingVocabulary)
	if !ok || len(s.Request.Evidence) == 0 {
		return Proposal{}, false
	}
	list, words := r.contentTerms(s)
	if len(list) < 2 {
		return Proposal{}, false
	}
	held, err := hv.Holdings(ctx, list, s.Request.Filters)
	if err != nil || len(held) == 0 {
		return Proposal{}, false
	}
	n := s.Vocab.Len()
	weight := make([]float64, len(list))
	for i, t := range list {
		weight[i] = backend.IDF(n, s.Vocab.DocFreq(t))
	}
	var entity uint64 // the entities' terms: a chunk must hold them all
	for _, e := range s.Entities {
		for _, t := range e.Terms {
			if i := slices.Index(list, t); i >= 0 {
				entity |= 1 << i
			}
		}
	}
	of := func(m uint64) float64 {
		w := 0.0
		for i := range list {
			if m&(1<<i) != 0 {
				w += weight[i]
			}
		}
		return w
	}
	// What the retrieved chunks hold of the question, and the most.
	var got []uint64
	retrieved := 0.0
	for _, e := range s.Request.Evidence {
		have := r.an.Set(e.Title + "\n" + e.Text)
		var m uint64
		for i, t := range list {
			if have[t] {
				m |= 1 << i
			}
		}
		got = append(got, m)
		if m&entity == entity {
			retrieved = max(retrieved, of(m))
		}
	}
	// The heaviest combination some visible chunk holds, entities included.
	var best uint64
	bestW := 0.0
	for _, m := range slices.Sorted(maps.Keys(held)) {
		if m&entity != entity {
			continue
		}
		if w := of(m); w > bestW {
			best, bestW = m, w
		}
	}
	if bestW <= retrieved+1e-9 || best&^entity == 0 {
		return Proposal{}, false
	}
	// Some chunk holding the combination must be one the search has not
	// returned: count the visible chunks holding it against the retrieved.
	visible, seen := 0, 0
	for m, c := range held {
		if m&best == best {
			visible += c
		}
	}
	for _, m := range got {
		if m&best == best {
			seen++
		}
	}
	if visible <= seen {
		return Proposal{}, false
	}
	var q, why []string
	for _, e := range s.Entities {
		q = append(q, e.Text)
	}
	for i := range list {
		if best&(1<<i) != 0 && entity&(1<<i) == 0 {
			q = append(q, words[i])
			why = append(why, words[i])
		}
	}
	return Proposal{Query: strings.Join(q, " "), Why: "words a document you can see holds together, more of the question than any retrieved: " + strings.Join(why, ", ")}, true
}

// contentTerms lists the question's terms a chunk could hold, with the
// word the question spells each with: its entities' terms, then each
// word's single term that the visible chunks have and that is neither a
// question word, a frame word ("how often"), nor a generic English word,
// at most maxTogetherTerms in question order.
func (r *Rewriter) contentTerms(s *Situation) (list, words []string) {
	add := func(t, w string) {
		if !slices.Contains(list, t) && len(list) < maxTogetherTerms {
			list, words = append(list, t), append(words, w)
		}
	}
	for _, e := range s.Entities {
		for _, t := range e.Terms {
			add(t, e.Text)
		}
	}
	frame := map[string]bool{}
	for _, w := range answertype.Classify(s.Question).Frame {
		frame[strings.ToLower(w)] = true
	}
	for _, w := range strings.Fields(s.Question) {
		bare := plainWord(w)
		if frame[strings.ToLower(bare)] {
			continue
		}
		ts := r.an.Terms(bare)
		if len(ts) != 1 {
			continue
		}
		t := ts[0]
		if terms.IsQuestionWord(t) || r.english[t] || s.Vocab.DocFreq(t) == 0 {
			continue
		}
		add(t, bare)
	}
	return list, words
}
