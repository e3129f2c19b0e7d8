package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV31ElaboratesOnlyOnTheQuestion: v30 cites the kettle manual's
// "Descale it once a month with citric acid" beside the hard-water page's
// opening "In hard-water areas, descale kettles ... more often" for
// questions about neither (fresh6 m33, fresh13 w36: the loop's pages in
// rank order, the accepted one named): the instruction shares "descale"
// with the opening, not a word with the question, and the opening's page
// (Hard water and limescale) is not titled with one either. v31 does not
// cite the manual.
func TestV31ElaboratesOnlyOnTheQuestion(t *testing.T) {
	an := terms.New()
	for _, c := range []v25case{
		{"Whats the process for getting my broken kettle fixed under the warrenty?",
			[]string{"man-k50-kettle", "faq-hard-water", "man-x200-errors", "man-x300-specs", "pol-privacy"}, "man-k50-kettle"},
		{"How do I get my kettle talking to my phone?",
			[]string{"man-k50-kettle", "faq-hard-water", "ntc-x200-recall", "pol-warranty-2026", "man-x300-errors"}, "man-k50-kettle"},
	} {
		req := c.request(t)
		old, oldDocs := answerOf(t, NewExtractiveV30(an), req)
		if !slices.Contains(oldDocs, "man-k50-kettle") {
			t.Errorf("%q: v30 answers %q citing %v (the case no longer tests v31)", c.q, old, oldDocs)
		}
		text, docs := answerOf(t, NewExtractiveV31(an), req)
		if slices.Contains(docs, "man-k50-kettle") || !slices.Contains(docs, "faq-hard-water") {
			t.Errorf("%q: v31 answers %q citing %v, want faq-hard-water and not man-k50-kettle", c.q, text, docs)
		}
	}
}

// TestV31Keeps: the instruction still elaborates an opening whose page is
// titled with a word of the question (hollin q04, "limescale": Hard water
// and limescale), in the loop's rank order (v9's reading of an answering
// opening) and with the kettle manual ranked first and accepted (rule 3's
// general reading, which v31 gates): the answer keeps "citric acid".
func TestV31Keeps(t *testing.T) {
	an := terms.New()
	for _, c := range []v25case{
		{"how do I get rid of limescale in the kettle",
			[]string{"faq-hard-water", "man-k50-kettle", "pol-warranty-2026", "man-x300-specs", "man-x200-cleaning"}, "faq-hard-water"},
		{"how do I get rid of limescale in the kettle",
			[]string{"man-k50-kettle", "faq-hard-water", "pol-warranty-2026", "man-x300-specs", "man-x200-cleaning"}, "man-k50-kettle"},
	} {
		req := c.request(t)
		for _, g := range []*Extractive{NewExtractiveV30(an), NewExtractiveV31(an)} {
			if text, _ := answerOf(t, g, req); !strings.Contains(text, "citric acid") {
				t.Errorf("%q (%s first): v%d answers %q, want \"citric acid\"", c.q, c.pages[0], g.Version, text)
			}
		}
	}
}
