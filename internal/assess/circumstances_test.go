package assess

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestCircumstances: Builtin.Circumstances ("+circumstances") leaves
// aside the words of a clause of condition the page lacks: the blade page
// answers how often to change the blades whatever the asker's routine.
// v29 refuses it (the words of "if I use it every weekday morning" weigh
// as much as the request's); with the switch on it accepts and its reason
// names what it left aside. A clause of time is not left aside: the ring light page
// says what colour it flashes while pairing, not once pairing has
// finished, and the switch refuses as v29 does.
func TestCircumstances(t *testing.T) {
	blades := Evidence{ChunkID: "blades#0", Title: "Z20 blade assembly", Text: "Change the Z20 blade unit once a year. Order blade units from the parts page."}
	light := Evidence{ChunkID: "light#0", Title: "Pairing the Z20", Text: "Hold the dial for 5 seconds until the ring light flashes white, then choose Add appliance in the app."}
	others := []string{"Breakfast club\nEvery weekday morning we serve toast.", "Opening hours\nWe open at 8 every weekday morning.",
		"Z20 specifications\nThe Z20 has a 1.5 litre jug.", "Z20 cleaning\nWash the Z20 jug by hand.", "Finishing touches\nWhen the job has finished, we email you.",
		"Z30 blade assembly\nThe Z30 blade unit is sharp."}
	for _, c := range []struct {
		q      string
		ev     Evidence
		accept bool
	}{
		{"How often should the Z20 blades get changed if I use it every weekday morning?", blades, true},
		{"What colour does the Z20's ring light turn once pairing has finished?", light, false},
	} {
		an := terms.New()
		lex := newLexicon(an, append([]string{blades.Title + "\n" + blades.Text, light.Title + "\n" + light.Text}, others...)...)
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.Circumstances = true
		req := Request{Question: c.q, Query: c.q, Evidence: []Evidence{c.ev}, Groups: []string{"public"}}
		res := assessChecked(t, b, req)
		if got := res.Assessment.Sufficient && res.Assessment.Score >= 0.5; got != c.accept {
			t.Errorf("+circumstances on %q: accepted %v, want %v (%s)", c.q, got, c.accept, res.Assessment.Reason)
		}
		if c.accept && !strings.Contains(res.Assessment.Reason, `leaving aside "use", "every", "weekday", "morning"`) {
			t.Errorf("+circumstances' reason does not name what it left aside: %s", res.Assessment.Reason)
		}
		b.Circumstances = false
		res = assessChecked(t, b, req)
		if res.Assessment.Sufficient && res.Assessment.Score >= 0.5 {
			t.Errorf("v29 accepts %q (%s): the case does not test Circumstances", c.q, res.Assessment.Reason)
		}
		if res.Usage.Model != BuiltinModel {
			t.Errorf("model %q with Circumstances off, want %q", res.Usage.Model, BuiltinModel)
		}
	}
}

// TestCircumstancesFirstTerm: a word the chunk lacks that only the
// circumstances hold is never the most specific term it is judged on.
func TestCircumstancesFirstTerm(t *testing.T) {
	r := &reading{qterms: []weighted{{"blade", 1, true}, {"morning", 1.5, true}}, min: 0.55, key: 1, circ: map[string]bool{"morning": true}}
	j := r.judge(map[string]bool{"blade": true}, func(h map[string]bool, t string) bool { return h[t] }, true)
	if j.key != 0 || !j.fit {
		t.Errorf("key %d, fit %v: want the chunk judged on \"blade\" and fit (coverage %.2f)", j.key, j.fit, j.coverage)
	}
}
