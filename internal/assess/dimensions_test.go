package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestDimensionsKeepPounds: builtin:coverage-v12's Dimensions reads "how
// heavy" as a mass; a page stating the weight in pounds still answers it,
// as it did for v10 (a mass in kilograms too, a power in watts not).
func TestDimensionsKeepPounds(t *testing.T) {
	an := terms.New()
	ev := map[string]Evidence{
		"pounds": {ChunkID: "spec-lb#0", Title: "X300 Pro specifications", Text: "The X300 Pro weighs 12 pounds without the jar."},
		"kg":     {ChunkID: "spec-kg#0", Title: "X300 Pro specifications", Text: "The X300 Pro weighs 5.4 kg without the jar."},
		"watts":  {ChunkID: "spec-w#0", Title: "X300 Pro specifications", Text: "The X300 Pro is heavy duty: its motor is rated at 1,500 W."},
	}
	var texts []string
	for _, e := range ev {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	texts = append(texts, "Hollin Home app: pair your kettle", "Contact us by phone", "X200 blender jar")
	lex := newLexicon(an, texts...)
	q := "How heavy is the X300 Pro?"
	for name, want := range map[string]bool{"pounds": true, "kg": true, "watts": false} {
		b := NewBuiltin(an, lex)
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: []Evidence{ev[name]}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Assessment.Sufficient; got != want {
			t.Errorf("%q on the page in %s: sufficient %v, want %v (%s)", q, name, got, want, res.Assessment.Reason)
		}
	}
}
