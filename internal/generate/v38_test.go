package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// TestV38: for a question asking for a value, v38 opens its answer with
// the accepted page's value ("Every Hollin appliance has a 2-year
// warranty", accepted by builtin:coverage-v54), not with a page ranked
// above it whose typed sentence holds only the product's name ("The K50
// smart kettle boils ... in about four minutes"); v37 opens with the
// latter. An opening holding a question word that is no product's name
// (the kettle's "four minutes" for "how long does the kettle take to
// boil") stays.
func TestV38(t *testing.T) {
	an := terms.New()
	src := func(label, id, title, text string) Source {
		return Source{Label: label, Chunk: corpus.Chunk{ID: id + "#0", DocID: id, Title: title, Text: text}}
	}
	kettle := src("1", "man-k50-kettle", "K50 Smart Kettle", "The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. Descale it once a month with citric acid.")
	warranty := src("2", "pol-warranty-2026", "Warranty terms (2026)", "Every Hollin appliance has a 2-year warranty from the date of purchase. Blender motors on the X200 and X300 Pro are covered for 5 years.")
	for _, c := range []struct {
		q, accepted, want string
		v37               bool // v37 opens with want too
	}{
		{"How long is the guarantee on a Hollin kettle?", warranty.ID, "2-year", false},
		{"how long does the kettle take to boil?", kettle.ID, "four minutes", true},
	} {
		req := Request{Question: c.q, Sources: []Source{kettle, warranty}, Accepted: []string{c.accepted}}
		for _, g := range []*Extractive{NewExtractiveV37(an), NewExtractiveV38(an)} {
			a, err := g.Generate(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			opening, _, _ := strings.Cut(a.Text, "[")
			if got := strings.Contains(opening, c.want); got != (g.Version >= 38 || c.v37) {
				t.Errorf("%s: %q answered %q; opens with %q: %v", g.Model(), c.q, a.Text, c.want, got)
			}
		}
	}
	if NewExtractive(an).Model() != ExtractiveModel || ExtractiveModel != "builtin:extractive-v38" {
		t.Errorf("model %q", NewExtractive(an).Model())
	}
}
