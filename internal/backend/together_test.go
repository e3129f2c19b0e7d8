package backend_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

// setsVocabulary answers Holdings from chunks (each the set of terms one
// visible chunk holds), or with sets and err when answer is set; it
// counts the Holdings calls. Its other methods are not called.
type setsVocabulary struct {
	backend.Vocabulary
	chunks [][]string
	answer bool
	sets   map[uint64]int
	err    error
	calls  *int
}

func (v setsVocabulary) Holdings(_ context.Context, terms []string, _ *backend.Filter) (map[uint64]int, error) {
	*v.calls++
	if v.answer {
		return v.sets, v.err
	}
	out := map[uint64]int{}
	for _, c := range v.chunks {
		var m uint64
		for i, t := range terms {
			if slices.Contains(c, t) {
				m |= 1 << i
			}
		}
		if m != 0 {
			out[m]++
		}
	}
	return out, nil
}

// togetherVocabulary is a Vocabulary with its own Together.
type togetherVocabulary struct {
	setsVocabulary
	some bool
}

func (v togetherVocabulary) Together(context.Context, []string, []string, *backend.Filter) (bool, error) {
	return v.some, nil
}

// TestTogetherOfReadsHoldings: backend.TogetherOf, the gate's check on a
// backend without Together (bleve, through internal/backend/live), is
// whether some chunk holds every term of all and one of anyOf, read from
// Holdings: terms in both lists, terms no chunk holds, an empty all, and
// random lists checked chunk by chunk; no anyOf is false without asking;
// a Holdings that cannot tell (nil, or more than MaxHeld terms) is true (a
// chunk may), its error the error; a vocabulary's own Together is asked
// instead. Without a RediSearch server this is the only test of it
// (TestTogetherIsHoldings needs one).
func TestTogetherOfReadsHoldings(t *testing.T) {
	ctx := context.Background()
	calls := 0
	chunks := [][]string{{"a", "b", "c"}, {"a", "d"}, {"e"}, {"b", "f", "g"}}
	v := setsVocabulary{chunks: chunks, calls: &calls}
	for _, c := range []struct {
		all, anyOf []string
		want       bool
	}{
		{[]string{"a"}, []string{"b"}, true},
		{[]string{"a", "b"}, []string{"d"}, false},
		{[]string{"a"}, []string{"e", "d"}, true},
		{nil, []string{"e"}, true},
		{nil, []string{"x"}, false},
		{[]string{"a", "e"}, []string{"b"}, false},
		{[]string{"a", "d"}, []string{"d"}, true},
		{[]string{"a"}, []string{"a"}, true},
		{[]string{"c"}, []string{"d", "e"}, false},
		{[]string{"x"}, []string{"a"}, false},
		{[]string{"b"}, []string{"g", "c"}, true},
		{[]string{"b", "f"}, []string{"c"}, false},
	} {
		if got, err := backend.TogetherOf(ctx, v, c.all, c.anyOf, nil); err != nil || got != c.want {
			t.Errorf("TogetherOf(%v, %v) = %v, %v; want %v", c.all, c.anyOf, got, err, c.want)
		}
	}
	vocab := []string{"a", "b", "c", "d", "e", "f", "g", "x"}
	r := rand.New(rand.NewPCG(38, 38))
	found, none := 0, 0
	for range 300 {
		var all, anyOf []string
		for range r.IntN(3) {
			all = append(all, vocab[r.IntN(len(vocab))])
		}
		for range 1 + r.IntN(3) {
			anyOf = append(anyOf, vocab[r.IntN(len(vocab))])
		}
		want := slices.ContainsFunc(chunks, func(c []string) bool {
			return !slices.ContainsFunc(all, func(t string) bool { return !slices.Contains(c, t) }) &&
				slices.ContainsFunc(anyOf, func(t string) bool { return slices.Contains(c, t) })
		})
		if got, err := backend.TogetherOf(ctx, v, all, anyOf, nil); err != nil || got != want {
			t.Errorf("TogetherOf(%v, %v) = %v, %v; want %v", all, anyOf, got, err, want)
		}
		if want {
			found++
		} else {
			none++
		}
	}
	if found == 0 || none == 0 {
		t.Errorf("random lists: %d found, %d not: one answer only", found, none)
	}

	calls = 0
	if got, err := backend.TogetherOf(ctx, v, []string{"a"}, nil, nil); err != nil || got || calls != 0 {
		t.Errorf("no anyOf: %v, %v after %d Holdings calls; want false without asking", got, err, calls)
	}
	var many []string
	for i := range backend.MaxHeld {
		many = append(many, fmt.Sprint("t", i))
	}
	if got, err := backend.TogetherOf(ctx, v, many, []string{"a"}, nil); err != nil || !got || calls != 0 {
		t.Errorf("%d terms: %v, %v after %d Holdings calls; want true (cannot tell) without asking", backend.MaxHeld+1, got, err, calls)
	}
	if got, err := backend.TogetherOf(ctx, v, many[1:], []string{"a"}, nil); err != nil || got || calls != 1 {
		t.Errorf("%d terms: %v, %v after %d Holdings calls; want false, asked once", backend.MaxHeld, got, err, calls)
	}
	blind := setsVocabulary{answer: true, calls: &calls}
	if got, err := backend.TogetherOf(ctx, blind, []string{"a"}, []string{"b"}, nil); err != nil || !got {
		t.Errorf("Holdings cannot tell: %v, %v; want true", got, err)
	}
	down := errors.New("down")
	failing := setsVocabulary{answer: true, err: down, calls: &calls}
	if got, err := backend.TogetherOf(ctx, failing, []string{"a"}, []string{"b"}, nil); !errors.Is(err, down) || got {
		t.Errorf("Holdings failed: %v, %v; want false and its error", got, err)
	}
	calls = 0
	own := togetherVocabulary{setsVocabulary: v, some: true}
	if got, err := backend.TogetherOf(ctx, own, []string{"a", "b"}, []string{"d"}, nil); err != nil || !got || calls != 0 {
		t.Errorf("a vocabulary's own Together: %v, %v after %d Holdings calls; want its answer (true) without Holdings", got, err, calls)
	}
}
