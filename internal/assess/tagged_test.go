package assess

import (
	"slices"
	"sync"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestTaggedVerbsAlign: taggedVerbs pairs the clause's words with the
// tagger's exactly or by a contraction's first part, never by a shorter
// word's prefix: "phone/app" is one word to the tagger and two to
// actionWords, and neither "phone" nor "app" may borrow a later word's tag
// ("app" is not "a"), or "pay" after them is lost. The first word is
// matched whatever its case ("Does").
func TestTaggedVerbsAlign(t *testing.T) {
	for _, c := range []struct {
		clause string
		want   map[string]bool
	}{
		{"can i use my phone/app to pay a deposit?", map[string]bool{"use": true, "phone": false, "app": false, "pay": true, "deposit": false}},
		{"Does that stop me claiming?", map[string]bool{"does": true, "that": false, "stop": true}},
	} {
		ws := actionWords(c.clause)
		got := taggedVerbs(c.clause, ws)
		for i, w := range ws {
			if v, ok := c.want[w]; ok && got[i] != v {
				t.Errorf("%q: %q (word %d) verb %v, want %v (%v)", c.clause, w, i, got[i], v, ws)
			}
		}
	}
}

// TestQualifiersTaggedAfterPreposition: with Tagged the position rule is
// not read: "starting" after "before" (a phrase end, so a noun to v36) is
// a qualifier where the tagger reads a verb.
func TestQualifiersTaggedAfterPreposition(t *testing.T) {
	g := fakeGrammar{fakeThesaurus{}, map[string]string{"starting": "v", "use": "nv", "wait": "nv"},
		map[string][]int{"starting": {2, 28, 33}}}
	b := &Builtin{an: terms.New(), Frame: true}
	b.Thesaurus = g
	q := "How long should I wait before starting to use it?"
	if got := readQualifiers(b, q, nil); got != nil {
		t.Errorf("v36: qualifiers(%q) = %v, want none (after \"before\")", q, got)
	}
	b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = true, 0, 0, 0, 0, false
	newerIf(b, false)
	b.Gate = false
	if got := readQualifiers(b, q, nil); !slices.Equal(got, []string{"start"}) {
		t.Errorf("v37: qualifiers(%q) = %v, want [start]", q, got)
	}
}

// TestQualifiersTaggedConcurrent: one Builtin serves every Assess
// activity the worker runs at once; with Tagged, qualifiers tags from
// many goroutines (run with -race).
func TestQualifiersTaggedConcurrent(t *testing.T) {
	g := fakeGrammar{fakeThesaurus{}, map[string]string{"starting": "v", "use": "nv", "wait": "nv", "stop": "nv", "claiming": "v"},
		map[string][]int{"starting": {2, 28, 33}, "stop": {8, 28, 33}}}
	b := &Builtin{an: terms.New(), Frame: true, Tagged: true}
	b.Thesaurus = g
	qs := map[string][]string{"How long should I wait before starting to use it?": {"start"}, "Does that stop me claiming on the warranty?": {"stop"}}
	var wg sync.WaitGroup
	for range 8 {
		for q, want := range qs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got := readQualifiers(b, q, nil); !slices.Equal(got, want) {
					t.Errorf("qualifiers(%q) = %v, want %v", q, got, want)
				}
			}()
		}
	}
	wg.Wait()
}
