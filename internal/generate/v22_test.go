package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestNameAloneNotQuoted: for a question asking a value, a sentence of a
// page already cited that holds of the question only the name of the
// thing asked about is not quoted beside the one giving the value (v22);
// v21 opened "how often should I descale the K50" with the kettle's boil
// time (the pages a loop run gave fresh f06, the question sr20's). A
// count whose noun is not the asked one ("three speeds" for "how many
// revs") does not answer: the page's other sentences still come.
func TestNameAloneNotQuoted(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "man-k50-kettle", "faq-hard-water", "man-k50-app", "pol-privacy", "man-x200-cleaning")
	req := Request{Question: "how often should I descale the K50", Sources: pages, Accepted: []string{pages[0].ID}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); !strings.Contains(text, "boils 1.7 litres") {
		t.Errorf("v21 answers %q without the boil time (the case no longer tests v22)", text)
	}
	if text, docs := answerOf(t, NewExtractiveV22(an), req); text != "Descale it once a month with citric acid. [1]" || !slices.Equal(docs, []string{"man-k50-kettle"}) {
		t.Errorf("v22 cites %v: %q; want the descaling sentence alone", docs, text)
	}

	pages = hollinPages(t, "man-x200-specs", "man-x200-blades", "ntc-x200-recall", "man-x200-cleaning", "man-x200-errors")
	req = Request{Question: "how many revs does the X200 manage when you crank it right up?", Sources: pages, Accepted: []string{pages[0].ID}}
	if text, _ := answerOf(t, NewExtractiveV22(an), req); !strings.Contains(text, "22,000 RPM") {
		t.Errorf("v22 answers %q: three speeds do not count revs", text)
	}
	req.Question = "how many watts is the X200?"
	if text, _ := answerOf(t, NewExtractiveV22(an), req); text != "The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds. [1]" {
		t.Errorf("v22 answers %q; want the motor's sentence alone", text)
	}
}

// TestHeadingNotQuoted: a thin sentence every word of which its page's
// title holds ("Case 30455." on "Case 30455: K50 will not pair") brings
// the rest of its page and is not quoted itself (v22, rule 4'); v21
// answered "Case 30455. [1] The K50 would not pair ..." (sr20's
// fragment; hollin q15).
func TestHeadingNotQuoted(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "tkt-30455", "tkt-30412", "tkt-30501", "ptn-handbook", "ntc-x200-recall")
	req := Request{Question: "case 30455", Sources: pages, Accepted: []string{pages[0].ID}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); !strings.HasPrefix(text, "Case 30455. [1]") {
		t.Errorf("v21 answers %q (the case no longer tests v22)", text)
	}
	text, docs := answerOf(t, NewExtractiveV22(an), req)
	if strings.Contains(text, "Case 30455.") || !contains(text, "would not pair", "15 seconds") || !slices.Equal(docs, []string{"tkt-30455"}) {
		t.Errorf("v22 cites %v: %q; want the case's two statements, not its heading", docs, text)
	}
}

// TestOtherSideNearestInItsPage: rule 8's other side is the nearest
// sentence of the side's own page, measured there and quoted from there
// (v22); v21 measured a duplicated sentence's distance at its first copy,
// in another page, and took a farther one (rv20's finding).
func TestOtherSideNearestInItsPage(t *testing.T) {
	an := terms.New()
	req := Request{Question: "Is the blender motor covered for longer than the rest of the appliance?", Sources: []Source{
		cur("1", "kettle-care", "Kettle care", "Read the kettle manual first. Descale the kettle monthly. Store the kettle dry. Every appliance has a 2-year warranty from purchase."),
		cur("2", "blender-cover", "Blender cover", "Blender motors are covered for 5 years. Every appliance has a 2-year warranty from purchase. Glass jugs last 3 months."),
	}, Accepted: []string{"blender-cover#0"}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); !strings.Contains(text, "3 months") {
		t.Errorf("v21 answers %q (the case no longer tests v22)", text)
	}
	text, docs := answerOf(t, NewExtractiveV22(an), req)
	if text != "Blender motors are covered for 5 years. [2] Every appliance has a 2-year warranty from purchase. [2]" || !slices.Equal(docs, []string{"blender-cover"}) {
		t.Errorf("v22 cites %v: %q; want the 2-year sentence next to the side, cited to its page", docs, text)
	}
}

// TestNoSentenceTwice: rules 4 and 5 add no sentence another copy of
// which the answer quotes (v22); v21 quoted "Unplug the blender for 20
// minutes." once per page.
func TestNoSentenceTwice(t *testing.T) {
	an := terms.New()
	req := Request{Question: "what does E7 mean?", Sources: []Source{
		cur("1", "x200-errors", "X200 error codes", "E7 means the motor has overheated. Unplug the blender for 20 minutes."),
		cur("2", "x300-errors", "X300 error codes", "E7 on the X300 means the motor has overheated. Unplug the blender for 20 minutes."),
	}, Accepted: []string{"x200-errors#0"}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); strings.Count(text, "Unplug") != 2 {
		t.Errorf("v21 answers %q (the case no longer tests v22)", text)
	}
	if text, _ := answerOf(t, NewExtractiveV22(an), req); strings.Count(text, "Unplug") != 1 || !strings.Contains(text, "E7 on the X300") {
		t.Errorf("v22 answers %q; want both pages' meanings and the advice once", text)
	}
}

// TestCauseFromItsPage: rule 11's cause is quoted from the page stating
// the effect (v22); v21 quoted its first copy, cited to another page.
func TestCauseFromItsPage(t *testing.T) {
	an := terms.New()
	req := Request{Question: "why may repairs booked in May take 2 extra working days?", Sources: []Source{
		cur("1", "depot-news", "Depot news", "Our staff party is in June. The canteen reopens soon. The repair depot is moving from Leeds to York."),
		cur("2", "depot-move", "Repair depot move", "The repair depot is moving from Leeds to York. Repairs booked in May may take 2 extra working days."),
	}, Accepted: []string{"depot-move#0"}}
	if _, docs := answerOf(t, NewExtractiveV21(an), req); !slices.Contains(docs, "depot-news") {
		t.Errorf("v21 cites %v (the case no longer tests v22)", docs)
	}
	if text, docs := answerOf(t, NewExtractiveV22(an), req); !slices.Equal(docs, []string{"depot-move"}) || !contains(text, "moving from Leeds", "2 extra") {
		t.Errorf("v22 cites %v: %q; want the move and the delay, from the move's page", docs, text)
	}
}
