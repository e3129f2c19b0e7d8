package thesaurus

import (
	"slices"
	"testing"
)

// TestPlaced: a proper name's instance hypernym and that class's
// hypernyms reach the adverbs and adjectives whose gloss's phrase ends in
// one of them, through a sense of the class word among its maxSenses
// most frequent: "abroad" ("to or in a foreign country") for Spain and
// "the States", not "edgy" ("in a state of nervous tension": "state" is
// the country's seventh sense); a common noun or a name WordNet does not
// know as an instance places nothing.
func TestPlaced(t *testing.T) {
	w, err := Open(DefaultDir)
	if err != nil {
		t.Skip("SKIPPED: no WordNet database in " + DefaultDir + "; apt-get install wordnet-base to run")
	}
	for _, name := range []string{"Spain", "the States", "Canada", "Australia"} {
		got := w.Placed(name)
		if !slices.Contains(got, "abroad") || slices.Contains(got, "edgy") || slices.Contains(got, "landward") {
			t.Errorf("Placed(%q) = %v, want abroad, not edgy or landward", name, got)
		}
		if !slices.IsSorted(got) {
			t.Errorf("Placed(%q) = %v, not sorted", name, got)
		}
	}
	for _, name := range []string{"kettle", "States", "Hollin", "warranty", "", "xyzzy"} {
		if got := w.Placed(name); len(got) != 0 {
			t.Errorf("Placed(%q) = %v, want none", name, got)
		}
	}
	// an instance pointer is kept for Placed only: Taxa and Links do not follow it
	for _, x := range w.Links("Spain", followed) {
		if x.Pointer == instanceOf {
			t.Errorf("Links(Spain) followed the instance pointer to %q", x.Word)
		}
	}
}
