package terms

import (
	"slices"
	"testing"
)

// TestKeep: terms recorded with Keep are what a later Terms and Titled of
// the same text find, without analysing it (a marked slice comes back);
// an uncached analyzer ignores Keep.
func TestKeep(t *testing.T) {
	a := &Analyzer{a: english(), words: sharedWords(), cache: newCache()}
	title, text := "Motor warranty", "The motor is covered for ten years."
	joined := title + "\n" + text
	want := NewUncached().Terms(joined)
	marked := slices.Clone(want)
	marked[len(marked)-1] = "kept-marker"
	a.Keep(joined, marked)
	if got := a.Terms(joined); !slices.Equal(got, marked) {
		t.Errorf("Terms after Keep = %q, want the kept %q", got, marked)
	}
	tt, xt := a.Titled(title, text)
	if !slices.Equal(tt, want[:2]) || !slices.Equal(xt, marked[2:]) {
		t.Errorf("Titled after Keep = %q, %q; want %q, %q", tt, xt, want[:2], marked[2:])
	}
	u := NewUncached()
	u.Keep(joined, marked)
	if got := u.Terms(joined); !slices.Equal(got, want) {
		t.Errorf("uncached Terms after Keep = %q, want the analysis %q", got, want)
	}
}
