package generate

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

var benchReq = Request{Question: "how many years is the X300 Pro motor covered for", Sources: []Source{w2026, w2024, recall, ticket}}

// BenchmarkCheck compares a reused Checker (what the Generate activity
// holds) with one built per answer: the ratio is what building the
// analyzer per call would cost.
func BenchmarkCheck(b *testing.B) {
	ans := Answer{Text: "Blender motors on the X200 and X300 Pro are covered for 5 years. [1] Older terms said 2 years [2]. See [9]."}
	b.Run("reused-checker", func(b *testing.B) {
		chk := NewChecker(terms.New())
		for b.Loop() {
			if _, err := chk.Check(benchReq, ans); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fresh-analyzer", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewChecker(terms.New()).Check(benchReq, ans); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkExtractive measures one extractive answer over four sources,
// by the default version and the one before it (v23's oneCopy, its later
// copies' words and its whole-question bearing against v22).
func BenchmarkExtractive(b *testing.B) {
	an := terms.New()
	for _, g := range []*Extractive{NewExtractive(an), NewExtractiveV22(an)} {
		b.Run(g.Model(), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Generate(context.Background(), benchReq); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
