package assess

import (
	"strings"
	"testing"
)

// decidesEvidence is Hollin's page, as written, whose modal and
// instruction ("can ask for a VAT invoice", "Add your VAT number") the
// yes/no finder takes for a decision of any yes/no question.
var decidesEvidence = []Evidence{
	{ChunkID: "faq-vat-invoice#0", Title: "VAT invoices for spare parts", Text: "Business customers can ask for a VAT invoice for spare parts. Add your VAT number at checkout, or email parts@hollin.example with your order number."},
}

// TestDecides: with Builtin.Decides ("+decides") the builtin assessor
// refuses a yes/no question whose only decision in the evidence is a modal
// or an instruction of another action, which the default (v30) accepts,
// and still accepts the yes/no and other questions the same page answers.
func TestDecides(t *testing.T) {
	corpus := append(append([]Evidence{}, hollinLike...), decidesEvidence...)
	// a page the question's word "refund" is known from, not retrieved below
	corpus = append(corpus, Evidence{ChunkID: "pol-returns#0", Title: "Returns", Text: "Refunds are paid to the card you used."})
	b, _ := assessorOver(corpus)
	b.Decides = true
	if b.Model() != BuiltinModel+"+decides" {
		t.Fatalf("model %q, want %s+decides", b.Model(), BuiltinModel)
	}
	for _, q := range []string{"Can business customers get a VAT invoice for spare parts?", "Do I have to add my VAT number at checkout?", "Where do I email for a VAT invoice on spare parts?"} {
		req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: decidesEvidence}
		if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
			t.Errorf("+decides refused %q: %s", q, res.Assessment.Reason)
		}
	}
	q := "I ordered the wrong spare part by mistake, can I send it back for a refund?"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: decidesEvidence}
	res := assessChecked(t, b, req)
	if res.Assessment.Sufficient {
		t.Errorf("+decides accepted %q: %s", q, res.Assessment.Reason)
	} else if strings.Contains(res.Assessment.Reason, "yes/no statement near") {
		t.Errorf("+decides's reason for %q still reads a yes/no statement: %s", q, res.Assessment.Reason)
	}
	b.Decides = false
	if res := assessChecked(t, b, req); !res.Assessment.Sufficient || b.Model() != BuiltinModel {
		t.Errorf("the default (%s) refused %q (the test no longer shows the reading): %s", b.Model(), q, res.Assessment.Reason)
	} else if !strings.Contains(res.Assessment.Reason, `yes/no statement near them: "can"`) {
		t.Errorf("the default accepted %q on another reading than the modal: %s", q, res.Assessment.Reason)
	}
}
