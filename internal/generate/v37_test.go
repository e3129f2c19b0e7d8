package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// TestV37: v37 opens its answer to a material question with the sentence naming the
// material ("a 2-litre Tritan jar") on the accepted page, not from a page
// ranked above it that shares "made"; and a speed question whose opening
// holds no speed from the accepted page's stated speed, not from a page
// ranked above it that only shares the product's name. v35 answers both
// from the page ranked first.
func TestV37(t *testing.T) {
	an := terms.New()
	specs := titled("2", "man-x200-specs", "X200 Blender specifications", "The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds. High speed reaches 22,000 RPM. Model number HL-X200-UK.")
	x300 := titled("2", "man-x300-specs", "X300 Pro Blender specifications", "The X300 Pro blender has a 1,500 W motor, a vacuum blending mode and ten speeds. High speed reaches 30,000 RPM. Model number HL-X300-UK.")
	abroad := titled("1", "faq-abroad", "Using Hollin appliances abroad", "Hollin appliances are made for UK 230 V sockets. Use a plug adapter abroad.")
	warranty := titled("1", "pol-warranty-2026", "Warranty terms (2026)", "Blender motors on the X200 and X300 Pro are covered for 5 years. Other parts are covered for 2 years.")
	for _, c := range []struct {
		q        string
		sources  []Source
		accepted string
		want     string
	}{
		{"What's the X200's jug actually made of, glass or plastic?", []Source{abroad, specs}, specs.ID, "Tritan"},
		{"Just how fast do the blades on the Pro spin at the top setting?", []Source{warranty, x300}, x300.ID, "30,000 RPM"},
	} {
		req := Request{Question: c.q, Sources: c.sources, Accepted: []string{c.accepted}}
		for _, g := range []*Extractive{NewExtractiveV35(an), NewExtractiveV37(an)} {
			opening := openingOf(t, g, req)
			if got := strings.Contains(opening, c.want); got != (g.Version >= 37) {
				t.Errorf("%s: %q opens %q; with %q: %v", g.Model(), c.q, opening, c.want, got)
			}
		}
	}
	if NewExtractiveV37(an).Model() != ExtractiveV37Model || ExtractiveV37Model != "builtin:extractive-v37" || NewExtractiveV35(an).Model() != ExtractiveV35Model {
		t.Errorf("models %q, %q", NewExtractiveV37(an).Model(), NewExtractiveV35(an).Model())
	}
}

// titled is source label: chunk 0 of document id, with its title and text.
func titled(label, id, title, text string) Source {
	return Source{Label: label, Chunk: corpus.Chunk{ID: id + "#0", DocID: id, Title: title, Text: text}}
}

// openingOf is g's answer to req up to its first citation marker.
func openingOf(t *testing.T, g *Extractive, req Request) string {
	t.Helper()
	a, err := g.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	opening, _, _ := strings.Cut(a.Text, "[")
	return opening
}
