package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestGeneralClass: builtin:coverage-v28 (Builtin.General) reads a
// product's class on a page about no product. The registration page is
// about every appliance and never says "toaster"; the asker's visible
// documents write the class in the product's name ("Z20 Smart Toaster").
// v27 refuses (the class reading credits the noun only to a page naming
// the Z20); v28 accepts on the registration page. It credits no page that
// names a code (a page about the Z30 is not about toasters), and nothing
// when the page writing the name is one the asker may not see: no word of
// an invisible document changes a decision, and the reason names none of
// its words. A failed search fails the assessment.
func TestGeneralClass(t *testing.T) {
	reg := Evidence{ChunkID: "reg#0", Title: "Registering your appliance", Text: "Register your appliance online to get recall alerts and faster warranty claims."}
	z30 := Evidence{ChunkID: "z30#0", Title: "Registering the Z30", Text: "Register the Z30 online to get recall alerts and faster warranty claims."}
	name := "Z20 Smart Toaster\nThe Z20 has four slots and six browning levels."
	others := []string{"Orders\nWe list your orders.", "Delivery\nWe deliver in three days.", "Returns\nReturn it within 30 days."}
	q := "Why should I register my toaster?"
	for _, c := range []struct {
		acl string
		ev  Evidence
	}{{"public", reg}, {"staff", reg}, {"public", z30}} {
		an := terms.New()
		lex := newLexicon(an, c.ev.Title+"\n"+c.ev.Text)
		lex.add(an, []string{c.acl}, name)
		for _, o := range others {
			lex.add(an, []string{"public"}, o)
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		req := Request{Question: q, Query: q, Evidence: []Evidence{c.ev}, Groups: []string{"public"}}
		res := assessChecked(t, b, req)
		want := c.acl == "public" && c.ev.ChunkID == "reg#0"
		if got := res.Assessment.Sufficient && res.Assessment.Score >= 0.5; got != want {
			t.Errorf("v28, %s, name page %s: accepted %v, want %v (%s)", c.ev.ChunkID, c.acl, got, want, res.Assessment.Reason)
		}
		if res.Usage.Model != BuiltinModel {
			t.Errorf("model %q, want %q", res.Usage.Model, BuiltinModel)
		}
		if strings.Contains(res.Assessment.Reason, "Smart") || strings.Contains(res.Assessment.Reason, "slots") {
			t.Errorf("the reason names the name page's words: %s", res.Assessment.Reason)
		}
		b.General = false
		if res := assessChecked(t, b, req); res.Assessment.Sufficient && res.Assessment.Score >= 0.5 {
			t.Errorf("v27 accepts %q on %s (%s): the case does not test General", q, c.ev.ChunkID, res.Assessment.Reason)
		} else if res.Usage.Model != V27Model {
			t.Errorf("model %q with General off, want %q", res.Usage.Model, V27Model)
		}
	}
	an := terms.New()
	b := NewBuiltin(an, failingNames{newLexicon(an, reg.Title+"\n"+reg.Text, name)})
	if _, err := b.Assess(context.Background(), Request{Question: q, Query: q, Evidence: []Evidence{reg}, Groups: []string{"public"}}); err == nil {
		t.Error("Assess judged although reading the visible chunks failed")
	}
}
