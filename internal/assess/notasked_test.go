package assess

import (
	"strings"
	"testing"
)

// notAskedEvidence are Hollin's pages, as written, that state a period or a
// place of something else than a question asks.
var notAskedEvidence = []Evidence{
	{ChunkID: "ptn-handbook#0", Title: "Service partner handbook", Text: "Submit warranty labour claims within 14 days of the repair, quoting the Hollin case number. Use genuine Hollin parts only. Hollin pays labour at the hourly rate in your partner agreement."},
	{ChunkID: "pol-warranty-2026#0", Title: "Warranty terms (2026)", Text: "Every Hollin appliance has a 2-year warranty from the date of purchase. Blender motors on the X200 and X300 Pro are covered for 5 years."},
	{ChunkID: "ntc-repair-centre-move#0", Title: "Repair centre move", Text: "Our repair centre is moving from Cleckheaton to Wakefield. Repairs booked between 1 and 16 October 2026 may take 2 extra working days."},
}

// TestNotAsked: builtin:coverage-v30 refuses a question whose only
// expression of the expected type is said of something else — a period
// kept by PeriodOf's evidence allowance on a sentence that shares only the
// company's name or the frame verb "take" with the question (Elsewhere), a
// town for a street address (StreetAddress) — which v29 accepted, names it
// in its reason, and still accepts what the same evidence answers.
func TestNotAsked(t *testing.T) {
	corpus := append(append(append([]Evidence{}, hollinLike...), notAskedEvidence...), customerPages...)
	for _, c := range []struct {
		q     string
		ev    []Evidence
		aside string
		ok    []string // questions the evidence answers, accepted by v30
	}{
		{"once we've submitted a labour claim, how long does hollin take to pay it?", notAskedEvidence, "a period of Submit warranty labour claims within 14 days of the repair",
			[]string{"How long do we have to submit a warranty labour claim?", "how long is the warranty on a hollin appliance?"}},
		{"what's the street address of the new Wakefield repair centre, so I can drop my blender off?", notAskedEvidence[2:], "the question asks for a street address",
			[]string{"Where is the repair centre moving from?"}},
	} {
		b, _ := assessorOver(corpus)
		b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // v31's readings (TestQualified)
		newerIf(b, false)
		b.Gate = false
		if b.Model() != V30Model {
			t.Fatalf("model %q, want %q", b.Model(), V30Model)
		}
		for _, q := range c.ok {
			req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: c.ev}
			if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
				t.Errorf("v30 refused %q: %s", q, res.Assessment.Reason)
			}
		}
		req := Request{Question: c.q, Query: c.q, Groups: []string{"public"}, Evidence: c.ev}
		res := assessChecked(t, b, req)
		if res.Assessment.Sufficient {
			t.Errorf("v30 accepted %q: %s", c.q, res.Assessment.Reason)
		} else if !strings.Contains(res.Assessment.Reason, c.aside) {
			t.Errorf("v30's reason for %q does not say %q: %s", c.q, c.aside, res.Assessment.Reason)
		}
		b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if res := assessChecked(t, b, req); !res.Assessment.Sufficient || b.Model() != V29Model {
			t.Errorf("v29 (%s) refused %q (the test no longer shows v30's readings): %s", b.Model(), c.q, res.Assessment.Reason)
		}
	}
}

// TestStreetAddress: the questions asking for a building's address.
func TestStreetAddress(t *testing.T) {
	for q, want := range map[string]bool{
		"what's the street address of the repair centre?":   true,
		"What is your postal address for returns?":          true,
		"which postcode do I send it to?":                   true,
		"what's the web address for the recall?":            false,
		"what address do I email for a VAT invoice?":        false,
		"where is the new repair centre?":                   false,
		"Can I change the home address on my registration?": true,
	} {
		if got := reStreetAddress.MatchString(q); got != want {
			t.Errorf("%q asks for a street address: %v, want %v", q, got, want)
		}
	}
}
