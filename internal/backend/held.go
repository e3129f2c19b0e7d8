package backend

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// Held is a Holdings answer that may leave some of its keys open: the
// keys of Holdings are Sets' keys and each open set that Exact answers
// true for. A backend leaves a set open when finding whether a visible
// chunk holds exactly that set costs it a search that many callers need
// not send (RediSearch's "last" checks, a search that reads the whole
// intersection when no such chunk exists, 45% of Holdings' Redis time at
// 500,000 chunks: docs/log/round-33-p33-hold.md); the caller asks only
// the open sets its reading can change with (Exact), or all of them
// (All). A Held is safe for concurrent use, and remembers what it was
// answered.
//
// Every open set is held together, with more of the terms, by some
// visible chunk passing the filter, so some key of Sets holds all of its
// terms and more (an open set is never the only trace of its terms).
// Open sets are neither keys of Sets nor 0.
type Held struct {
	sets  map[uint64]int
	open  []uint64
	exact func(ctx context.Context, sets []uint64) ([]bool, error)

	mu     sync.Mutex
	answer map[uint64]bool // the open sets asked, and their answer
}

// KnownHeld is a Holdings answer with no open set; nil for nil (cannot
// tell).
func KnownHeld(sets map[uint64]int) *Held {
	if sets == nil {
		return nil
	}
	return &Held{sets: sets}
}

// OpenHeld is a Holdings answer whose keys are sets and each set of open
// that exact answers true for (exact answers a slice of open's sets, in
// order, and is called with each set at most once).
func OpenHeld(sets map[uint64]int, open []uint64, exact func(ctx context.Context, sets []uint64) ([]bool, error)) *Held {
	if len(open) == 0 {
		return KnownHeld(sets)
	}
	return &Held{sets: sets, open: slices.Sorted(slices.Values(open)), exact: exact, answer: map[uint64]bool{}}
}

// Sets is the keys known, with their values (see Vocabulary.Holdings):
// the caller's copy.
func (h *Held) Sets() map[uint64]int { return maps.Clone(h.sets) }

// Open is the open sets, in ascending order, those already answered
// included: the caller's copy.
func (h *Held) Open() []uint64 { return slices.Clone(h.open) }

// Exact reports, for each of sets (open sets of h), whether it is a key
// of the answer: whether some visible chunk passing the filter holds
// exactly it. Sets asked before are answered from memory; the others are
// asked in one go. A set that is not open answers false. The server's
// failure is the error (nothing is remembered then).
func (h *Held) Exact(ctx context.Context, sets []uint64) ([]bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ask []uint64
	for _, s := range sets {
		if _, done := h.answer[s]; !done && !slices.Contains(ask, s) {
			if _, open := slices.BinarySearch(h.open, s); open {
				ask = append(ask, s)
			}
		}
	}
	if len(ask) > 0 {
		found, err := h.exact(ctx, ask)
		if err != nil {
			return nil, err
		}
		for i, s := range ask {
			h.answer[s] = found[i]
		}
	}
	out := make([]bool, len(sets))
	for i, s := range sets {
		out[i] = h.answer[s]
	}
	return out, nil
}

// All is the whole answer, as Vocabulary.Holdings gives it: Sets and
// every open set that is a key (value 1), every open set asked.
func (h *Held) All(ctx context.Context) (map[uint64]int, error) {
	found, err := h.Exact(ctx, h.open)
	if err != nil {
		return nil, err
	}
	out := h.Sets()
	for i, s := range h.open {
		if found[i] {
			out[s] = 1
		}
	}
	return out, nil
}

// OpenVocabulary is a Vocabulary whose Holdings can leave sets open
// (Held): OpenHoldings(ctx, terms, f).All(ctx) is Holdings(ctx, terms,
// f), nil (cannot tell) when OpenHoldings is nil.
type OpenVocabulary interface {
	Vocabulary
	OpenHoldings(ctx context.Context, terms []string, f *Filter) (*Held, error)
}

// OpenHoldingsOf is v's OpenHoldings when it has one, else its Holdings
// with no open set.
func OpenHoldingsOf(ctx context.Context, v Vocabulary, terms []string, f *Filter) (*Held, error) {
	if ov, ok := v.(OpenVocabulary); ok {
		return ov.OpenHoldings(ctx, terms, f)
	}
	sets, err := v.Holdings(ctx, terms, f)
	if err != nil {
		return nil, err
	}
	return KnownHeld(sets), nil
}

// TogetherVocabulary is a Vocabulary that can tell, with one existence
// check, whether some visible chunk passing f holds every term of all
// and at least one term of anyOf (RediSearch: one FT.AGGREGATE that stops
// at the first chunk), where Holdings would count every combination of
// the terms.
type TogetherVocabulary interface {
	Vocabulary
	Together(ctx context.Context, all, anyOf []string, f *Filter) (bool, error)
}

// TogetherOf reports whether some visible chunk passing f holds every
// term of all and at least one of anyOf: v's Together when it has one,
// else read from v's Holdings of those terms (exact where Holdings is),
// true when Holdings cannot tell (a chunk may). False when anyOf is empty.
func TogetherOf(ctx context.Context, v Vocabulary, all, anyOf []string, f *Filter) (bool, error) {
	if len(anyOf) == 0 {
		return false, nil
	}
	if tv, ok := v.(TogetherVocabulary); ok {
		return tv.Together(ctx, all, anyOf, f)
	}
	var terms []string
	bits := func(ts []string) (m uint64) { // ts's positions in terms, each term once
		for _, t := range ts {
			i := slices.Index(terms, t)
			if i < 0 {
				i, terms = len(terms), append(terms, t)
			}
			m |= 1 << i
		}
		return m
	}
	every, some := bits(all), bits(anyOf)
	if len(terms) > MaxHeld {
		return true, nil
	}
	sets, err := v.Holdings(ctx, terms, f)
	if err != nil || sets == nil {
		return err == nil, err
	}
	for m := range sets {
		if m&every == every && m&some != 0 {
			return true, nil
		}
	}
	return false, nil
}
