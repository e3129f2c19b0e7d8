package assess

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestCharged (builtin:coverage-v66, round 48; rv47's TestProposalOwnFee):
// asked "Do you charge an inspection fee for my kettle out of warranty?"
// over the repairs page (a £25 fee for every appliance; its yes/no word
// "free" is said of collection) and the K50 Smart Kettle's own repairs
// page (a £10 fee), v63 accepts the repairs page in either order: the
// kettle's page states no yes/no word. With Charged the amount on the
// kettle's own page decides the question and that page is accepted. A
// page of no product stating an amount is not read so (ownProductPage):
// the same fee said of "a kettle" on a page naming no code stays
// undecided.
func TestCharged(t *testing.T) {
	other := []string{"Opening hours\nWe open at nine.", "Registering your appliance\nRegister it online.", "Switching on\nHold the button to turn it on."}
	q := "Do you charge an inspection fee for my kettle out of warranty?"
	for _, ids := range [][]string{{"rep#0", "k50fee#0"}, {"k50fee#0", "rep#0"}} {
		for _, on := range []bool{false, true} {
			r := judgeAmong(t, everyCorpus, other, func(b *Builtin) { b.Charged = on }, q, ids...)
			want := map[bool]string{false: "rep#0", true: "k50fee#0"}[on]
			if acceptedOn(r) != want || on && !strings.Contains(r.Assessment.Reason, `"£10"`) {
				t.Errorf("Charged %v, %q over %v: accepted %v (%s), want %s", on, q, ids, r.Accepted, r.Assessment.Reason, want)
			}
		}
	}
	corpus := append([]Evidence{{ChunkID: "kfee#0", Title: "Kettle repairs", Text: "Out-of-warranty repairs of a kettle carry a £10 inspection fee."}}, everyCorpus...)
	if r := judgeAmong(t, corpus, other, func(*Builtin) {}, q, "kfee#0"); r.Assessment.Sufficient {
		t.Errorf("%q over a page naming no product: accepted %v (%s), want refused", q, r.Accepted, r.Assessment.Reason)
	}
	// Asked how much, the amount answered before Charged.
	if r := judgeAmong(t, everyCorpus, other, func(b *Builtin) { b.Charged = false }, "How much is the inspection fee for my kettle out of warranty?", "rep#0", "k50fee#0"); acceptedOn(r) != "k50fee#0" {
		t.Errorf("how much, Charged off: accepted %v (%s), want k50fee#0", r.Accepted, r.Assessment.Reason)
	}
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Charged || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v66" {
		t.Errorf("default Charged %v, model %q, want on and builtin:coverage-v66", b.Charged, b.Model())
	}
	if b.Charged = false; b.Model() != V63Model {
		t.Errorf("Charged off: model %q, want %s", b.Model(), V63Model)
	}
}
