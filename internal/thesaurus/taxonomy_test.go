package thesaurus

import (
	"fmt"
	"strings"
	"testing"
)

// TestTaxa: Taxa follows one hypernym (@) or hyponym (~) pointer from
// each sense of a word's base forms, says which way and through which
// senses (without counts, a word's first sense is its common one), and
// follows no other pointer.
func TestTaxa(t *testing.T) {
	dir := writeDB(t, [][]string{
		{"erase"},            // 0: erase's first sense
		{"delete", "cancel"}, // 1: its hypernym
		{"erase", "rub_out"}, // 2: erase's second sense
		{"clean"},            // 3: its hypernym
		{"purge"},            // 4: a hyponym of 1, through its first sense
		{"remove"},           // 5: derivation only
		{"clean", "polish"},  // 6: clean's second sense, a hyponym of 1
	}, map[int][][2]string{0: {{"@", "1"}, {"+/0101", "5"}}, 1: {{"~", "0"}, {"~", "4"}, {"~", "6"}}, 2: {{"@", "3"}}, 4: {{"@", "1"}}, 6: {{"@", "1"}}})
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A word WordNet does not know is answered (with nothing) and not
	// kept; a known one is kept.
	if got := w.Taxa("zorbexing"); len(got) != 0 {
		t.Errorf("Taxa(zorbexing) = %v, want none", got)
	}
	if _, kept := w.taxa.Load("zorbexing"); kept {
		t.Error("Taxa kept an unknown word: made-up words would grow the cache without bound")
	}
	w.Taxa("erase")
	if _, kept := w.taxa.Load("erase"); !kept {
		t.Error("Taxa did not keep a known word's answer")
	}
	show := func(word string) string {
		var out []string
		for _, x := range w.Taxa(word) {
			way := "narrower"
			if x.Broader {
				way = "broader"
			}
			out = append(out, fmt.Sprintf("%s %s %d/%v %d/%v", x.Word, way, x.Sense, x.Common, x.Its, x.ItsCommon))
		}
		return strings.Join(out, "; ")
	}
	for _, c := range []struct{ word, want string }{
		// erased: a regular form; "delete" and "cancel" through its first
		// sense, "clean" through its second (not common), and "clean" is
		// reached in its own first sense; "remove" (a derivation) is not
		// one.
		{"erases", "cancel broader 1/true 1/true; clean broader 2/false 1/true; delete broader 1/true 1/true"},
		// "clean" reached in its second sense, not a common one of its own
		{"delete", "clean narrower 1/true 2/false; erase narrower 1/true 1/true; polish narrower 1/true 1/true; purge narrower 1/true 1/true"},
		{"purge", "cancel broader 1/true 1/true; delete broader 1/true 1/true"},
		{"cancel", "clean narrower 1/true 2/false; erase narrower 1/true 1/true; polish narrower 1/true 1/true; purge narrower 1/true 1/true"},
		{"remove", ""},
		{"zebra", ""},
	} {
		if got := show(c.word); got != c.want {
			t.Errorf("Taxa(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

// TestDebianTaxa checks Taxa against the real database when it is
// installed: "ask" reaches "request" through common senses of both, and
// "support" does not reach "part" through common senses (a round-22 false
// acceptance: a support line read as a spare part).
func TestDebianTaxa(t *testing.T) {
	w, err := Open(DefaultDir)
	if err != nil {
		t.Skip("SKIPPED: no WordNet database in " + DefaultDir + "; apt-get install wordnet-base to run")
	}
	common := func(word, to string) (found, both bool) {
		for _, x := range w.Taxa(word) {
			if x.Word == to {
				found = true
				both = both || x.Common && x.ItsCommon
			}
		}
		return
	}
	if found, both := common("asked", "request"); !found || !both {
		t.Errorf("asked → request: found %v, through common senses %v; want both", found, both)
	}
	if _, both := common("support", "part"); both {
		t.Errorf("support → part through common senses; want not")
	}
}
