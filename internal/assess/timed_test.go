package assess

import (
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// timedCorpus: a delivery page, a privacy page, a repairs page, a
// toaster's manual and a warranty page. (Every is tested on the Hollin
// corpus: assessdev's TestV58EveryCases.)
var timedCorpus = []Evidence{
	{ChunkID: "delivery#0", Title: "Ordering spare parts", Text: "Spare parts are sold at parts.hollin.example. Standard delivery takes 3 to 5 working days and costs £3.95."},
	{ChunkID: "privacy#0", Title: "Your account data", Text: "You can download or delete your account data from Settings. Deletion requests are completed within 30 days."},
	{ChunkID: "repairs#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days. Out-of-warranty repairs carry a £25 inspection fee."},
	{ChunkID: "z20#0", Title: "Z20 Smart Toaster", Text: "The Z20 has four slots and six browning levels. Pair it with the app in about 5 seconds."},
	{ChunkID: "warranty#0", Title: "Warranty terms", Text: "Every appliance has a 2-year warranty from the date of purchase."},
}

// timedJudge judges q against the evidence of timedCorpus named by ids,
// in that order, with Timed and Every as set.
func timedJudge(t *testing.T, on bool, q string, ids ...string) Result {
	t.Helper()
	return judgeAmong(t, timedCorpus, []string{"Orders\nWe list your orders.", "Returns\nReturn it within 30 days of delivery."},
		func(b *Builtin) { b.Timed, b.Every = on, on }, q, ids...)
}

// TestTimed: with Timed (builtin:coverage-v58), a question asking when
// something still to come will happen is answered by the page stating
// how long it takes ("3 to 5 working days", "within 30 days"), whatever
// verb the asker chose ("turn up", "be done"); without it, "when" asks for
// a date, which the page does not state, and the verb is content it
// lacks. A question naming the date asked for ("on which dates") and one
// no page states a time of (an arrival at the courier's depot: no
// "depot") are still refused.
func TestTimed(t *testing.T) {
	checkSwitch(t, "Timed", func(on bool, q string, ids ...string) Result { return timedJudge(t, on, q, ids...) }, []switchCase{
		{"ordered a spare part today on standard delivery, when should it turn up?", []string{"delivery#0", "repairs#0"}, "", "delivery#0"},
		{"Sent a request to delete my account data on the 1st. What's the latest it will be done by?", []string{"privacy#0", "delivery#0"}, "", "privacy#0"},
		// guards
		{"On which dates will spare part orders turn up?", []string{"delivery#0", "repairs#0"}, "", ""},
		{"when will my spare part arrive at the courier's depot?", []string{"delivery#0", "repairs#0"}, "", ""},
	})
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Timed || !b.Every || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Timed %v Every %v, model %q, want on and builtin:coverage-v68", b.Timed, b.Every, b.Model())
	}
	b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, 0, false, 0, false, false, false, false
	if b.Model() != V57Model {
		t.Errorf("model with Timed and Every off %q, want %q", b.Model(), V57Model)
	}
}
