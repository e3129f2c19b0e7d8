package assess

import (
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// ratesCorpus: a handbook naming the hourly rate without its amount, a
// partner agreement stating it per hour, a parts price list, a delivery
// page, a recall notice and a page on storage (so "daily" is a word the
// documents use).
var ratesCorpus = []Evidence{
	{ChunkID: "handbook#0", Title: "Service partner handbook", Text: "Submit warranty labour claims within 14 days of the repair. Hollin pays labour at the hourly rate in your partner agreement."},
	{ChunkID: "agreement#0", Title: "Brook Street Repairs: partner agreement", Text: "Hollin pays Brook Street Repairs £42 per hour of warranty labour and £18 per home visit. The agreement runs to 31 March 2027."},
	{ChunkID: "prices#0", Title: "Parts price list", Text: "Internal prices: X200 jar £6.10, BLD-X200 blade assembly £3.40."},
	{ChunkID: "delivery#0", Title: "Ordering spare parts", Text: "Standard delivery takes 3 to 5 working days and costs £3.95."},
	{ChunkID: "recall#0", Title: "Safety notice: X200 jar recall", Text: "X200 jars from batch B-2291 may crack with hot liquids. Order a free replacement jar at hollin.example/recall."},
	{ChunkID: "storage#0", Title: "Storing your appliance", Text: "Wipe the base daily and keep the jar dry."},
}

// ratesJudge judges q against the evidence of ratesCorpus named by ids, in
// that order, with Rates as set.
func ratesJudge(t *testing.T, rates bool, q string, ids ...string) Result {
	t.Helper()
	return judgeAmong(t, ratesCorpus, []string{"Warranty terms", "Opening hours", "Registering your appliance"},
		func(b *Builtin) { b.Rates, b.Measured = rates, rates }, q, ids...) // without Rates, v49: Measured (v53) off too
}

// TestRates: with Rates (builtin:coverage-v50), a question for an hourly
// rate is answered by the page stating the amount per hour, not refused
// on the handbook that says "hourly rate" but states none. A question for
// a rate no page states (a daily rate, though a page says "daily") is
// still refused, and so is one for the cost of a thing no page prices,
// though the pages state amounts, and one for the rate out of warranty
// (the agreement's is for warranty labour). Without Rates, the first is refused.
func TestRates(t *testing.T) {
	checkSwitch(t, "Rates", func(on bool, q string, ids ...string) Result { return ratesJudge(t, on, q, ids...) }, []switchCase{
		{"what hourly rate does Hollin pay for warranty labour?", []string{"handbook#0", "agreement#0"}, "", "agreement#0"},
		{"what hourly rate does Hollin pay for out-of-warranty labour?", []string{"handbook#0", "agreement#0"}, "", ""},
		{"what daily rate does Hollin pay for warranty labour?", []string{"handbook#0", "agreement#0", "storage#0"}, "", ""},
		{"what does a replacement X300 motor cost us?", []string{"prices#0", "delivery#0"}, "", ""},
		// no rate word: "rate", the word naming the kind of answer, is
		// credited to the agreement stating an amount (rv44b)
		{"what rate does Hollin pay for warranty labour?", []string{"handbook#0", "agreement#0"}, "", "agreement#0"},
	})
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Rates || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Rates %v, model %q, want on and builtin:coverage-v68", b.Rates, b.Model())
	}
	if b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V50Model || V50Model != "builtin:coverage-v50" {
		t.Errorf("without Parts, model %q, want %s (Rates its newest switch)", b.Model(), V50Model)
	}
	b.Rates = false
	if b.Model() != V49Model || V49Model != "builtin:coverage-v49" {
		t.Errorf("without Rates and Parts, model %q, want %s", b.Model(), V49Model)
	}
}

// TestRatesOutside (rv44b): a chunk naming the noun of the question's
// condition of being outside (warranty) is still credited when it states
// that condition itself ("for out-of-warranty labour ... £55 per hour"),
// and is the one accepted over the agreement's warranty rate.
func TestRatesOutside(t *testing.T) {
	corpus := append(append([]Evidence{}, ratesCorpus...), Evidence{ChunkID: "oow#0", Title: "Brook Street Repairs: out-of-warranty work",
		Text: "For out-of-warranty labour Hollin pays Brook Street Repairs £55 per hour."})
	checkSwitch(t, "Rates", func(on bool, q string, ids ...string) Result {
		return judgeAmong(t, corpus, []string{"Warranty terms", "Opening hours", "Registering your appliance"}, func(b *Builtin) { b.Rates = on }, q, ids...)
	}, []switchCase{
		{"what hourly rate does Hollin pay for out-of-warranty labour?", []string{"handbook#0", "agreement#0", "oow#0"}, "", "oow#0"},
	})
}
