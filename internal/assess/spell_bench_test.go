package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// BenchmarkSpellSciFact: a SciFact claim with two misspelt words,
// corrected against the index terms of SciFact's 5,183 abstracts (the
// vocabulary's document frequencies only: the test lexicon's Spellings
// reads every text).
func BenchmarkSpellSciFact(b *testing.B) {
	docs := sciFactDocs(b, 10000)
	an := terms.New()
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Title + "\n" + d.Text
	}
	lex := newLexicon(an, texts...)
	rw := NewRewriter(an, lex)
	vocab := struct{ Vocabulary }{lex.Visible([]string{"public"})}
	q := "0-dimensional biomaterails show inductive propreties for the regeneration of bone"
	if _, fixed := rw.Spell(context.Background(), q, vocab, nil, wire.Filters{}); len(fixed) != 2 {
		b.Fatalf("corrections %v, want two", fixed)
	}
	b.ReportAllocs()
	for b.Loop() {
		rw.Spell(context.Background(), q, vocab, nil, wire.Filters{})
	}
}
