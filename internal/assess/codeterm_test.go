package assess

import (
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestCodeTerm: Builtin.CodeTerm (codeterm.go). The repairs page is about
// every appliance and states a fee ("carry a £25 inspection fee"): v28's
// general reading took the run "carry £25" for a code and never credited
// it the asker's "toaster". codeRuns credits it; codeOnly not when the
// page lacks another known word of the question ("depot"); codeWord not
// when what else it holds of the question is a number ("3"); codeNew
// leaves a page v28 credited (no number on it) as v28 judged it.
func TestCodeTerm(t *testing.T) {
	repairs := Evidence{ChunkID: "rep#0", Title: "Repairs and turnaround", Text: "Collection by courier is free for appliances under warranty. Out-of-warranty repairs carry a £25 inspection fee."}
	parts := Evidence{ChunkID: "parts#0", Title: "Ordering parts", Text: "Parts arrive in 3 to 5 working days."}
	plain := Evidence{ChunkID: "plain#0", Title: "Repairs and turnaround", Text: "Collection by courier is free for appliances under warranty."}
	others := []string{"Z20 Smart Toaster\nThe Z20 has four slots and six browning levels.", "Depot\nThe depot is in Leeds.", "Orders\nWe list your orders.", "Delivery\nWe deliver by courier in three days."}
	for _, c := range []struct {
		name string
		q    string
		ev   Evidence
		bits int
		want bool
	}{
		{"v37: the run reads as a code", "Do I pay for the courier to collect my toaster?", repairs, 0, false},
		{"codeRuns", "Do I pay for the courier to collect my toaster?", repairs, codeRuns, true},
		{"codeRuns, a word lacked", "Do I pay for the courier to collect my toaster from the depot?", repairs, codeRuns, true},
		{"codeOnly, a word lacked", "Do I pay for the courier to collect my toaster from the depot?", repairs, codeRuns | codeOnly, false},
		{"codeOnly, nothing else lacked", "Do I pay for the courier to collect my toaster?", repairs, codeRuns | codeOnly, true},
		{"codeOnly, a number held", "My toaster is 3 years old: do I pay?", parts, codeRuns | codeOnly, true},
		{"codeWord, only a number held", "My toaster is 3 years old: do I pay?", parts, codeRuns | codeOnly | codeWord, false},
		{"v37: no number, a word lacked", "Do I pay for the courier to collect my toaster from the depot?", plain, 0, true},
		{"codeOnly on a page v37 credited", "Do I pay for the courier to collect my toaster from the depot?", plain, codeRuns | codeOnly | codeWord, false},
		{"codeNew: as v37", "Do I pay for the courier to collect my toaster from the depot?", plain, codeRuns | codeOnly | codeWord | codeNew, true},
		{"codeNew, a new page lacking a word", "Do I pay for the courier to collect my toaster from the depot?", repairs, codeRuns | codeOnly | codeWord | codeNew, false},
		{"codeNew, a new page", "Do I pay for the courier to collect my toaster?", repairs, codeRuns | codeOnly | codeWord | codeNew, true},
	} {
		an := terms.New()
		lex := newLexicon(an, c.ev.Title+"\n"+c.ev.Text)
		for _, o := range others {
			lex.add(an, []string{"public"}, o)
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.CodeTerm, b.ClassFree = c.bits, false // codeOnly as v38 … v43 apply it
		newerIf(b, false)
		res := assessChecked(t, b, Request{Question: c.q, Query: c.q, Evidence: []Evidence{c.ev}, Groups: []string{"public"}})
		if got := res.Assessment.Sufficient && res.Assessment.Score >= 0.5; got != c.want {
			t.Errorf("%s: %q on %s accepted %v, want %v (%s)", c.name, c.q, c.ev.ChunkID, got, c.want, res.Assessment.Reason)
		}
	}
}

// TestCodeTermModel: builtin:coverage-v38 is CodeTerm's four bits on (and
// v40's Alone and v42's ExpandMerge off); off, v37 (kept selectable); another value names its bits.
func TestCodeTermModel(t *testing.T) {
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = 0, 0, 0, false
	newerIf(b, false)
	b.Gate = false
	if b.CodeTerm != codeV38 || b.Model() != V38Model || V38Model != "builtin:coverage-v38" {
		t.Errorf("default CodeTerm %d, model %q, want %d and builtin:coverage-v38", b.CodeTerm, b.Model(), codeV38)
	}
	b.CodeTerm = 0
	if b.Model() != V37Model {
		t.Errorf("model %q with CodeTerm off, want %q", b.Model(), V37Model)
	}
	b.CodeTerm = codeRuns
	if got, want := b.Model(), BuiltinModel+"-codeterm1-noalone-nogate-nomerged-norival-noclassfree-noagree-nosides-nomeasure-nolisted-noplaces-nomatter-norates-noparts-noruled-nomeasured-nosituated-nolistedclause-nocovered-nofollow-notimed-noevery-nocounts-noopposite-noreview-nolearned-nolearnedcover-noveto-nostatus"; got != want {
		t.Errorf("model %q, want %q", got, want)
	}
}

// codeIf is CodeTerm as the named model switching on gives it: v38's
// bits or none.
func codeIf(on bool) int {
	if on {
		return codeV38
	}
	return 0
}

// TestClassFree: builtin:coverage-v44 (Builtin.ClassFree) drops CodeTerm's
// codeOnly condition: the repairs page, which names no product, is
// credited the asker's "toaster" though it lacks the question's "depot",
// and the question is accepted on it; with ClassFree off (v43) it is
// refused, as TestCodeTerm's "codeOnly, a word lacked". ClassFree off
// names v43, kept selectable.
func TestClassFree(t *testing.T) {
	repairs := Evidence{ChunkID: "rep#0", Title: "Repairs and turnaround", Text: "Collection by courier is free for appliances under warranty. Out-of-warranty repairs carry a £25 inspection fee."}
	q := "Do I pay for the courier to collect my toaster from the depot?"
	for _, free := range []bool{true, false} {
		an := terms.New()
		lex := newLexicon(an, repairs.Title+"\n"+repairs.Text)
		for _, o := range []string{"Z20 Smart Toaster\nThe Z20 has four slots and six browning levels.", "Depot\nThe depot is in Leeds.", "Orders\nWe list your orders.", "Delivery\nWe deliver by courier in three days."} {
			lex.add(an, []string{"public"}, o)
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		if !b.ClassFree || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
			t.Fatalf("default ClassFree %v, model %q, want true and builtin:coverage-v68", b.ClassFree, b.Model())
		}
		b.ClassFree = free
		newerIf(b, free)
		if want := map[bool]string{true: BuiltinModel, false: V43Model}[free]; b.Model() != want || V43Model != "builtin:coverage-v43" {
			t.Errorf("ClassFree %v: model %q, want %q", free, b.Model(), want)
		}
		res := assessChecked(t, b, Request{Question: q, Query: q, Evidence: []Evidence{repairs}, Groups: []string{"public"}})
		if got := res.Assessment.Sufficient && res.Assessment.Score >= 0.5; got != free {
			t.Errorf("ClassFree %v: %q on rep#0 accepted %v, want %v (%s)", free, q, got, free, res.Assessment.Reason)
		}
	}
}
