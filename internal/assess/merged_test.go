package assess

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// TestMergeExpanded: with ExpandMerge n the plain hits come first, in
// their order, then at most n chunks of the expanded search the plain one
// did not return, in the expanded order (a chunk both found keeps its
// plain place); 0 is the expanded search alone.
func TestMergeExpanded(t *testing.T) {
	hits := func(ids ...string) []wire.Hit {
		var out []wire.Hit
		for i, id := range ids {
			out = append(out, wire.Hit{ChunkID: id, Score: float64(10 - i)})
		}
		return out
	}
	ids := func(hs []wire.Hit) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.ChunkID)
		}
		return out
	}
	plain, expanded := hits("a", "b", "c"), hits("x", "b", "y", "a", "z")
	b := NewBuiltin(terms.New(), newLexicon(terms.New()))
	for _, c := range []struct {
		n    int
		want []string
	}{
		{0, []string{"x", "b", "y", "a", "z"}},
		{1, []string{"a", "b", "c", "x"}},
		{2, []string{"a", "b", "c", "x", "y"}},
		{5, []string{"a", "b", "c", "x", "y", "z"}},
	} {
		b.ExpandMerge = c.n
		if got := ids(b.MergeExpanded(3, plain, expanded)); !slices.Equal(got, c.want) {
			t.Errorf("ExpandMerge %d: %v, want %v", c.n, got, c.want)
		}
	}
	b.ExpandMerge = 2
	if got := ids(b.MergeExpanded(3, plain, nil)); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("nothing expanded found: %v, want the plain hits", got)
	}
	if got := ids(b.MergeExpanded(3, nil, expanded)); !slices.Equal(got, []string{"x", "b"}) {
		t.Errorf("no plain hits: %v, want the first two expanded", got)
	}
	// A page short of k (a BM25 search matching three chunks for k = 5)
	// stays as it is: the assessor's order would count the added chunks
	// among the plain hits (rv38).
	if got := ids(b.MergeExpanded(5, plain, expanded)); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("3 plain hits for k 5: %v, want the plain hits alone", got)
	}
	if got := ids(b.MergeExpanded(1, nil, expanded)); !slices.Equal(got, []string{"x"}) {
		t.Errorf("no plain hits for k 1: %v, want one expanded hit", got)
	}
	for _, c := range []struct {
		k, plain int
		want     bool
	}{{5, 5, true}, {5, 0, true}, {0, 3, true}, {5, 3, false}, {5, 1, false}} {
		if got := b.Merges(c.k, c.plain); got != c.want {
			t.Errorf("Merges(%d, %d) = %v, want %v", c.k, c.plain, got, c.want)
		}
	}
	v47If(b, false)
	if b.ExpandMerge, b.Rival, b.ClassFree, b.Agree, b.Places = 0, 0, false, 0, 0; b.Merges(5, 5) {
		t.Error("Merges with ExpandMerge 0: true, want false")
	}
}

// TestMergedOwnOrder: with ExpandMerge and an expanded search, the
// evidence past the request's K (the chunks only the expansion found)
// is ordered below the plain hits, each part by its own relevance, so a
// chunk matching the query better that only the expansion found is never
// judged first; without the merge, or with no more evidence than K, the
// assessor's own order sorts all of it (v18).
func TestMergedOwnOrder(t *testing.T) {
	an := terms.New()
	ev := []Evidence{
		{ChunkID: "a#0", Title: "Descaling", Text: "Descale the kettle every month."},
		{ChunkID: "b#0", Title: "Lids", Text: "Lids cost £5."},
		{ChunkID: "c#0", Title: "Kettle warranty terms", Text: "The kettle warranty terms changed: the old terms gave one year, the new terms two."},
	}
	lex := newLexicon(an)
	for _, e := range ev {
		lex.add(an, []string{"public"}, e.Title+"\n"+e.Text)
	}
	b := NewBuiltin(an, lex)
	vocab := lex.Visible([]string{"public"})
	req := Request{Question: "did the kettle terms change", Query: "did the kettle terms change", K: 2, Groups: []string{"public"}, Evidence: ev}
	order := func() []string {
		var out []string
		for _, e := range b.ordered(req, vocab) {
			out = append(out, e.ChunkID)
		}
		return out
	}
	if got := order(); got[0] != "c#0" {
		t.Fatalf("own order %v: want the terms chunk first (the test's premise)", got)
	}
	b.ExpandMerge, b.ExpandedSearch = 2, true
	if got, want := order(), []string{"a#0", "b#0", "c#0"}; !slices.Equal(got, want) {
		t.Errorf("merged: %v, want %v (the added chunk below the plain hits)", got, want)
	}
	for _, c := range []struct {
		merge    int
		searched bool
		k        int
	}{{0, true, 2}, {2, false, 2}, {2, true, 3}} {
		b.ExpandMerge, b.ExpandedSearch, req.K = c.merge, c.searched, c.k
		if got := order(); got[0] != "c#0" {
			t.Errorf("ExpandMerge %d, ExpandedSearch %v, K %d: %v, want the v18 order (terms first)", c.merge, c.searched, c.k, got)
		}
	}
}

// mergeIf is builtin:coverage-v42's ExpandMerge when on, else 0 (for the
// tests that turn a model's switches on or off together, as aloneIf).
func mergeIf(on bool) int {
	if on {
		return mergeV42
	}
	return 0
}

// TestMergedModel: builtin:coverage-v42 is v41 with ExpandMerge 2; 0 is
// v41 (kept selectable); another value names itself.
func TestMergedModel(t *testing.T) {
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if b.ExpandMerge != mergeV42 || mergeV42 != 2 || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default ExpandMerge %d, model %q, want 2 and builtin:coverage-v68", b.ExpandMerge, b.Model())
	}
	v47If(b, false)
	if b.Rival, b.ClassFree, b.Agree, b.Places, b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = 0, false, 0, 0, false, false, false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V42Model || V42Model != "builtin:coverage-v42" {
		t.Errorf("model %q with Rival 0, want builtin:coverage-v42", b.Model())
	}
	b.ExpandMerge, b.Rival, b.ClassFree = 0, 0, false
	newerIf(b, false)
	if b.Model() != V41Model || V41Model != "builtin:coverage-v41" {
		t.Errorf("model %q with ExpandMerge 0, want builtin:coverage-v41", b.Model())
	}
	b.ExpandMerge = 5
	if got, want := b.Model(), BuiltinModel+"-merged5-norival-noclassfree-noagree-nosides-nomeasure-nolisted-noplaces-nomatter-norates-noparts-noruled-nomeasured-nosituated-nolistedclause-nocovered-nofollow-notimed-noevery-nocounts-noopposite-noreview-nolearned-nolearnedcover-noveto-nostatus"; got != want {
		t.Errorf("model %q, want %q", got, want)
	}
}
