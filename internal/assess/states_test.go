package assess

import (
	"strings"
	"testing"
)

// statesCorpus is an invented toaster maker's corpus: a repair partner's
// agreement that states its rates, a recall notice that states no cost,
// a product page, and two more pages.
var statesCorpus = []Evidence{
	{ChunkID: "agreement#0", Title: "Ash Lane Repairs: partner agreement", Text: "Crumbworks pays Ash Lane Repairs £30 per hour of labour and £15 per home visit. The agreement runs to 31 May 2028."},
	{ChunkID: "recall#0", Title: "Safety notice: Z20 tray recall", Text: "Z20 crumb trays from batch T-118 may warp. Stop using the tray and order a free replacement at crumbworks.example/recall."},
	{ChunkID: "z20#0", Title: "Z20 Toaster", Text: "The Z20 Toaster has four slots for the home kitchen and can keep toast warm for up to 10 minutes."},
	{ChunkID: "warranty#0", Title: "Warranty terms", Text: "Every Crumbworks appliance has a warranty from the date of purchase. It covers manufacturing faults."},
	{ChunkID: "handbook#0", Title: "Partner handbook", Text: "Crumbworks pays labour claims within 14 days of the repair date. Give the customer a receipt. Use genuine parts only."},
}

// TestStates: builtin:coverage-v22's statement reading (Builtin.States)
// accepts the first chunk when a sentence of it states a value of the
// kind asked (a date) beside most of the words of the clause that asks
// ("agreement", "Crumbworks"), though the page never says "last" or
// "hold" and the question's "date" is not the sentence's; v21 (States
// off) refuses it. A value
// written without a number ("free") is no amount, and a product's name
// ("Z20 Toaster") is not what the question asks about: both are refused
// either way.
func TestStates(t *testing.T) {
	b, _ := assessorOver(statesCorpus)
	for _, c := range []struct{ q, chunk, expr string }{
		{"Until what date does our agreement with Crumbworks last?", "agreement#0", "31 May 2028"},
		{"Until what date will our agreement with Crumbworks hold this time?", "agreement#0", "31 May 2028"},
	} {
		req := Request{Question: c.q, Query: c.q, Evidence: ordered(statesCorpus, c.chunk), Groups: []string{"public"}}
		b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = true, true, true, true, true, true, true, true, true, false, true, true, false, true, false, true, true, true, true, true, true, true, true, true, codeV38, aloneV40, mergeV42, rivalV43, true
		newerIf(b, true)
		b.Gate = true
		res := assessChecked(t, b, req)
		if !res.Assessment.Sufficient || len(res.Accepted) == 0 || res.Accepted[0] != c.chunk {
			t.Errorf("v22: Assess(%q) = %+v, want accepted on %s", c.q, res, c.chunk)
			continue
		}
		if res.Usage.Model != BuiltinModel {
			t.Errorf("model %q, want %q", res.Usage.Model, BuiltinModel)
		}
		if !strings.Contains(res.Assessment.Reason, "states one") || !strings.Contains(res.Assessment.Reason, c.expr) {
			t.Errorf("%q: reason %q does not name the value stated %q", c.q, res.Assessment.Reason, c.expr)
		}
		b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if res := assessChecked(t, b, req); res.Assessment.Sufficient {
			t.Errorf("v21 accepts %q too (%s): the case does not test States", c.q, res.Assessment.Reason)
		} else if res.Usage.Model != V21Model {
			t.Errorf("model %q with States off, want %q", res.Usage.Model, V21Model)
		}
	}
	// Each refusal below is the statement reading's rule at work: with it
	// left out (the value "free" read as an amount; "toaster" counted as a
	// topic word of the Z20 Toaster's page), v22 accepts the first chunk.
	b.States = true
	for _, c := range []struct{ q, first string }{
		// "free" states no amount: what the recall has cost is not stated
		{"What has the Z20 tray recall cost our repair partners in total so far?", "recall#0"},
		// "toaster" names the product the page is about; the guarantee
		// is what is asked, and "10 minutes" is not its length
		{"How long is the repair guarantee on a toaster?", "z20#0"},
		{"How long is the guarantee on a toaster after a repair?", "z20#0"},
	} {
		req := Request{Question: c.q, Query: c.q, Evidence: ordered(statesCorpus, c.first), Groups: []string{"public"}}
		if res := assessChecked(t, b, req); res.Assessment.Sufficient {
			t.Errorf("v22 accepted %q: %s", c.q, res.Assessment.Reason)
		}
	}
	// A yes/no question is not read this way (the coverage rules accept
	// this one, on the agreement's "May": not by a statement).
	q := "Does Crumbworks pay us for each home visit we go out on?"
	if res := assessChecked(t, b, Request{Question: q, Query: q, Evidence: statesCorpus, Groups: []string{"public"}}); strings.Contains(res.Assessment.Reason, "states one") {
		t.Errorf("v22 read the yes/no question %q for a statement: %s", q, res.Assessment.Reason)
	}
	for _, c := range []struct {
		expr string
		want bool
	}{{"£30", true}, {"ten speeds", true}, {"31 May 2028", true}, {"free", false}, {"no charge", false}, {"free of charge", false}} {
		if got := valued(c.expr); got != c.want {
			t.Errorf("valued(%q) = %v, want %v", c.expr, got, c.want)
		}
	}
}

// ordered is ev with the chunk id first first, the rest in their order.
func ordered(ev []Evidence, first string) []Evidence {
	out := []Evidence{}
	for _, e := range ev {
		if e.ChunkID == first {
			out = append(out, e)
		}
	}
	for _, e := range ev {
		if e.ChunkID != first {
			out = append(out, e)
		}
	}
	return out
}
