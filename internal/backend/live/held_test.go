package live

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/corpus"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/wire"
)

// countingVocabulary answers Holdings with answer (or err) and counts
// the calls.
type countingVocabulary struct {
	backend.Vocabulary
	calls  *int
	answer map[uint64]int
	err    error
}

func (v countingVocabulary) Holdings(context.Context, []string, *backend.Filter) (map[uint64]int, error) {
	*v.calls++
	if v.err != nil {
		return nil, v.err
	}
	return maps.Clone(v.answer), nil
}

// TestHeldMemoKeepsAnswersPerQuestion: a question's later attempts get
// its first Holdings answer without asking the index again; another
// question, other terms, another filter, or no question at all ask
// again; an answer that cannot tell (nil) is kept, and stays nil; and the caller
// may change what it gets without changing what is kept.
func TestHeldMemoKeepsAnswersPerQuestion(t *testing.T) {
	calls := 0
	v := countingVocabulary{calls: &calls, answer: map[uint64]int{1: 2, 3: 1}}
	m := newHeldMemo()
	q1 := backend.WithQuestion(context.Background(), "q1/run")
	q2 := backend.WithQuestion(context.Background(), "q2/run")
	pub := &backend.Filter{Groups: []string{"public"}}
	staff := &backend.Filter{Groups: []string{"public", "staff"}}
	ask := func(ctx context.Context, terms []string, f *backend.Filter, want int) {
		t.Helper()
		got, err := m.holdings(ctx, v, terms, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[1] != 2 || got[3] != 1 {
			t.Errorf("holdings %v, want %v", got, v.answer)
		}
		got[1] = 99 // the caller's copy
		if calls != want {
			t.Errorf("after asking %v with %v for %q: %d calls to the index, want %d", terms, f, backend.QuestionOf(ctx), calls, want)
		}
	}
	ask(q1, []string{"kettl", "water"}, pub, 1)
	ask(q1, []string{"kettl", "water"}, pub, 1) // the same question's next attempt
	ask(q2, []string{"kettl", "water"}, pub, 2) // another question
	ask(q1, []string{"kettl", "descal"}, pub, 3)
	ask(q1, []string{"kettl", "water"}, staff, 4)
	ask(context.Background(), []string{"kettl", "water"}, pub, 5) // no question named
	ask(context.Background(), []string{"kettl", "water"}, pub, 6)

	v.answer = nil // cannot tell: kept, since the same index cannot tell again
	for i, want := range []int{7, 7} {
		if got, err := m.holdings(backend.WithQuestion(context.Background(), "q3/run"), v, []string{"a"}, pub); got != nil || err != nil {
			t.Errorf("ask %d: %v, %v; want nil, no error", i, got, err)
		}
		if calls != want {
			t.Errorf("ask %d of an answer that cannot tell: %d calls, want %d", i, calls, want)
		}
	}

	// An index that fails: the error comes back, is not kept, and a
	// later attempt asks again (and keeps an answer once there is one).
	v.err = errors.New("redis: connection refused")
	for i, want := range []int{8, 9} {
		got, err := m.holdings(backend.WithQuestion(context.Background(), "q4/run"), v, []string{"a"}, pub)
		if !errors.Is(err, v.err) || got != nil {
			t.Errorf("ask %d of a failing index: %v, %v; want nil, %v", i, got, err, v.err)
		}
		if calls != want {
			t.Errorf("ask %d of a failing index: %d calls, want %d", i, calls, want)
		}
	}
	v.err, v.answer = nil, map[uint64]int{1: 1}
	for range 2 {
		if got, err := m.holdings(backend.WithQuestion(context.Background(), "q4/run"), v, []string{"a"}, pub); err != nil || got[1] != 1 {
			t.Errorf("after the index recovered: %v, %v", got, err)
		}
	}
	if calls != 10 {
		t.Errorf("after the index recovered: %d calls, want 10 (the answer kept)", calls)
	}
}

// countingSearcher counts the text searches of the index it wraps.
type countingSearcher struct {
	backend.Index
	calls *int
}

func (s countingSearcher) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	*s.calls++
	return s.Index.SearchText(ctx, text, f, k)
}

// TestNamingKeptPerVersion: Naming's answer depends only on the term,
// the filter (the asker's groups among it) and the index version, so it
// is kept for every question of the version: a question's later
// attempts, another question and a call naming no question read it
// without searching again; another filter or another term search; the
// caller may change what it gets without changing what is kept; a
// failed search is not kept. Before round 32 (p32-rcpu) an answer was
// kept for the question that asked it only (round-25 rv25b).
func TestNamingKeptPerVersion(t *testing.T) {
	body := `{"id":"a","title":"K50 Smart Kettle","text":"The K50 Smart Kettle boils in four minutes.","acl":["public"],"products":["K50"]}
{"id":"b","title":"K70 Kettle","text":"The K70 Kettle keeps water hot.","acl":["public"],"products":["K70"]}
`
	lex := openLexicon(t, body)
	calls := 0
	v := lex.Visible([]string{"public"}).(filteredVocabulary)
	v.ix = countingSearcher{lex.Index, &calls}
	q1 := backend.WithQuestion(context.Background(), "q1/run")
	q2 := backend.WithQuestion(context.Background(), "q2/run")
	ask := func(ctx context.Context, term string, f wire.Filters, texts, want int) {
		t.Helper()
		got, err := v.Naming(ctx, term, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != texts {
			t.Errorf("Naming(%s, %v) = %q, want %d texts", term, f, got, texts)
		}
		if len(got) > 0 {
			got[0] = "changed by the caller"
		}
		if calls != want {
			t.Errorf("after Naming(%s, %v) for %q: %d searches, want %d", term, f, backend.QuestionOf(ctx), calls, want)
		}
	}
	k50 := wire.Filters{Products: []string{"K50"}}
	cancelled, cancel := context.WithCancel(backend.WithQuestion(context.Background(), "q3/run"))
	cancel()
	if got, err := v.Naming(cancelled, "kettl", wire.Filters{}); err == nil {
		t.Errorf("Naming under a cancelled context = %q, want its error", got)
	}
	ask(q1, "kettl", wire.Filters{}, 4, 2) // the failed search was not kept
	ask(q1, "kettl", wire.Filters{}, 4, 2) // the same question's next attempt
	ask(q2, "kettl", wire.Filters{}, 4, 2) // another question
	ask(context.Background(), "kettl", wire.Filters{}, 4, 2)
	ask(q1, "kettl", k50, 2, 3)            // another filter
	ask(q2, "kettl", k50, 2, 3)            // ... kept too
	ask(q1, "smart", wire.Filters{}, 2, 4) // another term
	got, err := v.Naming(q1, "kettl", wire.Filters{})
	if err != nil || !slices.Contains(got, "K50 Smart Kettle") {
		t.Errorf("kept answer %q, %v: the caller's change reached it", got, err)
	}
}

// TestNamingKeptNeverCrossesGroups: an answer kept for one asker's
// groups is never another's: a staff asker's Naming, read first and
// kept, holds a staff chunk; a public asker's Naming of the same term
// then searches and reads only the public chunk, and so does its next
// call (statistics rule: every text an asker reads comes from chunks
// it may see).
func TestNamingKeptNeverCrossesGroups(t *testing.T) {
	body := `{"id":"a","title":"K50","text":"The K50 Kettle boils water.","acl":["public"]}
{"id":"s","title":"K90 Prototype","text":"The K90 Prototype Kettle ships next year.","acl":["staff"]}
`
	lex := openLexicon(t, body)
	calls := 0
	cs := countingSearcher{lex.Index, &calls}
	staff := lex.Visible([]string{"public", "staff"}).(filteredVocabulary)
	staff.ix = cs
	pub := lex.Visible([]string{"public"}).(filteredVocabulary)
	pub.ix = cs
	ctx := backend.WithQuestion(context.Background(), "q1/run")
	got, err := staff.Naming(ctx, "kettl", wire.Filters{})
	if err != nil || !strings.Contains(strings.Join(got, " "), "K90") {
		t.Fatalf("staff Naming(kettl) = %q, %v; want the K90 chunk", got, err)
	}
	for i := range 2 {
		got, err := pub.Naming(ctx, "kettl", wire.Filters{})
		if err != nil || strings.Contains(strings.Join(got, " "), "K90") || !strings.Contains(strings.Join(got, " "), "K50") {
			t.Errorf("public Naming(kettl), call %d = %q, %v; want the K50 chunk and never the staff K90 one", i, got, err)
		}
		if ws := pub.Spellings(ctx, "prototyp", wire.Filters{}); ws != nil {
			t.Errorf("public Spellings(prototyp), call %d = %v; want none (only a staff chunk holds it)", i, ws)
		}
	}
	if calls != 2 {
		t.Errorf("%d searches, want 2 (staff, then public once)", calls)
	}
}

// TestNamingMemoFollowsRebuild: the kept answers belong to one index
// version; a rebuild (a write) is a new version, served by a new
// generation with a memo of its own, so Naming reads the rebuilt chunks:
// after a rebuild restricts the only chunk naming a term to staff, a
// public asker's Naming of it reads nothing.
func TestNamingMemoFollowsRebuild(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ix")
	c := corpus.Chunk{ID: "d#0", DocID: "d", Title: "Rates", Text: "Partner rates are listed here.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Index.Dir = dir
	l, err := Open(ctx, cfg, slog.New(slog.DiscardHandler), false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	naming := func() []string {
		t.Helper()
		g, err := l.current(ctx)
		if err != nil {
			t.Fatal(err)
		}
		texts, err := g.lex.Visible([]string{"public"}).(filteredVocabulary).Naming(backend.WithQuestion(ctx, "q/run"), "partner", wire.Filters{})
		if err != nil {
			t.Fatal(err)
		}
		return texts
	}
	if got := naming(); len(got) != 2 {
		t.Fatalf("before the rebuild Naming(partner) = %q, want the public chunk", got)
	}
	c.ACL = []string{"staff"}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for got := naming(); got != nil; got = naming() {
		if time.Now().After(deadline) {
			t.Fatalf("after the rebuild restricted the chunk to staff, a public Naming(partner) still reads %q", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSpellingsShareNaming: Spellings reads the chunks Naming reads (the
// same search), through the same per-question memo: within a question
// the class reading's Naming and the rewriter's Spellings of a term
// search once, and so do a later attempt's and (the memo being the
// index version's, see TestNamingKeptPerVersion) other questions'; the
// words are those the chunks spell the term with, as when Spellings
// searched on its own. Before round 32 (p32-rcpu) Spellings searched at
// every call.
func TestSpellingsShareNaming(t *testing.T) {
	body := `{"id":"a","title":"Kettle care","text":"Descale the kettle monthly. Kettles need it.","acl":["public"]}
{"id":"b","title":"K50","text":"The kettle boils in four minutes.","acl":["public"]}
{"id":"s","title":"Staff","text":"Kettling notes, kettled stock.","acl":["staff"]}
`
	lex := openLexicon(t, body)
	calls := 0
	v := lex.Visible([]string{"public"}).(filteredVocabulary)
	v.ix = countingSearcher{lex.Index, &calls}
	q1 := backend.WithQuestion(context.Background(), "q1/run")
	spell := func(ctx context.Context, want int) {
		t.Helper()
		if got := strings.Join(v.Spellings(ctx, "kettl", wire.Filters{}), ","); got != "kettle,kettles" {
			t.Errorf("Spellings(kettl) = %q, want kettle,kettles", got)
		}
		if calls != want {
			t.Errorf("after Spellings(kettl) for %q: %d searches, want %d", backend.QuestionOf(ctx), calls, want)
		}
	}
	if _, err := v.Naming(q1, "kettl", wire.Filters{}); err != nil {
		t.Fatal(err)
	}
	spell(q1, 1)                                                   // Naming's chunks
	spell(q1, 1)                                                   // a later attempt
	spell(backend.WithQuestion(context.Background(), "q2/run"), 1) // another question: kept for the version
	spell(context.Background(), 1)
	if got := v.Spellings(q1, "k50", wire.Filters{Products: []string{"K70"}}); got != nil {
		t.Errorf("Spellings(k50) for product K70 = %v, want none", got)
	}
}

// openVocabulary answers OpenHoldings with set 1 known and sets 2 and 3
// open (3 a key), counting its calls and the open sets asked.
type openVocabulary struct {
	backend.Vocabulary
	calls, asked *int
}

func (v openVocabulary) OpenHoldings(context.Context, []string, *backend.Filter) (*backend.Held, error) {
	*v.calls++
	return backend.OpenHeld(map[uint64]int{1: 4}, []uint64{3, 2}, func(_ context.Context, sets []uint64) ([]bool, error) {
		*v.asked += len(sets)
		out := make([]bool, len(sets))
		for i, s := range sets {
			out[i] = s == 3
		}
		return out, nil
	}), nil
}

// TestHeldMemoKeepsOpenAnswers: an answer with open sets is kept per
// question as whole answers are, and an open set a later attempt asks
// again is answered from memory; Holdings through the memo is the whole
// answer (every open set asked).
func TestHeldMemoKeepsOpenAnswers(t *testing.T) {
	calls, asked := 0, 0
	v := openVocabulary{calls: &calls, asked: &asked}
	m := newHeldMemo()
	q1 := backend.WithQuestion(context.Background(), "q1/run")
	pub := &backend.Filter{Groups: []string{"public"}}
	for attempt := range 2 {
		h, err := m.open(q1, v, []string{"a", "b"}, pub)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.Sets(); len(got) != 1 || got[1] != 4 || !slices.Equal(h.Open(), []uint64{2, 3}) {
			t.Fatalf("attempt %d: known %v open %v", attempt, got, h.Open())
		}
		found, err := h.Exact(q1, []uint64{3})
		if err != nil || !found[0] {
			t.Fatalf("attempt %d: Exact(3) = %v, %v", attempt, found, err)
		}
		if calls != 1 || asked != 1 {
			t.Errorf("attempt %d: %d OpenHoldings calls, %d open sets asked; want 1 and 1", attempt, calls, asked)
		}
	}
	all, err := m.holdings(q1, v, []string{"a", "b"}, pub)
	if err != nil || !maps.Equal(all, map[uint64]int{1: 4, 3: 1}) {
		t.Errorf("Holdings through the memo: %v, %v; want map[1:4 3:1]", all, err)
	}
	if calls != 1 || asked != 2 {
		t.Errorf("after Holdings: %d calls, %d open sets asked; want 1 and 2 (set 2 once)", calls, asked)
	}
}

// togetherVocabulary answers Together with some and counts the calls.
type togetherVocabulary struct {
	backend.Vocabulary
	calls *int
	some  bool
}

func (v togetherVocabulary) Together(context.Context, []string, []string, *backend.Filter) (bool, error) {
	*v.calls++
	return v.some, nil
}

// TestHeldMemoKeepsTogetherPerQuestion: the gate's check (Together) is
// kept for the question that asked it, as Holdings is: its later
// attempts do not ask the index again; another question, other terms
// (the same terms split otherwise between all and anyOf too), another
// filter or no question ask again.
func TestHeldMemoKeepsTogetherPerQuestion(t *testing.T) {
	calls := 0
	v := togetherVocabulary{calls: &calls, some: true}
	m := newHeldMemo()
	q1 := backend.WithQuestion(context.Background(), "q1/run")
	q2 := backend.WithQuestion(context.Background(), "q2/run")
	pub := &backend.Filter{Groups: []string{"public"}}
	staff := &backend.Filter{Groups: []string{"public", "staff"}}
	ask := func(ctx context.Context, all, anyOf []string, f *backend.Filter, want int) {
		t.Helper()
		some, err := m.togetherOf(ctx, v, all, anyOf, f)
		if err != nil || !some {
			t.Fatalf("togetherOf: %v, %v", some, err)
		}
		if calls != want {
			t.Errorf("after asking %v, %v with %v for %q: %d calls to the index, want %d", all, anyOf, f, backend.QuestionOf(ctx), calls, want)
		}
	}
	ask(q1, []string{"x300"}, []string{"dial", "knob"}, pub, 1)
	ask(q1, []string{"x300"}, []string{"dial", "knob"}, pub, 1) // the same question's next attempt
	ask(q2, []string{"x300"}, []string{"dial", "knob"}, pub, 2)
	ask(q1, []string{"x300", "dial"}, []string{"knob"}, pub, 3)
	ask(q1, []string{"x300"}, []string{"dial", "knob"}, staff, 4)
	ask(context.Background(), []string{"x300"}, []string{"dial", "knob"}, pub, 5)
	ask(context.Background(), []string{"x300"}, []string{"dial", "knob"}, pub, 6)
}
