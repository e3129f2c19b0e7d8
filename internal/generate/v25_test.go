package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// v25case is a question, the pages a loop run gave it (rank order) and
// the one the assessor accepted.
type v25case struct {
	q        string
	pages    []string
	accepted string
}

func (c v25case) request(t *testing.T) Request {
	t.Helper()
	pages := hollinPages(t, c.pages...)
	req := Request{Question: c.q, Sources: pages}
	for _, p := range pages {
		if p.DocID == c.accepted {
			req.Accepted = []string{p.ID}
		}
	}
	if req.Accepted == nil {
		t.Fatalf("%q: accepted page %s not among the pages", c.q, c.accepted)
	}
	return req
}

// TestTiedAcceptedSaysMore: when the accepted page and the opening
// sentence's page bear on the question alike, v25 opens with the
// accepted page when its sentence says a word of the question (here the
// code "E4", and "X200") the other sentence and its title do not; v24
// let the rank discount decide and opened with the page ranked first.
// fresh11 u29 (the rule's design question) and fresh5 k31 (where the
// accepted recall page opens, and the warranty page, cited for the word
// "warranty" it lacks, answers instead of it, as v18's rule says).
func TestTiedAcceptedSaysMore(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		v24, v25 []string // the pages each cites
		want     string   // in v25's answer
	}{
		{v25case{"X300 Pro flashes E4 as soon as I start the vacuum mode. Which bit do I need to refit?",
			[]string{"man-x300-specs", "man-x300-errors", "pol-warranty-2026", "man-k50-app", "pol-registration"}, "man-x300-errors"},
			[]string{"man-x300-specs"}, []string{"man-x300-errors"}, "press it back into its groove"},
		{v25case{"I knocked my X200 jug off the counter and it's cracked. Will the warranty replace it?",
			[]string{"ntc-x200-recall", "pol-warranty-2026", "man-x200-blades", "man-x200-specs", "man-x200-cleaning"}, "ntc-x200-recall"},
			[]string{"ntc-x200-recall", "pol-warranty-2026"}, []string{"pol-warranty-2026"}, "cracked jars"},
	} {
		req := c.request(t)
		if _, docs := answerOf(t, NewExtractiveV24(an), req); !slices.Equal(docs, c.v24) {
			t.Errorf("%q: v24 cites %v, want %v (the case no longer tests v25)", c.q, docs, c.v24)
		}
		text, docs := answerOf(t, NewExtractiveV25(an), req)
		if !slices.Equal(docs, c.v25) || !strings.Contains(text, c.want) {
			t.Errorf("%q: v25 answers %q citing %v, want %v and %q", c.q, text, docs, c.v25, c.want)
		}
	}
}

// TestTiedAcceptedKeeps: a tied accepted page whose sentence says no
// word of the question the opening sentence lacks, or says one only in
// its title (ptn-handbook's "Service partner handbook"), does not open:
// v25 answers as v24, from the page that answers. hollin q21 and fresh12
// v56, where the accepted page is not the relevant one; the rule read
// with the accepted page's title words (rejected, see
// docs/log/round-23-g23-gen.md) fails the second.
func TestTiedAcceptedKeeps(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		cites, want string
	}{
		{v25case{"how do I connect the K50 to my phone",
			[]string{"man-k50-kettle", "man-k50-app", "faq-proof-of-purchase", "faq-warranty-claim", "man-x300-errors"}, "man-k50-kettle"},
			"man-k50-app", "Add appliance"},
		{v25case{"How long is our current service agreement with Hollin good for?",
			[]string{"ptn-handbook", "ptn-brook-rates", "faq-abroad", "man-k50-app", "sb-114"}, "ptn-handbook"},
			"ptn-brook-rates", "31 March 2027"},
	} {
		req := c.request(t)
		v24, _ := answerOf(t, NewExtractiveV24(an), req)
		text, docs := answerOf(t, NewExtractiveV25(an), req)
		if text != v24 || !slices.Equal(docs, []string{c.cites}) || !strings.Contains(text, c.want) {
			t.Errorf("%q: v25 answers %q citing %v; want v24's %q, citing %s", c.q, text, docs, v24, c.cites)
		}
	}
}

// TestTypedValueNoPassingSource: once a chosen sentence gives a value of
// the asked kind, another page adds only when its title holds a word of
// the clause that asks the answer lacks (v25; v18's rule after an
// accepted opening, now after any): the K50 app page's "hold the
// temperature dial down for 5 seconds" says "hold" and "temperature" in
// passing beside the kettle manual's "up to two hours" (fresh6 m11, the
// design question; v24 cited it).
func TestTypedValueNoPassingSource(t *testing.T) {
	an := terms.New()
	c := v25case{"I always boil the kettle and then get distracted by the kids. How long will the K50 hold the water at temperature for me?",
		[]string{"man-k50-kettle", "man-k50-app", "faq-hard-water", "man-x200-cleaning", "pol-privacy"}, "man-k50-app"}
	req := c.request(t)
	if _, docs := answerOf(t, NewExtractiveV24(an), req); !slices.Contains(docs, "man-k50-app") {
		t.Errorf("v24 cites %v (the case no longer tests v25)", docs)
	}
	if text, docs := answerOf(t, NewExtractiveV25(an), req); !slices.Equal(docs, []string{"man-k50-kettle"}) || !strings.Contains(text, "two hours") {
		t.Errorf("v25 answers %q citing %v; want the kettle manual's two hours alone", text, docs)
	}
}

// TestTypedValueKeepsTitledSource: the pages the v25 gate keeps: a page
// titled with the word the typed answer lacks (fresh f16: "Warranty
// terms" beside the kettle manual's "two hours", for "how long is the
// warranty on a kettle"; fresh10 t21: the kettle manual, titled "K50
// Smart Kettle", beside the hard-water page's "more often"). Each held
// its key fact in v24; a gate dropping every second page after a typed
// value (rejected) fails both.
func TestTypedValueKeepsTitledSource(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		cites, want string
	}{
		{v25case{"how long is the warranty on a kettle",
			[]string{"faq-hard-water", "man-k50-kettle", "pol-warranty-2026", "pol-repairs", "pol-registration"}, "man-k50-kettle"},
			"pol-warranty-2026", "2-year"},
		{v25case{"how regularly does the smart kettle need descaling? we're in a soft water area",
			[]string{"man-k50-kettle", "faq-hard-water", "man-x200-cleaning", "pol-registration", "pol-warranty-2026"}, "man-k50-kettle"},
			"man-k50-kettle", "once a month"},
	} {
		text, docs := answerOf(t, NewExtractiveV25(an), c.request(t))
		if !slices.Contains(docs, c.cites) || !strings.Contains(text, c.want) {
			t.Errorf("%q: v25 answers %q citing %v; want %s cited and %q", c.q, text, docs, c.cites, c.want)
		}
	}
}
