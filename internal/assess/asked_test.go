package assess

import (
	"strings"
	"testing"
)

// askedCorpus is an invented corpus for TestAskedPhraseReading: a toaster
// maker's pages.
var askedCorpus = []Evidence{
	{ChunkID: "z20-codes#0", Title: "Z20 toaster fault codes", Text: "F3 means the crumb tray is not pushed home. Push the tray in until it clicks. F5 means the element is overheating: unplug the toaster and let it cool."},
	{ChunkID: "z20-specs#0", Title: "Z20 toaster specifications", Text: "The Z20 has four slots and six browning levels. It draws 1,800 W."},
	{ChunkID: "z10-codes#0", Title: "Z10 toaster fault codes", Text: "F1 means the lever is stuck. Lift the lever and press it down again."},
	{ChunkID: "returns#0", Title: "Returns", Text: "You can return a toaster within 30 days of delivery for a refund. We sort returns in the order they arrive."},
}

// TestAskedPhraseReading: builtin:coverage-v19 (Builtin.Asked) lets the
// focus reading accept a question expecting no particular type whose
// clause that asks holds a word no visible chunk holds, when that word is
// what the clause says of a thing ("what have I done wrong", "what does
// that code indicate") and not the kind of thing a "what"/"which" question
// asks for ("which firmware version", "what colour", "what sort of
// crumbs"); v18 refuses both kinds. Each accepted case is refused with
// Asked off: the case tests the switch.
func TestAskedPhraseReading(t *testing.T) {
	tests := []struct {
		name, question string
		want           bool
	}{
		{"what the clause says, after an auxiliary", "My Z20 keeps flashing F3 at me. What have I done wrong?", true},
		{"what the clause says, after is", "My Z20 started showing F3 halfway through breakfast. What's wrong with it?", true},
		{"a verb no document uses", "the Z20 flashed F3 at me during breakfast, what does that code indicate?", true},
		{"the kind asked for is unknown", "the Z20 shows F3. Which firmware version fixes that code?", false},
		{"the kind asked for is unknown, after is the", "What is the colour of the F3 light on the Z20?", false},
		{"the kind asked for after sort of", "the Z20 flashed F3 at me during breakfast, what sort of allergen warning is that?", false},
		{"no question word opens the clause", "Z20 flashing F3 and it smells odd", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := assessorOver(askedCorpus)
			b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // v19 as it was (v21: TestScene)
			newerIf(b, false)
			b.Gate = false
			req := Request{Question: tt.question, Query: tt.question, Evidence: askedCorpus[:1], Groups: []string{"public"}}
			res := assessChecked(t, b, req)
			if res.Assessment.Sufficient != tt.want {
				t.Errorf("v19: Assess(%q) = %+v, want sufficient %v", tt.question, res.Assessment, tt.want)
			}
			if tt.want && !strings.Contains(res.Assessment.Reason, "clause that asks") {
				t.Errorf("reason %q does not say the focus reading accepted", res.Assessment.Reason)
			}
			b.Asked, b.Named = false, false
			res = assessChecked(t, b, req)
			if res.Assessment.Sufficient {
				t.Errorf("v18 accepts %q too (%s): the case does not test Asked", tt.question, res.Assessment.Reason)
			}
			if res.Usage.Model != V18Model {
				t.Errorf("model %q with Asked off, want %q", res.Usage.Model, V18Model)
			}
		})
	}
}

// TestAskedPhraseEveryPart: answertype.AskedPhrase reads the noun phrase
// of the first part of the question that asks, so a question asking twice
// ("What does that mean, and which firmware version fixes it?") had its
// second part's phrase, with the word no visible chunk holds, go unread:
// v19 accepted it at 1.00 on a page that never mentions firmware, which
// v18 refuses. The phrase of every what/which of the clause that asks
// now counts (answertype.AskedPhrases).
func TestAskedPhraseEveryPart(t *testing.T) {
	for _, q := range []string{
		"The Z20 shows F3. What does that mean, and which firmware version fixes it?",
		"The Z20 shows F3. What does that mean? Which firmware version fixes it?",
		"the Z20 flashed F3 at me. What have I done wrong, and what sort of allergen warning is that?",
	} {
		wantRefusedOnFirst(t, q, "its second part asks for a kind no visible chunk names")
	}
}

// TestAskedPhraseAfterIs: after "what is" or "which are" a noun, with no
// determiner, is the phrase asked about ("what is pyrolysis mode"), as
// after "what is the"; v19 read such a clause as asking about no phrase
// and accepted it at 1.00 on a page that never names pyrolysis (the
// review's probe, rv17). A participle or comparative there still asks
// about no phrase (TestAskedPhraseReading's "What's wrong with it?").
func TestAskedPhraseAfterIs(t *testing.T) {
	for _, q := range []string{
		"what is pyrolysis mode on the Z20 toaster",
		"What are pyrolysis cycles on the Z20 toaster?",
	} {
		wantRefusedOnFirst(t, q, "it asks about a kind no visible chunk names")
	}
}

// wantRefusedOnFirst fails t unless the default assessor over askedCorpus,
// given its first chunk for question q (asked as public), refuses; why
// says why it must.
func wantRefusedOnFirst(t *testing.T, q, why string) {
	t.Helper()
	b, _ := assessorOver(askedCorpus)
	req := Request{Question: q, Query: q, Evidence: askedCorpus[:1], Groups: []string{"public"}}
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Errorf("v19: Assess(%q) = %+v, want refused: %s", q, res.Assessment, why)
	}
}
