package assess

import (
	"strings"
	"testing"
)

// boundEvidence are passages holding a value of a question's expected
// type that is the value of something else than the question asks.
var boundEvidence = []Evidence{
	{ChunkID: "ptn-brook-rates#0", Title: "Brook Street Repairs: partner agreement", Text: "Hollin pays Brook Street Repairs £42 per hour of warranty labour and £18 per home visit. The agreement runs to 31 March 2027."},
	{ChunkID: "tkt-30455#0", Title: "Case 30455: K50 will not pair", Text: "Case 30455. The K50 would not pair with an older Android phone. Holding the dial and the power button together for 15 seconds reset it, and pairing then worked."},
	{ChunkID: "tkt-30412#0", Title: "Case 30412: X200 stopped mid-blend", Text: "Customer Ellie Shaw reports her X200 stopped mid-blend showing E7. Agent advised unplugging for 20 minutes; the blender worked afterwards."},
	{ChunkID: "sb-114#0", Title: "SB-114: K50 firmware 2.3", Text: "K50 kettles on firmware 2.1 may switch off before boiling. Update them to firmware 2.3 through the Hollin Home app."},
	{ChunkID: "man-k50-kettle#1", Title: "K50 Smart Kettle", Text: "The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. Descale it once a month with citric acid."},
}

// customerPages make "customer" a common word of the corpus, as it is in
// Hollin's: the question's most specific word is the case number.
var customerPages = []Evidence{
	{ChunkID: "c#1", Title: "Customer service", Text: "A customer may call us."},
	{ChunkID: "c#2", Title: "Customer returns", Text: "A customer may return a blender."},
	{ChunkID: "c#3", Title: "Customer cases", Text: "Each customer case has a number."},
}

// TestBoundValues: builtin:coverage-v28 refuses a question whose only
// expression of the expected type is a value of something else than the
// question asks it of, which v27 accepted, names that expression and why
// in its reason, and still accepts the value asked for on the same page.
func TestBoundValues(t *testing.T) {
	for _, c := range []struct {
		q, chunk, aside string
		ok              []string // questions the page answers, accepted by v28
	}{
		{"How much does Hollin pay Brook Street Repairs per mile for travel to home visits?", "ptn-brook-rates#0", "not per mile",
			[]string{"How much does Hollin pay Brook Street Repairs per home visit?", "How much does Hollin pay Brook Street Repairs per hour of warranty labour?"}},
		{"What's the name of the customer in case 30455?", "tkt-30455#0", "not a person's name",
			nil},
		{"What's the name of the customer in case 30412?", "", "", // control: a person's name, two capitalised words
			[]string{"What's the name of the customer in case 30412?"}},
		{"When did Ellie Shaw buy the X200 from case 30412?", "tkt-30412#0", "a duration, not a time", nil},
		{"What's the least water I can boil in the K50?", "man-k50-kettle#1", "not stated as the least",
			[]string{"How much water can I boil in the K50?"}},
		{"Roughly how many K50 kettles are still on firmware 2.1?", "sb-114#0", "a decimal, not a count", nil},
		{"What's the highest temperature I can set the K50 kettle to keep water at?", "man-k50-kettle#1", "",
			nil},
	} {
		b, _ := assessorOver(append(append(hollinLike, boundEvidence...), customerPages...))
		for _, q := range c.ok {
			ev := boundEvidence
			req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}
			if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
				t.Errorf("v28 refused %q: %s", q, res.Assessment.Reason)
			}
		}
		if c.chunk == "" {
			continue
		}
		var ev []Evidence
		for _, e := range boundEvidence {
			if e.ChunkID == c.chunk {
				ev = append(ev, e)
			}
		}
		req := Request{Question: c.q, Query: c.q, Groups: []string{"public"}, Evidence: ev}
		res := assessChecked(t, b, req)
		if res.Assessment.Sufficient {
			t.Errorf("v28 accepted %q: %s", c.q, res.Assessment.Reason)
		} else if !strings.Contains(res.Assessment.Reason, c.aside) {
			t.Errorf("v28's reason for %q does not say %q: %s", c.q, c.aside, res.Assessment.Reason)
		}
		b.Bound, b.General, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if res := assessChecked(t, b, req); !res.Assessment.Sufficient || b.Model() != V27Model {
			t.Errorf("v27 (%s) refused %q (the test no longer shows v28's check): %s", b.Model(), c.q, res.Assessment.Reason)
		}
	}
}
