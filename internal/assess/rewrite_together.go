package assess

import (
	"cmp"
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

// maxTogetherTerms bounds the question terms chunks are counted by
// (HoldingVocabulary.Holdings takes at most 64, and a question's content
// words are far fewer).
const maxTogetherTerms = 16

// holding is what the chunks the asker may see that pass the run's
// filters hold of the question's content terms (contentTerms), against
// what the retrieved chunks hold: every number in it is counted over
// visible chunks only (HoldingVocabulary.Holdings) or read from the
// retrieved evidence.
type holding struct {
	list, words []string
	weight      []float64   // inverse document frequency over the visible chunks
	entity      uint64      // the entities' terms: a chunk must hold them all
	held        *heldAnswer // read for its keys only
	got         []uint64    // what each retrieved chunk holds
	retrieved   float64     // the most a retrieved chunk holding every entity holds
}

// of is the weight of the terms of m.
func (h *holding) of(m uint64) float64 {
	w := 0.0
	for i := range h.list {
		if m&(1<<i) != 0 {
			w += h.weight[i]
		}
	}
	return w
}

// unseen reports whether some visible chunk whose terms pass keep holds a
// set of them no retrieved chunk holds: a chunk a search could still
// return that the assessor has not judged. It reads only which sets are
// held, not how many chunks hold each (RediSearch counts only some: see
// backend.Vocabulary.Holdings), so both backends decide alike; a chunk
// holding the very set a retrieved one holds is not counted. An open set
// is asked only when no known set answers (heldAnswer.has); the
// vocabulary's failure then is the error.
func (h *holding) unseen(ctx context.Context, keep func(uint64) bool) (bool, error) {
	var sets []uint64
	for _, m := range h.held.keys() {
		if keep(m) && !slices.Contains(h.got, m) {
			sets = append(sets, m)
		}
	}
	return h.held.some(ctx, sets)
}

// holding reads what the visible chunks hold of s's question, once per
// Situation; nil when the vocabulary cannot tell (no HoldingVocabulary,
// too many terms or combinations, a failed count), when nothing was
// retrieved, or when the question has fewer than two content terms.
func (r *Rewriter) holding(ctx context.Context, s *Situation) *holding {
	if s.heldDone {
		return s.held
	}
	s.heldDone = true
	hv, ok := s.Vocab.(HoldingVocabulary)
	if !ok || len(s.Request.Evidence) == 0 {
		return nil
	}
	h := &holding{}
	h.list, h.words = r.contentTerms(s)
	if len(h.list) < 2 {
		return nil
	}
	held := s.reached.project(h.list)
	if held == nil {
		if ans, err := openHoldings(ctx, hv, h.list, s.Request.Filters); err == nil && ans != nil {
			held = newHeldAnswer(h.list, ans)
		}
	}
	if held == nil {
		return nil // the assessor's own count fails the assessment; a proposal is only skipped
	}
	if some, err := held.some(ctx, held.keys()); err != nil || !some {
		return nil
	}
	h.held = held
	n := s.Vocab.Len()
	for _, t := range h.list {
		h.weight = append(h.weight, backend.IDF(n, s.Vocab.DocFreq(t)))
	}
	for _, e := range s.Entities {
		for _, t := range e.Terms {
			if i := slices.Index(h.list, t); i >= 0 {
				h.entity |= 1 << i
			}
		}
	}
	for _, e := range s.Request.Evidence {
		have := r.an.Set(e.Title + "\n" + e.Text)
		var m uint64
		for i, t := range h.list {
			if have[t] {
				m |= 1 << i
			}
		}
		h.got = append(h.got, m)
		if m&h.entity == h.entity {
			h.retrieved = max(h.retrieved, h.of(m))
		}
	}
	s.held = h
	return h
}

// heldAnswer is one Holdings answer and the terms it was asked for: the
// keys known (held) and the open ones (see backend.Held), each with the
// answer's open sets that give it (for a projection, several may). A key
// of open is a key of the answer when one of its sets is (has).
type heldAnswer struct {
	list []string
	held map[uint64]int
	open map[uint64][]uint64
	ans  *backend.Held
}

// newHeldAnswer is h's answer for list.
func newHeldAnswer(list []string, h *backend.Held) *heldAnswer {
	a := &heldAnswer{list: list, held: h.Sets(), open: map[uint64][]uint64{}, ans: h}
	for _, s := range h.Open() {
		a.open[s] = []uint64{s}
	}
	return a
}

// keys is every key a may have, known or open, in ascending order.
func (a *heldAnswer) keys() []uint64 {
	out := slices.AppendSeq(slices.Collect(maps.Keys(a.held)), maps.Keys(a.open))
	slices.Sort(out)
	return out
}

// has reports whether m is a key of the answer: known, or open and one
// of its sets held exactly (asked, once, of the backend). The backend's
// failure is the error.
func (a *heldAnswer) has(ctx context.Context, m uint64) (bool, error) {
	if _, ok := a.held[m]; ok {
		return true, nil
	}
	sets := a.open[m]
	if len(sets) == 0 {
		return false, nil
	}
	found, err := a.ans.Exact(ctx, sets)
	if err != nil {
		return false, err
	}
	return slices.Contains(found, true), nil
}

// first is the first of order (sets a may have) that is a key of the
// answer: an open set is asked only when every set before it in order
// is not a key. ok is false when none is.
func (a *heldAnswer) first(ctx context.Context, order []uint64) (m uint64, ok bool, err error) {
	for _, m := range order {
		if ok, err := a.has(ctx, m); ok || err != nil {
			return m, ok, err
		}
	}
	return 0, false, nil
}

// some reports whether one of sets is a key of the answer: the known
// ones first, an open one asked only when no known one is.
func (a *heldAnswer) some(ctx context.Context, sets []uint64) (bool, error) {
	for _, m := range sets {
		if _, ok := a.held[m]; ok {
			return true, nil
		}
	}
	_, ok, err := a.first(ctx, sets)
	return ok, err
}

// project is a's answer for list, a subset of a's terms: each set of a's
// terms some visible chunk holds exactly, restricted to list (bit i:
// list[i]), with the counts of the sets that restrict alike added, sets
// holding none of list left out. A chunk's set of list's terms is its set
// of a's terms restricted, so these are the keys Holdings(list) gives,
// with its counts where a's are exact (bleve); callers read the keys only.
// An open set restricts to an open key unless a known key restricts
// alike. nil when a is nil or lacks a term of list: the caller asks
// Holdings.
func (a *heldAnswer) project(list []string) *heldAnswer {
	if a == nil {
		return nil
	}
	at := make([]int, len(list))
	for i, t := range list {
		if at[i] = slices.Index(a.list, t); at[i] < 0 {
			return nil
		}
	}
	restrict := func(m uint64) uint64 {
		var p uint64
		for i, j := range at {
			if m&(1<<j) != 0 {
				p |= 1 << i
			}
		}
		return p
	}
	out := &heldAnswer{list: list, held: map[uint64]int{}, open: map[uint64][]uint64{}, ans: a.ans}
	for m, n := range a.held {
		if p := restrict(m); p != 0 {
			out.held[p] += n
		}
	}
	for _, m := range slices.Sorted(maps.Keys(a.open)) {
		if p := restrict(m); p != 0 {
			if _, known := out.held[p]; !known {
				out.open[p] = append(out.open[p], a.open[m]...)
			}
		}
	}
	return out
}

// best is the first set, in ascending order, of those held that weigh
// most, every entity among them, and its weight (0 and 0 when none weighs
// anything): the sets weightiest first (ascending among equals), an open
// one asked only when no set before it in that order is held; the
// vocabulary's failure is the error.
func (h *holding) best(ctx context.Context) (uint64, float64, error) {
	var order []uint64
	for _, m := range h.held.keys() {
		if m&h.entity == h.entity && h.of(m) > 0 {
			order = append(order, m)
		}
	}
	slices.SortStableFunc(order, func(a, b uint64) int { return cmp.Compare(h.of(b), h.of(a)) })
	best, ok, err := h.held.first(ctx, order)
	if !ok {
		return 0, 0, err
	}
	return best, h.of(best), err
}

// unjudged reports whether a search could still return a chunk the
// assessor has not judged that holds every entity of the question and at
// least as much of its content words (by weight) as the best retrieved
// chunk: true when some visible chunk does, or when the vocabulary cannot
// tell. builtin:strategies-v5 proposes missing-terms and wider-k only
// then: when every such chunk has been judged, a search can only bring
// chunks that hold less of the question.
func (r *Rewriter) unjudged(ctx context.Context, s *Situation) bool {
	h := r.holding(ctx, s)
	if h == nil {
		return true
	}
	unseen, err := h.unseen(ctx, func(m uint64) bool { return m&h.entity == h.entity && h.of(m) >= h.retrieved-1e-9 })
	return unseen || err != nil // a failed count cannot tell, as no count
}

type together struct{}

func (together) Name() string { return StrategyTogether }

// Propose looks, among the visible chunks (holding), for the set of the
// question's content terms held together that weighs most, every entity
// of the question among them. It proposes those words, as the question
// spells them, when that set weighs more than what every retrieved chunk
// holds of the question and some visible chunk holding it was not
// retrieved: a search can then return a chunk the assessor has not
// judged, which holds more of the question than anything it has. It
// proposes nothing when the vocabulary cannot tell, or when the retrieved
// chunks already hold the most any visible chunk does.
func (together) Propose(ctx context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	h := r.holding(ctx, s)
	if h == nil {
		return Proposal{}, false
	}
	best, bestW, err := h.best(ctx)
	if err != nil || bestW <= h.retrieved+1e-9 || best&^h.entity == 0 {
		return Proposal{}, false
	}
	if unseen, err := h.unseen(ctx, func(m uint64) bool { return m&best == best }); !unseen || err != nil {
		return Proposal{}, false
	}
	var q, why []string
	for _, e := range s.Entities {
		q = append(q, e.Text)
	}
	for i := range h.list {
		if best&(1<<i) != 0 && h.entity&(1<<i) == 0 {
			q = append(q, h.words[i])
			why = append(why, h.words[i])
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
