package assess

import (
	"slices"
	"strings"
	"testing"
)

// deciderPages are Hollin's pages, as written, whose modal, instruction
// or purpose the finders take for a decision or a procedure of questions
// they do not answer (docs/log/round-30-a30-yesno.md).
var deciderPages = []Evidence{
	{ChunkID: "faq-vat-invoice#0", Title: "VAT invoices for spare parts", Text: "Business customers can ask for a VAT invoice for spare parts. Add your VAT number at checkout, or email parts@hollin.example with your order number."},
	{ChunkID: "faq-warranty-claim#0", Title: "How do I make a warranty claim?", Text: "Book a repair at hollin.example/repair with your model number and proof of purchase. A courier collects the appliance from your door. Most repairs are back with you within 10 working days."},
	{ChunkID: "man-k50-app#0", Title: "Pairing the K50 with the Hollin Home app", Text: "To pair the K50 with the Hollin Home app, hold the temperature dial down for 5 seconds until the ring light flashes white, then choose Add appliance in the app."},
	{ChunkID: "pol-money#0", Title: "Paying", Text: "Your money is safe with us."},
}

// deciderCase is a question, the page it is judged on, and whether the
// reading (set) refuses it while the default accepts it (refused) or
// both accept it.
type deciderCase struct {
	q, page string
	refused bool
}

// TestDecider: each reading of decider.go refuses the question it was
// built on, which the default (v31) accepts on a modal, an instruction
// or a purpose of something else, and still accepts questions the same
// page answers.
func TestDecider(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(b *Builtin, on bool)
		cases []deciderCase
	}{
		{"subject", func(b *Builtin, on bool) { b.Subject = on }, []deciderCase{
			{"I ordered the wrong spare part by mistake, can I send it back for a refund?", "faq-vat-invoice#0", true},
			{"Can business customers get a VAT invoice for spare parts?", "faq-vat-invoice#0", false},
			{"can I get a VAT invoice for spare parts", "faq-vat-invoice#0", false},
		}},
		{"instead", func(b *Builtin, on bool) { b.Instead = on }, []deciderCase{
			{"Can I get my money back instead of a repair under the warranty?", "faq-warranty-claim#0", true},
			{"Can I book a repair under the warranty?", "faq-warranty-claim#0", false},
		}},
		{"unnamed", func(b *Builtin, on bool) { b.Unnamed = on }, []deciderCase{
			{"Do we get a bonus from Hollin for turning a repair round inside 10 days?", "faq-warranty-claim#0", true},
			{"The app says my K50 is on firmware 2.1. Is that a problem version, and which one should it be on?", "man-k50-app#0", true},
			{"Do I get a courier to collect my appliance for a repair?", "faq-warranty-claim#0", false},
		}},
		{"purpose", func(b *Builtin, on bool) { b.Purpose = on }, []deciderCase{
			{"the ring light on my kettle is too bright at night, how do i turn it off", "man-k50-app#0", true},
			{"how do i factory reset my K50? it just won't pair with my old android phone", "man-k50-app#0", true},
			{"how do I get my K50 talking to the app on my phone?", "man-k50-app#0", false},
			{"Just got the K50 — what are the steps to add it to Hollin Home on my phone?", "man-k50-app#0", false},
		}},
	} {
		// the corpus: Hollin-like pages and the pages the reading's
		// questions are judged on (term statistics as the service's)
		corpus := append([]Evidence{}, hollinLike...)
		for _, e := range deciderPages {
			if slices.ContainsFunc(c.cases, func(dc deciderCase) bool { return dc.page == e.ChunkID }) || c.name != "subject" {
				corpus = append(corpus, e)
			}
		}
		corpus = append(corpus, Evidence{ChunkID: "pol-returns#0", Title: "Returns", Text: "Refunds are paid to the card you used."})
		b, _ := assessorOver(corpus)
		for _, dc := range c.cases {
			var ev []Evidence
			for _, e := range deciderPages {
				if e.ChunkID == dc.page {
					ev = append(ev, e)
				}
			}
			req := Request{Question: dc.q, Query: dc.q, Groups: []string{"public"}, Evidence: ev}
			c.set(b, false)
			b.Veto = false // the rules' verdict: v65's veto refuses the "unnamed" bonus case on its own (TestVeto)
			if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
				t.Errorf("%s: the rules (%s) refused %q (the case no longer shows the reading): %s", c.name, b.Model(), dc.q, res.Assessment.Reason)
			}
			b.Veto = true
			c.set(b, true)
			if b.Model() != BuiltinModel+"+"+c.name {
				t.Fatalf("model %q, want %s+%s", b.Model(), BuiltinModel, c.name)
			}
			res := assessChecked(t, b, req)
			switch {
			case dc.refused && res.Assessment.Sufficient:
				t.Errorf("%s accepted %q: %s", b.Model(), dc.q, res.Assessment.Reason)
			case !dc.refused && !res.Assessment.Sufficient:
				t.Errorf("%s refused %q: %s", b.Model(), dc.q, res.Assessment.Reason)
			}
		}
	}
}

// TestDeciderShortSubject: Builtin.Subject reads the subject of a modal
// (otherSubject) for every yes/no expression that is a modal or an
// instruction; an instruction longer than the text up to a modal that
// opens its sentence ("Pro users may: contact warrantysupport …", the
// match "Pro users may" 13 bytes, the instruction "contact
// warrantysupport" 23) sliced the sentence before its start and panicked.
// Now the assessment is made, and not on the modal, whose subject the
// question does not name. (The instruction after it in the same sentence
// is still read as the asker's: Subject's "addressed to" reads only the
// sentences before an instruction's — left as a30-yesno wrote it.)
func TestDeciderShortSubject(t *testing.T) {
	page := Evidence{ChunkID: "faq-trade#0", Title: "VAT invoices for spare parts", Text: "Pro users may: contact warrantysupport with your order number."}
	corpus := append(append([]Evidence{}, hollinLike...), page, Evidence{ChunkID: "pol-returns#0", Title: "Returns", Text: "Refunds are paid to the card you used."})
	b, _ := assessorOver(corpus)
	b.Subject = true
	q := "I ordered the wrong spare part by mistake, can I send it back for a refund?"
	res := assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: []Evidence{page}})
	if strings.Contains(res.Assessment.Reason, `"may"`) {
		t.Errorf("%s accepted %q on a modal of pro users: %s", b.Model(), q, res.Assessment.Reason)
	}
	d := &decider{an: b.an, covers: func(have map[string]bool, t string) bool { return have[t] }, qterms: b.an.Terms(q)}
	for _, c := range []struct{ sentence, expr, want string }{
		{page.Text, "contact warrantysupport", ""},
		{page.Text, "may", "Pro users"},
		{"We can; email parts@hollin.example with your order number.", "email parts", ""},
	} {
		if got := d.otherSubject(c.sentence, c.expr); got != c.want {
			t.Errorf("otherSubject(%q, %q) = %q, want %q", c.sentence, c.expr, got, c.want)
		}
	}
}
