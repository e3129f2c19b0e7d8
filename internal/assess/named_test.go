package assess

import (
	"slices"
	"testing"
)

// namedCorpus is an invented corpus for TestNamedProducts: a toaster and
// a grill, each called by its code on most of its pages and by its full
// name only on one.
var namedCorpus = []Evidence{
	{ChunkID: "z20-app#0", Title: "Pairing the Z20 with the Crumbly app", Text: "To pair the Z20 with the Crumbly app, hold the lever down for 5 seconds until the light blinks, then choose Add device in the app."},
	{ChunkID: "z20-toaster#0", Title: "Z20 Smart Toaster", Text: "The Z20 smart toaster has four slots and six browning levels."},
	{ChunkID: "g7-grill#0", Title: "G7 Contact Grill", Text: "The G7 contact grill heats both plates to 230 C."},
	{ChunkID: "returns#0", Title: "Returns", Text: "You can return a toaster or a grill within 30 days of delivery for a refund."},
}

// TestNamedProducts: builtin:coverage-v20 (Builtin.Named) lets a chunk
// naming a model code hold the words of the product's full name written
// after that code in the evidence ("Z20 Smart Toaster"), so the app page,
// which calls the toaster only "the Z20", covers the asker's "toaster".
// The first case is refused with Named off: it tests the switch.
func TestNamedProducts(t *testing.T) {
	q := "What's the app called that the smart toaster works with?"
	b, _ := assessorOver(namedCorpus)
	req := Request{Question: q, Query: q, Evidence: namedCorpus, Groups: []string{"public"}}
	res := assessChecked(t, b, req)
	if !res.Assessment.Sufficient || len(res.Accepted) == 0 || res.Accepted[0] != "z20-app#0" {
		t.Fatalf("v20: Assess(%q) = %+v, want accepted on the app page", q, res)
	}
	b.Named, b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
	newerIf(b, false)
	b.Gate = false
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Errorf("v19 accepts %q too (%s): the case does not test Named", q, res.Assessment.Reason)
	} else if res.Usage.Model != V19Model {
		t.Errorf("model %q with Named off, want %q", res.Usage.Model, V19Model)
	}

	// The names read: a code followed by capitalised words, in titles
	// and texts; no name after a code with punctuation between.
	names := b.productNames(namedCorpus)
	if !names["z20"]["toaster"] || !names["z20"]["smart"] || !names["g7"]["grill"] || names["z20"]["grill"] || len(names) != 2 {
		t.Errorf("productNames = %v, want z20 → smart, toaster and g7 → contact, grill", names)
	}
	if got := b.productNames([]Evidence{{Title: "Case 12: Z20, Smart Toaster"}}); len(got) != 0 {
		t.Errorf("a name after punctuation read: %v", got)
	}
	// A kind noun written after two codes names neither: "my toaster"
	// does not say which.
	two := append(slices.Clone(namedCorpus), Evidence{ChunkID: "z10-toaster#0", Title: "Z10 Toaster", Text: "The Z10 toaster has two slots."})
	if got := b.productNames(two); got["z20"]["toaster"] || got["z10"]["toaster"] || !got["z20"]["smart"] {
		t.Errorf("productNames with two toasters = %v, want toaster for neither, smart for the Z20", got)
	}
	b.Named, b.Scene = true, true
	req.Evidence = two
	if res := assessChecked(t, b, req); res.Assessment.Sufficient && res.Accepted[0] == "z20-app#0" {
		t.Errorf("with two toasters Assess(%q) accepted the Z20 app page: %s", q, res.Assessment.Reason)
	}
}
