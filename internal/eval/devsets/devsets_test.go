package devsets

import (
	"os"
	"slices"
	"testing"
)

// TestFiles: every development set has its questions and key facts where
// the harnesses look, once each.
func TestFiles(t *testing.T) {
	all := Names()
	for i, name := range all {
		if slices.Contains(all[:i], name) {
			t.Errorf("%s listed twice", name)
		}
		for _, f := range []string{Questions(name), KeyFacts(name)} {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("set %s: %v", name, err)
			}
		}
	}
	if _, err := os.Stat(Corpus()); err != nil {
		t.Error(err)
	}
}

// TestNamesIsACopy: a caller that writes into, appends to or sorts the
// list it got changes nobody else's.
func TestNamesIsACopy(t *testing.T) {
	want := slices.Clone(names)
	got := Names()
	got[0] = "blind"
	_ = append(got[:1], "blind2")
	slices.Reverse(got)
	if again := Names(); !slices.Equal(again, want) {
		t.Fatalf("Names() after a caller changed its copy: %v, want %v", again, want)
	}
	if len(want) == 0 || want[0] != "hollin" {
		t.Fatalf("names starts %v, want hollin first", want)
	}
}
