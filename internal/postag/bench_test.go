package postag

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// BenchmarkTag: Tag of a 2,000-byte question (the gateway's limit): the
// Hollin corpus's text as written (its words recur: "the", "warranty" …),
// the same text with each span kept once (nothing recurs), and one
// sentence written 29 times (everything recurs); and a question of 20
// words as the assessor tags it ("the" and "to" recur).
func BenchmarkTag(b *testing.B) {
	f, err := os.ReadFile("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var text []string
	for _, line := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var doc struct{ Text string }
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			b.Fatal(err)
		}
		text = append(text, strings.Fields(doc.Text)...)
	}
	seen := map[string]bool{}
	var once []string
	for _, s := range text {
		if !seen[s] {
			seen[s] = true
			once = append(once, s)
		}
	}
	for _, c := range []struct{ name, text string }{
		{"corpus", cut(text)},
		{"no repeats", cut(once)},
		{"one sentence", cut(strings.Fields(strings.Repeat("How long do service partners have to submit a warranty labour claim? ", 29)))},
		{"a question", "How long do I keep the dial pushed down to get the smart kettle ready to connect to my phone?"},
	} {
		Tag("warm")
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Tag(c.text)
			}
		})
	}
}

// cut joins the leading spans that fit in 2,000 bytes.
func cut(spans []string) string {
	n := 0
	for n < len(spans) && len(strings.Join(spans[:n+1], " ")) <= 2000 {
		n++
	}
	return strings.Join(spans[:n], " ")
}
