package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/terms"
)

// TestOneCopyWhicheverRule: a sentence two pages hold is quoted once,
// whichever rules chose it (v23, oneCopy). Here rule 5 brings the case
// page's own copy of the instruction after its first sentence, and the
// echo rule (rule 6), which quotes a sentence's first copy, brings the
// tips page's copy of it again; v22 kept only rules 2, 4, 5 and 8 from a
// second copy, so it quoted the instruction twice and cited the tips page
// for it.
func TestOneCopyWhicheverRule(t *testing.T) {
	an := terms.New()
	req := Request{Question: "her K50 won't pair with her older Android phone. Have we fixed this one before?", Sources: []Source{
		cur("1", "tips", "Kettle tips", "Hold the dial and the power button together for 15 seconds. Keep the lid shut while it boils."),
		cur("2", "case", "Case 30455", "The K50 would not pair with an older Android phone. Hold the dial and the power button together for 15 seconds."),
	}, Accepted: []string{"case#0"}}
	if text, _ := answerOf(t, NewExtractiveV22(an), req); strings.Count(text, "Hold the dial") != 2 {
		t.Errorf("v22 answers %q (the case no longer tests v23)", text)
	}
	text, docs := answerOf(t, NewExtractiveV23(an), req)
	if strings.Count(text, "Hold the dial") != 1 || !strings.Contains(text, "would not pair") || !slices.Equal(docs, []string{"case"}) {
		t.Errorf("v23 cites %v: %q; want the case's two sentences, the instruction once", docs, text)
	}
}

// TestLaterCopyJudgedAsFirst: a later copy of a sentence (the opening's
// neighbour taken from its own page, another page holding the same
// words first) holds what its first copy holds (v23): "Do this once a
// month." answers how often, so a sentence of the same page holding only
// the asked thing's name is not quoted beside it (v22's rule for a typed
// answer, see completes). v22 read the later copy as holding no
// expression of the expected type and quoted the boil time too.
func TestLaterCopyJudgedAsFirst(t *testing.T) {
	an := terms.New()
	req := Request{Question: "how often should I descale the K50 kettle?", Sources: []Source{
		cur("1", "tips", "Kitchen tips", "Do this once a month. Keep knives dry."),
		cur("2", "k50", "K50 kettle manual", "The K50 kettle must be descaled with citric acid. Do this once a month. The K50 kettle boils 1.7 litres in about four minutes."),
	}, Accepted: []string{"k50#0"}}
	if text, _ := answerOf(t, NewExtractiveV22(an), req); !strings.Contains(text, "boils 1.7 litres") {
		t.Errorf("v22 answers %q (the case no longer tests v23)", text)
	}
	text, docs := answerOf(t, NewExtractiveV23(an), req)
	if text != "The K50 kettle must be descaled with citric acid. [2] Do this once a month. [2]" || !slices.Equal(docs, []string{"k50"}) {
		t.Errorf("v23 cites %v: %q; want the descaling sentence and its frequency, from the manual", docs, text)
	}
}

// TestTimeRateWordBesideTheAmount: a time-rate word ("hourly") makes an
// amount a rate per that unit only when it qualifies the amount, in its
// clause and near it (v23, ratesAmount); v22 counted the word anywhere in
// the sentence, so "Hourly call-outs to Crumbly are free, and Oven Aid
// charges a £25 inspection fee" answered "What hourly rate ...". The
// rates said with the word (round 20's cases) are still answered.
func TestTimeRateWordBesideTheAmount(t *testing.T) {
	an := terms.New()
	other := cur("2", "man-k9", "K9 kettle", "The K9 kettle boils 1.5 litres in about three minutes.")
	for _, c := range []struct {
		q, text       string
		answered, v22 bool
	}{
		{"What hourly rate does Crumbly pay Oven Aid?", "Hourly call-outs to Crumbly are free, and Oven Aid charges a £25 inspection fee.", false, true},
		{"What hourly rate does Crumbly pay Oven Aid?", "Crumbly books hourly slots; Oven Aid charges Crumbly a £25 inspection fee.", false, true},
		// "free" is an amount of money beside "hourly": an hourly price
		// (extractive.go's comments once gave this as the case without one).
		{"What hourly rate does Crumbly pay Oven Aid?", "Hourly call-outs are free; the inspection fee is £25.", true, true},
		{"What hourly rate does Crumbly pay Oven Aid?", "Hourly call-outs are booked online; the inspection fee is £25.", false, true},
		{"What is the monthly fee for the Care Plan?", "The Care Plan sends a monthly newsletter to members who paid the £49 fee.", false, true},
		{"What hourly rate does Crumbly pay Oven Aid?", "Crumbly pays Oven Aid an hourly rate of £30 for guarantee labour.", true, true},
		{"What hourly rate does Crumbly pay Oven Aid?", "Crumbly pays Oven Aid £30/hr for guarantee labour.", true, true},
		{"What is the monthly fee for the Care Plan?", "The Care Plan costs £4.99 monthly and covers accidental damage.", true, true},
		{"What is the annual fee for the Care Plan?", "The Care Plan costs £49 annually and covers accidental damage.", true, true},
		{"What is the monthly fee for the Care Plan?", "The Care Plan costs £49 annually and covers accidental damage.", false, false},
	} {
		page := cur("1", "plan", "Rates", c.text)
		req := Request{Question: c.q, Sources: []Source{page, other}, Accepted: []string{page.ID}}
		if text, _ := answerOf(t, NewExtractiveV22(an), req); (text != prompt.NotFoundReply) != c.v22 {
			t.Errorf("%q over %q: v22 answers %q (the case no longer tests v23)", c.q, c.text, text)
		}
		if text, _ := answerOf(t, NewExtractiveV23(an), req); (text != prompt.NotFoundReply) != c.answered {
			t.Errorf("%q over %q: v23 answers %q, want answered %v", c.q, c.text, text, c.answered)
		}
	}
}

// TestRankPassLost: a source ranked above the opening one that bears on
// the whole question less than the opening's source gets no rank pass in
// rule 3 (v23): the opening was kept from it on that measure. v22 cited
// the accepted voltage-converter page beside the warranty's cracked-jar
// sentence for a word of the question's scene ("covered"); the pages a
// loop run gave fresh14 x52, the rule designed on it.
func TestRankPassLost(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "faq-abroad", "pol-warranty-2026", "ntc-x200-recall", "faq-hard-water", "man-x200-blades")
	req := Request{Question: "I heard cracked jugs used to be covered by the warranty. Is that still the case?", Sources: pages, Accepted: []string{pages[0].ID}}
	if _, docs := answerOf(t, NewExtractiveV22(an), req); !slices.Contains(docs, "faq-abroad") {
		t.Errorf("v22 cites %v (the case no longer tests v23)", docs)
	}
	if text, docs := answerOf(t, NewExtractiveV23(an), req); !slices.Equal(docs, []string{"pol-warranty-2026"}) || !strings.Contains(text, "cracked jars") {
		t.Errorf("v23 cites %v: %q; want the warranty's terms alone", docs, text)
	}
	// v24 gives the rank pass back (the rule cost SciFact two right
	// sources): it cites the voltage-converter page as v22 did.
	if _, docs := answerOf(t, NewExtractiveV24(an), req); !slices.Contains(docs, "faq-abroad") {
		t.Errorf("v24 cites %v; want the rank pass v23 took away", docs)
	}
}
