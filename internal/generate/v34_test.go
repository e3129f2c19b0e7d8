package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// TestV34MovedIsNoPlace: "where's it going?" after the accepted "Repairs
// and turnaround" (fresh4 h15, a design question, in the loop's page
// order). v33 reads "to repair" ("We aim to repair and return ...") and
// "from the repair price" as places, so the accepted page's sentences
// hold the expected type and open; v34 reads neither as one, and the
// page that names where the centre moves ("from Cleckheaton to
// Wakefield") opens, with its key fact.
func TestV34MovedIsNoPlace(t *testing.T) {
	an := terms.New()
	c := v25case{"Heard your repair place is relocating - where's it going?",
		[]string{"pol-repairs", "ntc-repair-centre-move", "faq-repair-tracking", "faq-warranty-claim", "faq-vat-invoice"}, "pol-repairs"}
	req := c.request(t)
	old, oldDocs := answerOf(t, NewExtractiveV33(an), req)
	if slices.Contains(oldDocs, "ntc-repair-centre-move") {
		t.Errorf("v33 answers %q citing %v (the case no longer tests v34)", old, oldDocs)
	}
	text, docs := answerOf(t, NewExtractiveV34(an), req)
	if !slices.Equal(docs, []string{"ntc-repair-centre-move"}) || len(missingFacts(text, []string{"Wakefield"})) > 0 {
		t.Errorf("v34 answers %q citing %v, want Wakefield from ntc-repair-centre-move alone", text, docs)
	}
}

// TestV34KeepsPlaces: a place after another preposition ("printed on the
// base of the jar", fresh8 p48) and an address ("at
// hollin.example/recall", fresh10 t40) still answer where; v34 no longer
// pads either answer with "X200 jars from batch B-2291 may crack ...",
// whose "from batch" v33 read as a place.
func TestV34KeepsPlaces(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		fact string
	}{
		{v25case{"where on the blender jar is the batch number?",
			[]string{"ntc-x200-recall", "man-x200-specs", "man-x300-specs", "man-x200-errors", "pol-warranty-2026"}, "ntc-x200-recall"},
			"base of the jar"},
		{v25case{"where's the page to get a replacement jar for the recall",
			[]string{"ntc-x200-recall", "man-x200-blades", "man-x200-cleaning", "man-x200-specs", "man-x200-errors"}, "ntc-x200-recall"},
			"hollin.example/recall"},
	} {
		req := c.request(t)
		old, _ := answerOf(t, NewExtractiveV33(an), req)
		if !strings.Contains(old, "from batch B-2291") {
			t.Errorf("%q: v33 answers %q (the case no longer tests v34's padding)", c.q, old)
		}
		text, docs := answerOf(t, NewExtractiveV34(an), req)
		if !slices.Equal(docs, []string{"ntc-x200-recall"}) || len(missingFacts(text, []string{c.fact})) > 0 || strings.Contains(text, "from batch B-2291") {
			t.Errorf("%q: v34 answers %q citing %v, want %q without the batch sentence", c.q, text, docs, c.fact)
		}
	}
}

// TestNamedPlaces pins namedPlaces on the place finder's own output: a
// common word reached only by "from" or "to" goes; a name, an address
// and a word another preposition reaches too stay, and nothing else.
func TestNamedPlaces(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"We aim to repair and return an appliance within 10 working days of receiving it.", nil},
		{"Out-of-warranty repairs carry a £25 inspection fee, which is deducted from the repair price if you go ahead.", nil},
		{"Our repair centre is moving from Cleckheaton to Wakefield.", []string{"Cleckheaton", "Wakefield"}},
		{"The batch number is printed on the base of the jar.", []string{"base"}},
		{"Send it to the workshop, and we keep it in the workshop.", []string{"workshop"}},
		{"Spare parts are sold at parts.hollin.example.", []string{"parts.hollin.example", "parts"}},
		{"Go to hollin.example/register to sign up.", []string{"hollin.example/register"}},
		// Not only ASCII: a capital is any script's, and a word of a
		// script with no capitals (an uncased letter first) is never a
		// common word written in lower case, so it stays (rv36).
		{"Ship it to Östersund, or to écluse.", []string{"Östersund"}},
		{"Send it to 東京.", []string{"東京"}},
	} {
		found := answertype.Find(answertype.Place, c.text)
		if len(found) == 0 {
			t.Fatalf("%q: the place finder finds nothing (the case tests nothing)", c.text)
		}
		got := namedPlaces(c.text, found)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: namedPlaces(%v) = %v, want %q kept", c.text, found, got, w)
			}
		}
		for _, w := range got {
			if !slices.Contains(c.want, w) {
				t.Errorf("%q: namedPlaces(%v) = %v, want %q gone", c.text, found, got, w)
			}
		}
		if c.want == nil && len(got) > 0 {
			t.Errorf("%q: namedPlaces(%v) = %v, want none", c.text, found, got)
		}
	}
}
