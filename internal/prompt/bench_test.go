package prompt

import "testing"

// BenchmarkNewTokenizer measures loading the embedded vocabulary, the
// cost NewTokenizer's doc quotes.
func BenchmarkNewTokenizer(b *testing.B) {
	for b.Loop() {
		if _, err := NewTokenizer(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild measures building a two-source prompt with its budget.
func BenchmarkBuild(b *testing.B) {
	tk := tokenizer(b)
	in := Input{Question: "how many years is the X300 Pro motor covered for", Sources: []Source{warranty2026, warranty2024}, ContextTokens: 1000}
	for b.Loop() {
		if _, err := Build(in, tk); err != nil {
			b.Fatal(err)
		}
	}
}
