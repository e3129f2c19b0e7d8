package assess

import (
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// countsPages: the turnaround page (a number of days, a fee) retrieved
// first, the tracking page enumerating a repair's statuses, a notice
// dating a move, and an invented product's error codes, one a sentence.
var countsPages = []Evidence{
	{ChunkID: "rep#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days of receiving it. Out-of-warranty repairs carry a £25 inspection fee."},
	listLike[0],
	{ChunkID: "move#0", Title: "Repair centre move", Text: "Our repair centre moves to Leeds. Repairs booked between 1 and 16 June may take 2 extra working days."},
	{ChunkID: "z10err#0", Title: "Z10 error codes", Text: "F2 means the lid is open: close it. F5 means the motor is hot: let it cool. F8 means a sensor fault: call support."},
}

// TestCounts: builtin:coverage-v59's Counts. A count question is not
// answered by a number of days, a sum after a currency sign or a number
// before "and" (without Counts the turnaround page or the move notice is
// accepted for "10 working", "25 inspection" or "1 and"); with it the
// enumeration of statuses answers how many statuses there are, and so do
// error codes opening one sentence each; a count nothing enumerates is
// refused.
func TestCounts(t *testing.T) {
	for _, c := range []struct {
		q        string
		old, acc string // the chunk accepted without and with Counts ("": refused)
	}{
		{"How many different statuses will my repair go through?", "rep#0", "track#0"},
		{"How many error codes can the Z10 show?", "", "z10err#0"},
		{"How many repair centres will my repair pass through?", "move#0", ""},
	} {
		an := terms.New()
		var got [2]string
		for i, counts := range []int{0, countsV59} {
			b := builtinOver(an, countsPages)
			b.Counts, b.Review = counts, 0 // v59 against v58: Review's reviewKind drops "1 and" too (review_test.go)
			r := assessChecked(t, b, Request{Question: c.q, Query: c.q, Evidence: countsPages, Groups: []string{"public"}})
			if r.Assessment.Sufficient && len(r.Accepted) > 0 {
				got[i] = r.Accepted[0]
			}
			t.Logf("Counts %d: %q: %v %q", counts, c.q, r.Accepted, r.Assessment.Reason)
		}
		if got[0] != c.old {
			t.Errorf("without Counts, Assess(%q) accepted %q, want %q: the case no longer tests what it did", c.q, got[0], c.old)
		}
		if got[1] != c.acc {
			t.Errorf("Counts: Assess(%q) accepted %q, want %q", c.q, got[1], c.acc)
		}
	}
}

// TestCountsTimeOrMoney: the counts answertype.Find finds that count no
// things.
func TestCountsTimeOrMoney(t *testing.T) {
	for _, c := range []struct {
		sentence string
		want     []bool
	}{
		{"We aim to repair it within 10 working days.", []bool{true}},
		{"Out-of-warranty repairs carry a £25 inspection fee.", []bool{true}},
		{"Repairs booked between 1 and 16 October may take 2 extra working days.", []bool{true, true, true}},
		{"The X300 Pro has ten speeds and 3 blades.", []bool{false, false}},
	} {
		exprs := answertype.Find(answertype.Count, c.sentence)
		if len(exprs) != len(c.want) {
			t.Errorf("Find(Count, %q) = %q, want %d", c.sentence, exprs, len(c.want))
			continue
		}
		for i, ex := range exprs {
			if got := answertype.CountsTimeOrMoney(ex, c.sentence); got != c.want[i] {
				t.Errorf("CountsTimeOrMoney(%q, %q) = %v, want %v", ex, c.sentence, got, c.want[i])
			}
		}
	}
}

// TestCountsModel: Counts off is builtin:coverage-v58.
func TestCountsModel(t *testing.T) {
	b := NewBuiltin(terms.New(), nil)
	if b.Counts != countsV59 || countsV59 != 7 || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Counts %d, model %q, want 7 and builtin:coverage-v68", b.Counts, b.Model())
	}
	if b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = 0, false, 0, false, false, false, false; b.Model() != V58Model || V58Model != "builtin:coverage-v58" {
		t.Errorf("model %q with Counts off, want builtin:coverage-v58", b.Model())
	}
}
