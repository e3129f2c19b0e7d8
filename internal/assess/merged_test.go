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
		if got := ids(b.MergeExpanded(plain, expanded)); !slices.Equal(got, c.want) {
			t.Errorf("ExpandMerge %d: %v, want %v", c.n, got, c.want)
		}
	}
	b.ExpandMerge = 2
	if got := ids(b.MergeExpanded(plain, nil)); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("nothing expanded found: %v, want the plain hits", got)
	}
	if got := ids(b.MergeExpanded(nil, expanded)); !slices.Equal(got, []string{"x", "b"}) {
		t.Errorf("no plain hits: %v, want the first two expanded", got)
	}
}
