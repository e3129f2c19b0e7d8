package assess

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestVeto: builtin:coverage-v65's veto refuses an acceptance of the rules
// that its model scores below vetoBelow, and says so in the asker's terms
// (the page's title, the score, the rules' reason); an acceptance it
// scores higher stands, and with Veto off the rules' acceptance is
// returned. The refused case is a no-answer question of the development
// sets (fresh9 r90: no document says Hollin pays a bonus), on the page the
// rules accepted it on.
func TestVeto(t *testing.T) {
	page, corpus := warrantyClaimPage()
	b, _ := assessorOver(corpus)
	if !b.Veto || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Fatalf("default Veto %v, model %q, want on and builtin:coverage-v68", b.Veto, b.Model())
	}
	judge := func(veto bool, q string) Result {
		b.Veto = veto
		return assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: page})
	}
	q := "Do we get a bonus from Hollin for turning a repair round inside 10 days?"
	if r := judge(false, q); !r.Assessment.Sufficient || !slices.Equal(r.Accepted, []string{"faq-warranty-claim#0"}) {
		t.Fatalf("the rules refuse %q (%+v): the case no longer tests the veto", q, r.Assessment)
	}
	r := judge(true, q)
	if r.Assessment.Sufficient || len(r.Accepted) > 0 || !strings.Contains(r.Assessment.Reason, `the rules accepted "How do I make a warranty claim?"`) ||
		!strings.Contains(r.Assessment.Reason, "scores it") || r.Usage.Model != BuiltinModel {
		t.Errorf("Veto on %q: %+v %v (model %s), want refused by the veto", q, r.Assessment, r.Accepted, r.Usage.Model)
	}
	ok := "Do I get a courier to collect my appliance for a repair?"
	if r := judge(true, ok); !r.Assessment.Sufficient || !slices.Equal(r.Accepted, []string{"faq-warranty-claim#0"}) {
		t.Errorf("Veto on %q: %+v, want the rules' acceptance kept", ok, r.Assessment)
	}
	if b.Veto, b.Status = false, false; b.Model() != V63Model {
		t.Errorf("Veto off: model %q, want %s", b.Model(), V63Model)
	}
	// The table's score of a vector of zeros is a probability.
	x := make([]float64, len(featureNames))
	if p := vetoScore(x); math.IsNaN(p) || p <= 0 || p >= 1 {
		t.Errorf("vetoScore of zeros = %v", p)
	}
}
