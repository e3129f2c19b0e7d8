package assess

import (
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// measuredCorpus: specifications stating the X200's jar in litres and the
// X300 Pro's motor (no volume), a recall notice, an internal price list, a
// partner agreement, the partner handbook (no amount), a delivery page and
// a repairs page.
var measuredCorpus = []Evidence{
	{ChunkID: "x200#0", Title: "X200 Blender specifications", Text: "The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds. High speed reaches 22,000 RPM."},
	{ChunkID: "x300#0", Title: "X300 Pro Blender specifications", Text: "The X300 Pro blender has a 1,500 W motor, a vacuum blending mode and ten speeds."},
	{ChunkID: "recall#0", Title: "Safety notice: X200 jar recall", Text: "X200 jars from batch B-2291 may crack when used with hot liquids. Stop using the jar and order a free replacement at hollin.example/recall."},
	{ChunkID: "prices#0", Title: "Parts cost prices (internal)", Text: "Internal cost prices: X200 jar £6.10, BLD-X200 blade assembly £3.40. Do not share outside Finance."},
	{ChunkID: "agreement#0", Title: "Calder Fix: partner agreement", Text: "Hollin pays Calder Fix £39 per hour of warranty labour and £20 per home visit. The agreement runs to 30 June 2027."},
	{ChunkID: "handbook#0", Title: "Service partner handbook", Text: "Submit warranty labour claims within 14 days of the repair. Hollin pays labour at the hourly rate in your partner agreement."},
	{ChunkID: "delivery#0", Title: "Ordering spare parts", Text: "Spare parts are sold at parts.hollin.example. Standard delivery takes 3 to 5 working days and costs £3.95. Delivery is free on parts orders over £30."},
	{ChunkID: "repairs#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days. Collection by courier is free for appliances under warranty."},
}

// measuredJudge judges q against the evidence of measuredCorpus named by
// ids, in that order, with Measured as set.
func measuredJudge(t *testing.T, on bool, q string, ids ...string) Result {
	t.Helper()
	return judgeAmong(t, measuredCorpus, []string{"Warranty terms", "Hold the dial down to pair the kettle", "Customers can ask for an invoice"},
		func(b *Builtin) { b.Measured = on }, q, ids...)
}

// TestMeasured: with Measured (builtin:coverage-v53), a value question is
// answered by the page stating a value of the kind asked beside its other
// words, whether or not the page repeats the words that only name the
// value or the act of measuring it: the jug's capacity (no "hold", no
// "liquid"), the call-out payment (no "payment", no "receive"), the jug's
// internal cost ("cost" named no other kind of cost), a minimum spend ("is
// there a minimum spend" asks for an amount). A page stating no value of
// the kind (the X300 Pro's specification for its capacity), or stating
// one of the other case (the agreement's warranty rate for out-of-warranty
// visits), or a minimum spend no page states an amount for ("free
// collection") is refused. Without Measured, the first four are refused,
// and the free collection accepted on "free".
func TestMeasured(t *testing.T) {
	checkSwitch(t, "Measured", func(on bool, q string, ids ...string) Result { return measuredJudge(t, on, q, ids...) }, []switchCase{
		{"How much can the X200 jug hold?", []string{"recall#0", "x200#0"}, "", "x200#0"},
		{"how much liquid does the X200 jug hold", []string{"recall#0", "x200#0"}, "", "x200#0"},
		{"what is the call-out payment we receive for a home visit", []string{"agreement#0", "handbook#0"}, "", "agreement#0"},
		{"What does an X200 jug cost us to buy in?", []string{"prices#0", "recall#0"}, "", "prices#0"},
		// (this small lexicon makes no "minimum spend" absent: v51 accepts it as a yes/no question)
		{"Is there a minimum spend to get free delivery on spare parts?", []string{"delivery#0", "repairs#0"}, "delivery#0", "delivery#0"},
		// guards: no value of the kind, a value of the other case, no amount stated
		{"How much can the X300 Pro jug hold?", []string{"x300#0", "recall#0"}, "", ""},
		{"what is the call-out payment we receive for an out-of-warranty home visit", []string{"agreement#0", "handbook#0"}, "", ""},
		// v51 takes "free" for a yes/no statement; v53 asks for an amount, which no page states
		{"Is there a minimum spend to get free collection?", []string{"repairs#0", "handbook#0"}, "repairs#0", ""},
	})
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Measured || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Measured %v, model %q, want on and builtin:coverage-v68", b.Measured, b.Model())
	}
	if b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V52Model || V52Model != "builtin:coverage-v52" {
		t.Errorf("without Measured, model %q, want %s", b.Model(), V52Model)
	}
}
