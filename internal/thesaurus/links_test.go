package thesaurus

import (
	"fmt"
	"strings"
	"testing"
)

// TestLinks: Links follows only the pointers asked for; a lexical pointer
// (a source/target other than 0000) only from the word's own lemma and
// only to the word it names; a semantic one to every word of the synset;
// a meronym's two-letter symbol (%p) is read as '%'. Without the change
// that keeps those pointers, "wheel" is not reached.
func TestLinks(t *testing.T) {
	dir := writeDB(t, [][]string{
		{"normal", "usual"},         // 0
		{"standard", "regular"},     // 1: also see of 0 (semantic)
		{"replace", "substitute"},   // 2
		{"replacement", "stand-in"}, // 3: "replace" derives "replacement" (lexical 0101)
		{"car", "auto"},             // 4
		{"wheel"},                   // 5: a part of car
	}, map[int][][2]string{
		0: {{"^", "1"}},
		2: {{"+/0101", "3"}, {"@", "0"}},
		4: {{"%p", "5"}},
	})
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	show := func(word, syms string) string {
		var out []string
		for _, x := range w.Links(word, syms) {
			out = append(out, fmt.Sprintf("%s %c", x.Word, x.Pointer))
		}
		return strings.Join(out, "; ")
	}
	for _, c := range []struct{ word, syms, want string }{
		{"normal", "^", "regular ^; standard ^"},
		{"usual", "^", "regular ^; standard ^"}, // a semantic pointer: every word of the synset
		{"normal", "&+", ""},                    // not the pointers asked for
		{"replace", "+", "replacement +"},       // the lexical pointer's target only, not "stand-in"
		{"substitute", "+", ""},                 // not from another word of the synset
		{"replace", "@", "normal @; usual @"},
		{"car", "%", "wheel %"},
		{"car", "#", ""},
	} {
		if got := show(c.word, c.syms); got != c.want {
			t.Errorf("Links(%q, %q) = %q, want %q", c.word, c.syms, got, c.want)
		}
	}
	// Taxa is Links of the taxonomic pointers: unchanged by the others.
	if got := len(w.Taxa("replace")); got != 2 {
		t.Errorf("Taxa(replace) has %d words, want 2 (normal, usual)", got)
	}
}

// TestDebianLinks checks the relation builtin:coverage-v25 reads against
// the real database when it is installed: "normal" reaches "standard"
// through an also-see pointer, common senses of both; "express" does
// not reach "standard" ("express delivery" is another kind than the
// page's "Standard delivery").
func TestDebianLinks(t *testing.T) {
	w, err := Open(DefaultDir)
	if err != nil {
		t.Skip("SKIPPED: no WordNet database in " + DefaultDir + "; apt-get install wordnet-base to run")
	}
	both := func(word, to string) bool {
		for _, x := range w.Links(word, "&^") {
			if x.Word == to && x.Common && x.ItsCommon {
				return true
			}
		}
		return false
	}
	if !both("normal", "standard") {
		t.Error("normal → standard (also see) not through common senses of both; want it")
	}
	for _, c := range [][2]string{{"express", "standard"}, {"fast", "standard"}, {"quick", "standard"}} {
		if both(c[0], c[1]) {
			t.Errorf("%s → %s through similar to or also see; want not", c[0], c[1])
		}
	}
}
