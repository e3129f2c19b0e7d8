package assess

import (
	"strings"
	"testing"
)

// aboutEvidence are passages stating a period or a price of something
// else on the page than a question asks (Hollin's pages, as written).
var aboutEvidence = []Evidence{
	{ChunkID: "ptn-handbook#0", Title: "Service partner handbook", Text: "Submit warranty labour claims within 14 days of the repair, quoting the Hollin case number. Use genuine Hollin parts only. Hollin pays labour at the hourly rate in your partner agreement."},
	{ChunkID: "pol-spare-parts#0", Title: "Ordering spare parts", Text: "Spare parts are sold at parts.hollin.example. Standard delivery takes 3 to 5 working days and costs £3.95. Delivery is free on parts orders over £30."},
	{ChunkID: "man-k50-kettle#1", Title: "K50 Smart Kettle", Text: "The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. Descale it once a month with citric acid."},
	{ChunkID: "pol-repairs#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days of receiving it. Collection by courier is free for appliances under warranty. Out-of-warranty repairs carry a £25 inspection fee, which is deducted from the repair price if you go ahead."},
}

// TestAboutAsked: builtin:coverage-v29 refuses a question whose only
// expression of the expected type is said of something else on the page —
// a period of another event (PeriodOf), "free" for a question about no
// payment (FreeOf) — which v28 accepted, names the expression and why in
// its reason, and still accepts the questions the same page answers.
func TestAboutAsked(t *testing.T) {
	for _, c := range []struct {
		q, chunk, aside string
		ok              []string // questions the page answers, accepted by v29
	}{
		{"Once we've submitted a labour claim, how long does Hollin take to pay it?", "ptn-handbook#0", "a period of Submit warranty labour claims within 14 days of the repair",
			[]string{"How long do we have to submit a warranty labour claim?"}},
		{"How long is the guarantee on spare parts I buy from parts.hollin.example?", "pol-spare-parts#0", "a period of Standard delivery takes 3 to 5 working days",
			[]string{"How long does standard delivery of spare parts take?", "With standard delivery, how long will a spare part take to get to me?"}},
		{"If I sell my blender on, does the warranty carry over to the new owner?", "pol-repairs#0", "a price, and the question asks about none",
			[]string{"Is courier collection free for a blender under warranty?", "How long does a repair take?"}},
		// control: the sentence stating the boiling time is read as
		// another kind ("a full kettle"), but the page states it, so the
		// period of descaling found does not refuse the page
		{"", "man-k50-kettle#1", "", []string{"Roughly how long does the K50 need to bring a full kettle to the boil?"}},
	} {
		var ev []Evidence
		for _, e := range aboutEvidence {
			if e.ChunkID == c.chunk {
				ev = append(ev, e)
			}
		}
		b, _ := assessorOver(append(append(hollinLike, aboutEvidence...), customerPages...))
		b.FreeOf = true // off by default ("+freeof")
		for _, q := range c.ok {
			req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}
			if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
				t.Errorf("v29 refused %q: %s", q, res.Assessment.Reason)
			}
		}
		if c.q == "" {
			continue
		}
		req := Request{Question: c.q, Query: c.q, Groups: []string{"public"}, Evidence: ev}
		res := assessChecked(t, b, req)
		if res.Assessment.Sufficient {
			t.Errorf("v29 accepted %q: %s", c.q, res.Assessment.Reason)
		} else if !strings.Contains(res.Assessment.Reason, c.aside) {
			t.Errorf("v29's reason for %q does not say %q: %s", c.q, c.aside, res.Assessment.Reason)
		}
		b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if res := assessChecked(t, b, req); !res.Assessment.Sufficient || b.Model() != V28Model {
			t.Errorf("v28 (%s) refused %q (the test no longer shows v29's check): %s", b.Model(), c.q, res.Assessment.Reason)
		}
	}
}

// TestClauseOf: the clause of a sentence holding an expression is cut at
// commas, semicolons, colons and spaced dashes.
func TestClauseOf(t *testing.T) {
	for _, c := range []struct{ s, expr, want string }{
		{"E7 means the motor has overheated: unplug the blender for 20 minutes.", "20 minutes", " unplug the blender for 20 minutes."},
		{"Submit warranty labour claims within 14 days of the repair, quoting the Hollin case number.", "14 days", "Submit warranty labour claims within 14 days of the repair"},
		{"Delivery takes 3 days - or 1 day by express.", "1 day", "or 1 day by express."},
		{"No such expression here.", "2 days", "No such expression here."},
	} {
		if got := clauseOf(c.s, c.expr); got != c.want {
			t.Errorf("clauseOf(%q, %q) = %q, want %q", c.s, c.expr, got, c.want)
		}
	}
}
