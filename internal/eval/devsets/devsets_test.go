package devsets

import (
	"os"
	"slices"
	"testing"
)

// TestFiles: every development set has its questions and key facts where
// the harnesses look, once each.
func TestFiles(t *testing.T) {
	for i, name := range Names {
		if slices.Contains(Names[:i], name) {
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
