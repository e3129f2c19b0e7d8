package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// archived is a superseded source.
func archived(label, doc, title, text string) Source {
	s := cur(label, doc, title, text)
	s.Status = corpus.Archived
	return s
}

// contains reports whether text holds every one of facts.
func contains(text string, facts ...string) bool {
	return !slices.ContainsFunc(facts, func(f string) bool { return !strings.Contains(text, f) })
}

// TestOtherSideOfAComparison: a comparison answered from one side gets
// the other side's value (v20, rule 8): the same page's other value (the
// element against the rest of the toaster), else another page saying the
// same of another thing (the second partner's rate). A question stating
// the value it compares with has its other side, and gets nothing more.
func TestOtherSideOfAComparison(t *testing.T) {
	an := terms.New()
	terms2027 := cur("1", "pol-guarantee", "Guarantee terms",
		"Every Crumbly toaster has a 3-year guarantee from the date of purchase. Heating elements on the Z20 are covered for 6 years. The guarantee covers manufacturing faults.")
	specs := cur("2", "man-z20", "Z20 toaster specifications", "The Z20 toaster has a 900 W element and four slots.")
	req := Request{Question: "Is the Z20's heating element covered any longer than the rest of the toaster?", Sources: []Source{terms2027, specs}, Accepted: []string{terms2027.ID}}
	if text, _ := answerOf(t, NewExtractiveV20(an), req); !contains(text, "6 years", "3-year") {
		t.Errorf("v20 answers %q; want both the element's 6 years and the toaster's 3-year guarantee", text)
	}
	if text, _ := answerOf(t, NewExtractiveV19(an), req); contains(text, "6 years", "3-year") {
		t.Errorf("v19 answers %q with both sides (the case no longer tests v20)", text)
	}

	ovenAid := cur("1", "ptn-ovenaid", "Oven Aid: partner agreement", "Crumbly pays Oven Aid £30 per hour of repair labour and £12 per call-out. The agreement runs to 31 May 2028.")
	fixit := cur("2", "ptn-fixit", "Fixit: partner agreement", "Crumbly pays Fixit £28 per hour of repair labour and £15 per call-out. The agreement runs to 30 June 2028.")
	handbook := cur("3", "ptn-handbook", "Partner handbook", "Submit labour claims within 14 days of the repair.")
	req = Request{Question: "Which of our two repair partners do we pay more per hour of repair labour?", Sources: []Source{ovenAid, fixit, handbook}, Accepted: []string{ovenAid.ID}}
	if text, docs := answerOf(t, NewExtractiveV20(an), req); !slices.Equal(docs, []string{"ptn-ovenaid", "ptn-fixit"}) || !contains(text, "£30", "£28") {
		t.Errorf("v20 cites %v (%q); want both partners' rates", docs, text)
	}
	if _, docs := answerOf(t, NewExtractiveV19(an), req); len(docs) != 1 {
		t.Errorf("v19 cites %v (the case no longer tests v20)", docs)
	}
	weekend := cur("1", "ptn-ovenaid", "Oven Aid: partner agreement", "Crumbly pays Oven Aid £30 per hour of repair labour. Bank holidays are paid at £45.")
	req = Request{Question: "Does Crumbly pay us more than £35 an hour for repair labour?", Sources: []Source{weekend, handbook}, Accepted: []string{weekend.ID}}
	v19, _ := answerOf(t, NewExtractiveV19(an), req)
	if text, _ := answerOf(t, NewExtractiveV20(an), req); text != v19 {
		t.Errorf("v20 answers %q, v19 %q; the question states the value compared with: nothing to add", text, v19)
	}
	statesOnly := func(g *Extractive) []string {
		var rules []string
		g.explain = func(_ int, _, rule string) { rules = append(rules, rule) }
		answerOf(t, g, req)
		return rules
	}
	if rules := statesOnly(NewExtractiveV20(an)); slices.Contains(rules, "other-side") {
		t.Errorf("v20 rules %v: rule 8 applied though the question states the value", rules)
	}
}

// TestVersionsSideBySide: a comparison with a superseded version the
// question names quotes both versions' parallel sentences (v20, rule 9);
// v19 quoted the current terms alone.
func TestVersionsSideBySide(t *testing.T) {
	an := terms.New()
	now := cur("1", "pol-guarantee-2027", "Guarantee terms (2027)", "Every Crumbly toaster has a 3-year guarantee from the date of purchase. The guarantee covers manufacturing faults.")
	old := archived("2", "pol-guarantee-2025", "Guarantee terms (2025, archived)", "Every Crumbly toaster has a 1-year guarantee from the date of purchase. The guarantee covers manufacturing faults and burnt crumb trays.")
	other := cur("3", "pol-repairs", "Repairs", "We aim to return a toaster within 10 working days.")
	req := Request{Question: "What's changed in the guarantee compared with the 2025 terms?", Sources: []Source{now, other, old}, Accepted: []string{old.ID}}
	text, docs := answerOf(t, NewExtractiveV20(an), req)
	if !contains(text, "3-year", "1-year") || !slices.Contains(docs, "pol-guarantee-2025") || !slices.Contains(docs, "pol-guarantee-2027") {
		t.Errorf("v20 cites %v (%q); want both versions' terms", docs, text)
	}
	if text, _ := answerOf(t, NewExtractiveV19(an), req); contains(text, "3-year", "1-year") {
		t.Errorf("v19 answers %q with both versions (the case no longer tests v20)", text)
	}
	// A version named in a lead-in, the comparison asked within it: the
	// archived terms alone answer (rule 1 keeps them), nothing is paired.
	req.Question = "Under the 2025 terms, were burnt crumb trays covered for longer than the rest of the toaster?"
	if text, docs := answerOf(t, NewExtractiveV20(an), req); slices.Contains(docs, "pol-guarantee-2027") {
		t.Errorf("v20 cites %v (%q); the question asks about the 2025 terms alone", docs, text)
	}
	// Without the superseded version named, nothing is paired.
	req.Question = "What does the guarantee cover?"
	if text, _ := answerOf(t, NewExtractiveV20(an), req); strings.Contains(text, "1-year") {
		t.Errorf("v20 answers %q; the archived terms are not asked about", text)
	}
}

// TestEachPartGetsAValue: each part of a question asking two things that
// asks for a value gets one (v20, rule 10): from the page already cited
// ("when does our contract end"), else from another page about that part
// (its title holds "cost"); v19 answered the first part only.
func TestEachPartGetsAValue(t *testing.T) {
	an := terms.New()
	ovenAid := cur("1", "ptn-ovenaid", "Oven Aid: partner agreement", "Crumbly pays Oven Aid £30 per hour of repair labour and £12 per call-out. The agreement runs to 31 May 2028.")
	app := cur("2", "man-z20-app", "Pairing the Z20", "Hold the dial down for 5 seconds to pair the Z20.")
	req := Request{Question: "How much do we get per call-out, and when does our contract with Crumbly end?", Sources: []Source{ovenAid, app}, Accepted: []string{ovenAid.ID}}
	if text, _ := answerOf(t, NewExtractiveV20(an), req); !contains(text, "£12", "31 May 2028") {
		t.Errorf("v20 answers %q; want the call-out fee and the end date", text)
	}
	if text, _ := answerOf(t, NewExtractiveV19(an), req); contains(text, "31 May 2028") {
		t.Errorf("v19 answers %q with the end date (the case no longer tests v20)", text)
	}

	tray := cur("1", "man-z20-tray", "Z20 crumb tray", "A burnt smell usually means the crumb tray is full. Replace the crumb tray, part CT-Z20, about once a year with daily use.")
	costs := cur("2", "int-parts-cost", "Parts cost prices (internal)", "Internal cost prices: Z20 dial £2.10, CT-Z20 crumb tray £1.40, Z30 element £6.80.")
	shop := cur("3", "pol-shop", "Ordering spare parts", "Delivery is free on parts orders over £30.")
	req = Request{Question: "How often does a daily user need a fresh CT-Z20, and what is our cost for one?", Sources: []Source{tray, costs, shop}, Accepted: []string{tray.ID}}
	if text, docs := answerOf(t, NewExtractiveV20(an), req); !contains(text, "once a year", "£1.40") || slices.Contains(docs, "pol-shop") {
		t.Errorf("v20 cites %v (%q); want the interval and the cost price, not the shop's delivery", docs, text)
	}
	if text, _ := answerOf(t, NewExtractiveV19(an), req); contains(text, "£1.40") {
		t.Errorf("v19 answers %q with the cost (the case no longer tests v20)", text)
	}
	// A question asking one thing is not split.
	if got := answertype.AskingParts("How often does a daily user need a fresh CT-Z20?"); len(got) != 1 {
		t.Errorf("AskingParts = %q; want one part", got)
	}
}

// TestPronounHoldsWhatWentBefore: a sentence opening with a pronoun holds
// the content words of the sentence before it (v20): "It does not cover
// cracked elements" speaks of the guarantee. A sentence opening with
// another word does not, and v19 read neither so.
func TestPronounHoldsWhatWentBefore(t *testing.T) {
	an := terms.New()
	q := "Will the guarantee replace a cracked element?"
	src := cur("1", "pol-guarantee", "Terms", "The guarantee covers manufacturing faults. It does not cover cracked elements. Elements crack when dropped.")
	guarantee := an.Terms("guarantee")[0]
	for _, c := range []struct {
		g    *Extractive
		want []bool
	}{{NewExtractiveV20(an), []bool{true, true, false}}, {NewExtractiveV19(an), []bool{true, false, false}}} {
		asked := answertype.Classify(q)
		var all []*sentence
		for i, text := range []string{"The guarantee covers manufacturing faults.", "It does not cover cracked elements.", "Elements crack when dropped."} {
			all = append(all, &sentence{source: 0, pos: i, text: text})
		}
		c.g.score(Request{Question: q, Sources: []Source{src}}, all, c.g.content(q, asked), asked)
		for i, s := range all {
			if s.own[guarantee] != c.want[i] {
				t.Errorf("v%d: %q holds guarantee %v; want %v", c.g.Version, s.text, s.own[guarantee], c.want[i])
			}
		}
	}
}

// TestWhyGetsTheCause: a why-question answered by the sentence stating
// the effect it names gets the sentence before it, the cause (v20, rule
// 11); v19 quoted the effect alone. A question not asking why does not.
func TestWhyGetsTheCause(t *testing.T) {
	an := terms.New()
	move := cur("1", "ntc-move", "Repair centre move", "Our repair centre is moving from Leeds to York. Repairs booked between 1 and 16 May 2027 may take 3 extra working days.")
	other := cur("2", "pol-repairs", "Repairs", "We aim to return a toaster within 10 working days.")
	req := Request{Question: "Why might my repair take 3 extra working days this May?", Sources: []Source{move, other}, Accepted: []string{move.ID}}
	if text, _ := answerOf(t, NewExtractiveV20(an), req); !contains(text, "Leeds to York", "3 extra working days") {
		t.Errorf("v20 answers %q; want the move and the delay", text)
	}
	if text, _ := answerOf(t, NewExtractiveV19(an), req); strings.Contains(text, "Leeds to York") {
		t.Errorf("v19 answers %q with the move (the case no longer tests v20)", text)
	}
	req.Question = "Will my repair take 3 extra working days this May?"
	if text, _ := answerOf(t, NewExtractiveV20(an), req); strings.Contains(text, "Leeds to York") {
		t.Errorf("v20 answers %q; the question does not ask why", text)
	}
}

// TestJointBeforeComparison: a question asking the same of each thing it
// names is answered from each thing's page (rule 2b) before it is read as
// a comparison for the comparative word it holds ("both", v20): the
// specifications' wattage decides a comparison, not what a code means on
// each. v19 answered it as a comparison.
func TestJointBeforeComparison(t *testing.T) {
	an := terms.New()
	z30 := cur("1", "man-z30-errors", "Z30 error codes", "F2 means the lid sensor is dirty: wipe it with a dry cloth. F8 means the fan has failed: contact Crumbly support.")
	z20 := cur("2", "man-z20-errors", "Z20 error codes", "F2 means the crumb tray is out: push it back in. F5 means the element has overheated: unplug the toaster for 10 minutes.")
	specs30 := cur("3", "man-z30-specs", "Z30 toaster specifications", "The Z30 toaster has a 1,100 W element and four slots.")
	specs20 := cur("4", "man-z20-specs", "Z20 toaster specifications", "The Z20 toaster has a 900 W element and two slots.")
	req := Request{Question: "Both my toasters show F2 now and then, a Z20 and a Z30. Does the code mean the same problem on each?",
		Sources: []Source{z30, z20, specs30, specs20}, Accepted: []string{z20.ID}}
	if text, docs := answerOf(t, NewExtractiveV20(an), req); !slices.Equal(docs, []string{"man-z30-errors", "man-z20-errors"}) || !contains(text, "lid sensor", "crumb tray is out") {
		t.Errorf("v20 cites %v (%q); want each toaster's F2", docs, text)
	}
	if text, docs := answerOf(t, NewExtractiveV19(an), req); slices.Equal(docs, []string{"man-z30-errors", "man-z20-errors"}) && contains(text, "lid sensor", "crumb tray is out") {
		t.Errorf("v19 cites %v (%q), each toaster's F2 (the case no longer tests v20)", docs, text)
	}
}
