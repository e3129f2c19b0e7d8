package generate

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV26DropsPadding: the development questions v26's rule-13 readings
// were designed on, with the pages their loop run gave the generator
// (rank order, the accepted one named). v25 quotes the padding sentence,
// v26 does not, and both hold the key fact.
//
//   - a yes/no question stating a value in the clause that asks (fresh16
//     z78 "for a couple of hours") is answered by the value ("up to two
//     hours"), without the page's instruction;
//   - a question mark closes one question (fresh7 n56: "..., the X200
//     that stopped with E7?" asks once, so rule 13 reads it);
//   - after the page's denial decides a yes/no question (fresh10 t29),
//     a sentence of the page holding only question words the denial
//     holds ("covered", "warranty") is not quoted;
//   - a yes/no question's opening neighbour holding only question words
//     the opening holds ("receipt", "warranty") is not quoted (fresh13
//     w42, fresh9 r05);
//   - an opening holding of a value question only the asked thing's name
//     is not quoted beside its neighbour giving the value (fresh4 h69).
func TestV26DropsPadding(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		fact, pad string
	}{
		{v25case{"Can the K50 hold my water at temperature for a couple of hours after it boils?",
			[]string{"man-k50-kettle", "man-k50-app", "faq-hard-water", "man-x200-cleaning", "pol-registration"}, "man-k50-kettle"},
			"two hours", "Descale it once a month"},
		{v25case{"who was the customer on case 30412, the X200 that stopped with E7?",
			[]string{"tkt-30412", "ntc-x200-recall", "man-x200-errors", "tkt-30501", "faq-vat-invoice"}, "tkt-30412"},
			"Ellie Shaw", "Agent advised unplugging"},
		{v25case{"my old leaflet says cracked jugs are covered by the warranty - is that still the case?",
			[]string{"pol-warranty-2026", "faq-hard-water", "faq-abroad", "ntc-x200-recall", "pol-repairs"}, "pol-warranty-2026"},
			"cracked jars", "Blender motors on the X200 and X300 Pro are covered"},
		{v25case{"I threw the receipt away but paid by card. Could my bank statement count instead?",
			[]string{"faq-proof-of-purchase", "faq-repair-tracking", "man-x200-errors", "man-k50-app", "pol-registration"}, "faq-proof-of-purchase"},
			"bank statement", "A photo of the receipt is fine"},
		{v25case{"If I agree to the out-of-warranty repair, am I paying the inspection charge on top of the repair price?",
			[]string{"pol-repairs", "faq-warranty-claim", "ntc-repair-centre-move", "faq-repair-tracking", "pol-warranty-2026"}, "pol-repairs"},
			"deducted", "Collection by courier is free"},
		{v25case{"How fast does the X300 Pro actually spin at full whack?",
			[]string{"man-x300-specs", "man-x300-errors", "pol-warranty-2026", "man-x200-cleaning", "faq-hard-water"}, "man-x300-specs"},
			"30,000 RPM", "The X300 Pro blender has a 1,500 W motor"},
	} {
		req := c.request(t)
		if text, _ := answerOf(t, NewExtractiveV25(an), req); !strings.Contains(text, c.pad) || !strings.Contains(text, c.fact) {
			t.Errorf("%q: v25 answers %q, want %q and %q (the case no longer tests v26)", c.q, text, c.fact, c.pad)
		}
		text, _ := answerOf(t, NewExtractiveV26(an), req)
		if strings.Contains(text, c.pad) || !strings.Contains(text, c.fact) {
			t.Errorf("%q: v26 answers %q, want %q without %q", c.q, text, c.fact, c.pad)
		}
	}
}

// TestV26Keeps: questions where a looser reading of v26's rules lost a
// key fact on the development sets (round 24, g24-gen's log): v26 still
// quotes it.
//
//   - fresh20 d65: the piece after the comma asks with a question word of
//     its own ("up to what date"), so the question asks two things;
//   - fresh8 p80: the opening's neighbour that decides the yes/no
//     question holds no question word ("Do not share outside Finance"
//     for "Can I send the parts cost price list ...?");
//   - fresh17 a63: no denial opens, so the page's list of proofs stays
//     (the novelty reading for every yes/no question lost it);
//   - fresh14 x06: a question offering alternatives (", or ...") is not
//     read as decided by the denial;
//   - fresh9 r63: the team lead's "the current cover is 5 years" after
//     the agent's "covered for 2 years" (no denial opens).
func TestV26Keeps(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		fact string
	}{
		{v25case{"Where's the repair centre moving to, and up to what date are bookings affected?",
			[]string{"ntc-repair-centre-move", "faq-repair-tracking", "faq-warranty-claim", "pol-repairs", "faq-proof-of-purchase"}, "ntc-repair-centre-move"},
			"16 October"},
		{v25case{"Can I send the parts cost price list to one of our repair partners?",
			[]string{"int-parts-cost", "pol-spare-parts", "pol-repairs", "faq-vat-invoice", "ntc-repair-centre-move"}, "int-parts-cost"},
			"Do not share outside Finance"},
		{v25case{"I paid for my blender by card but I've lost the paper receipt. Can I still prove when I bought it?",
			[]string{"faq-proof-of-purchase", "pol-registration", "man-x200-specs", "pol-privacy", "man-x300-specs"}, "faq-proof-of-purchase"},
			"bank statement"},
		{v25case{"Does the Hollin warranty only cover faults from the factory, or general wear and tear as well?",
			[]string{"pol-warranty-2026", "faq-abroad", "man-x200-errors", "faq-hard-water", "man-k50-app"}, "pol-warranty-2026"},
			"manufacturing faults"},
		{v25case{"On case 30501 we told the customer the X300 Pro motor has two years' cover. Was that right?",
			[]string{"tkt-30501", "pol-warranty-2026", "man-x300-specs", "sb-112", "man-x300-errors"}, "tkt-30501"},
			"5 years"},
	} {
		req := c.request(t)
		for _, g := range []*Extractive{NewExtractiveV25(an), NewExtractiveV26(an)} {
			if text, _ := answerOf(t, g, req); !strings.Contains(text, c.fact) {
				t.Errorf("%q: v%d answers %q, want %q", c.q, g.Version, text, c.fact)
			}
		}
	}
}

// TestV26AsksMore: v26 reads a question mark as closing the question its
// sentence asks; a piece before it asks again only with a question word.
func TestV26AsksMore(t *testing.T) {
	v25, v26 := NewExtractiveV25(nil), NewExtractiveV26(nil)
	for q, want := range map[string][2]bool{
		"Will the K50 keep water hot all morning, say three or four hours?":                     {true, false},
		"who was the customer on case 30412, the X200 that stopped with E7?":                    {true, false},
		"Where's the repair centre moving to, and up to what date are bookings affected?":       {true, true},
		"a friend said something about the jars cracking? How do I know if mine's one of them?": {true, true},
		"how long will the K50 keep water hot?":                                                 {false, false},
		// the aside after a dash, the sentence's one question mark
		// closing it: v26 asked again before round-24 rv24b (the mark
		// was read per dashed piece)
		"Will the K50 keep water hot all morning — say three or four hours?": {true, false},
		"Will the K50 keep water hot all morning - say three or four hours?": {true, false},
		// rv24's em dash, read by v26 as by v25
		"How long does the K50 take to boil—and how much water does it hold?":                                                         {true, true},
		"Someone quoted the old warranty on a call recently — which case was that, and what's the correct cover for the Pro's motor?": {true, true},
		"Which K50s need the 2–3 minute firmware update?":                                                                             {false, false},
	} {
		if got := v25.asksMore(q); got != want[0] {
			t.Errorf("v25 asksMore(%q) = %v, want %v", q, got, want[0])
		}
		if got := v26.asksMore(q); got != want[1] {
			t.Errorf("v26 asksMore(%q) = %v, want %v", q, got, want[1])
		}
	}
}
