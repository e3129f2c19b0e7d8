package generate

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestOnQuestionDropsPadding: rule 13 (v24) drops the sentences of the
// padding rules (a further sentence of a cited source, rule 3; the
// instruction after a chosen sentence, rule 5) that hold neither a value
// of the asked kind about the question nor, once a value is given, the
// question's words: the parts-delivery threshold beside the delivery
// time, the descaling advice beside how long the kettle keeps water hot;
// and, once a sentence gives a value of the asked kind, the rest of a
// thin sentence's source (rule 4) as well: the X300 Pro's top speed
// beside its model number. A count answers only as a count of the noun
// asked ("ten speeds", not "30,000 RPM" for "how many speeds"). v23
// quoted them. The pages a loop run gave heldout h07, fresh8 p34, fresh
// f03 and fresh5 k05, among the questions the rule was designed on.
func TestOnQuestionDropsPadding(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		q       string
		pages   []string
		answer  string // v24's
		padding string // what v23 quotes beside it
	}{
		{"how long does standard delivery of spare parts take", []string{"pol-spare-parts", "faq-vat-invoice", "ntc-repair-centre-move", "man-x200-blades", "man-x300-errors"},
			"Standard delivery takes 3 to 5 working days and costs £3.95. [1]", "Delivery is free on parts orders over £30."},
		{"How long will the smart kettle keep my water hot for?", []string{"man-k50-kettle", "faq-hard-water", "ntc-x200-recall", "man-x200-cleaning", "man-k50-app"},
			"The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. [1]", "Descale it once a month with citric acid."},
		{"how many speeds does the X300 Pro have", []string{"man-x300-specs", "man-x300-errors", "pol-warranty-2026", "man-x200-specs", "man-x200-cleaning"},
			"The X300 Pro blender has a 1,500 W motor, a vacuum blending mode and ten speeds. [1]", "High speed reaches 30,000 RPM."},
		{"The shop wants the exact model code of my X300 Pro for the insurance form. What is it?", []string{"man-x300-specs", "man-x300-errors", "pol-warranty-2026", "man-x200-errors", "faq-warranty-claim"},
			"Model number HL-X300-UK. [1]", "High speed reaches 30,000 RPM."},
	} {
		pages := hollinPages(t, c.pages...)
		req := Request{Question: c.q, Sources: pages, Accepted: []string{pages[0].ID}}
		if text, _ := answerOf(t, NewExtractiveV23(an), req); !strings.Contains(text, c.padding) {
			t.Errorf("%q: v23 answers %q (the case no longer tests v24)", c.q, text)
		}
		if text, _ := answerOf(t, NewExtractiveV24(an), req); text != c.answer {
			t.Errorf("%q: v24 answers %q, want %q", c.q, text, c.answer)
		}
	}
}

// TestOnQuestionKeeps: the sentences rule 13 keeps though they hold no
// word of the clause that asks, each holding a key fact of its question
// (the development questions named): v24 answers as v23. Each case fails
// with its reading of the rule taken out.
func TestOnQuestionKeeps(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		why, q string
		pages  []string
		want   string // the sentence kept
	}{
		{"a yes/no question stating a value: a value of that kind corrects it (fresh11 u45)",
			"the booklet that came with my X200 says the warranty is 1 year. is that still right?",
			[]string{"pol-warranty-2026", "man-x200-blades", "ntc-repair-centre-move", "man-x200-specs", "ntc-x200-recall"},
			"Every Hollin appliance has a 2-year warranty from the date of purchase."},
		{"a question asking two things, the second after a comma (fresh18 b61)",
			"X300 Pro still throwing E12 after the seal was reseated - which part number goes in, and how much labour time is allowed?",
			[]string{"sb-112", "man-x300-errors", "man-x300-specs", "ptn-handbook", "pol-warranty-2026"},
			"replace the vacuum pump, part PMP-X300."},
		{"a description asked: the opening's next sentence giving a value (fresh18 b58)",
			"I've got someone whose K50 refuses to pair with their old Android. What did we get them to do on the earlier case where that happened?",
			[]string{"tkt-30455", "man-k50-app", "sb-114", "man-k50-kettle", "ptn-handbook"},
			"for 15 seconds reset it"},
		{"a description asked: the remedy, an instruction (fresh3 g34)",
			"my blender's leaving lumps of fruit and making a horrible crunching noise - what's gone wrong?",
			[]string{"man-x200-blades", "faq-warranty-claim", "man-x200-specs", "man-x300-specs", "pol-warranty-2026"},
			"Replace the blade assembly, part BLD-X200"},
		{"a yes/no question: the words of its scene (fresh17 a63)",
			"I paid for my blender by card but I've lost the paper receipt. Can I still prove when I bought it?",
			[]string{"faq-proof-of-purchase", "pol-registration", "man-x200-specs", "pol-privacy", "man-x300-specs"},
			"a bank statement"},
	} {
		pages := hollinPages(t, c.pages...)
		req := Request{Question: c.q, Sources: pages, Accepted: []string{pages[0].ID}}
		old, _ := answerOf(t, NewExtractiveV23(an), req)
		if !strings.Contains(old, c.want) {
			t.Errorf("%s: v23 answers %q (the case no longer tests v24)", c.why, old)
		}
		if text, _ := answerOf(t, NewExtractiveV24(an), req); text != old {
			t.Errorf("%s: v24 answers %q, want v23's %q", c.why, text, old)
		}
	}
}

// TestAsksMore: a question asking two or more things, however its clauses
// are joined; a lead-in or a scene asks nothing.
func TestAsksMore(t *testing.T) {
	for q, want := range map[string]bool{
		"Someone quoted the old warranty on a call recently - which case was that, and what's the correct cover for the Pro's motor?": true,
		"Someone quoted the old warranty on a call recently — which case was that, and what's the correct cover for the Pro's motor?": true,
		"Someone quoted the old warranty on a call recently – which case was that, and what's the correct cover for the Pro's motor?": true,
		"How long does the K50 take to boil—and how much water does it hold?":                                                         true,
		"Which K50s need the 2–3 minute firmware update?":                                                                             false,
		"I make soup in my X200 most days and a friend said something about the jars cracking? How do I know if mine's one of them?":  true,
		"how many watts does it use and how do I clean its filter":                                                                    true,
		"once the K50 has boiled, for how long will it keep the water hot for me?":                                                    false,
		"Hi, how long is the warranty?": false,
		"My kettle is well out of warranty. Do you charge anything just to look at it?": false,
		"K50: 1.5 or 1.7 litres?": false,
	} {
		if got := NewExtractiveV25(nil).asksMore(q); got != want {
			t.Errorf("asksMore(%q) = %v, want %v", q, got, want)
		}
	}
}
