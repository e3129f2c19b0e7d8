package generate

import (
	"fmt"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestSecondSourceAboutWhatIsMissing: after an opening from the chunk the
// assessor accepted, another source is cited for a word of the question
// it adds only when its title holds a word of the question the answer
// lacks (v18): a page about something else that uses a question word in
// passing ("within 10 days" for "these days") is not cited, a page titled
// with what the accepted one never mentions ("Guarantee terms" beside a
// toaster manual, for "how long is the guarantee on a toaster") still is,
// and answers instead of the accepted page. Nor is another source's
// sentence holding the same words of a question naming no entity ("book",
// "repair"). A claim ("Zeta is paying us per hour ...") asks nothing and
// is read as v17 reads it.
func TestSecondSourceAboutWhatIsMissing(t *testing.T) {
	an := terms.New()
	cases := []struct {
		name, q  string
		claim    string // the question said as a claim, when set
		sources  []Source
		want     []string // documents v18 cites
		v17Cites []string // what v17 cites instead
	}{
		{
			name: "in passing",
			q:    "What's Zeta paying us per hour for guarantee labour these days?",
			sources: []Source{
				cur("1", "ptn-rates", "Acme Repairs: partner agreement", "Zeta pays Acme Repairs £40 per hour of guarantee labour and £15 per home visit. The agreement runs to 31 March 2027."),
				cur("2", "ptn-handbook", "Partner handbook", "Submit guarantee labour claims within 10 days of the repair, quoting the case number. Use genuine Zeta parts only. Zeta pays labour at the hourly rate in your partner agreement."),
				cur("3", "faq-abroad", "Using Zeta toasters abroad", "Zeta toasters are made for UK 230 V sockets. Using one with a voltage converter abroad is not covered by the guarantee."),
				cur("4", "pol-repairs", "Repairs and collection", "We aim to repair and return a toaster within 10 working days of receiving it. Collection by courier is free for toasters under guarantee."),
			},
			claim:    "Zeta is paying us per hour for guarantee labour these days.",
			want:     []string{"ptn-rates"},
			v17Cites: []string{"ptn-rates", "ptn-handbook"},
		},
		{
			name: "about what is missing",
			q:    "how long is the guarantee on a toaster",
			sources: []Source{
				cur("1", "man-z20", "Z20 toaster", "The Z20 toaster browns bread in about two minutes and keeps toast warm for up to ten minutes."),
				cur("2", "pol-guarantee", "Guarantee terms", "Every Zeta appliance has a 3-year guarantee from the date of purchase."),
			},
			claim:    "The guarantee on a toaster lasts 3 years.",
			want:     []string{"pol-guarantee"},
			v17Cites: []string{"man-z20", "pol-guarantee"},
		},
		{
			name: "the question's words again",
			q:    "What do I need to have to hand before I book a guarantee repair?",
			sources: []Source{
				cur("1", "faq-claim", "How do I make a warranty claim?", "Book a repair at zeta.example/repair with your model number and proof of purchase. A courier collects the appliance from your door. Most repairs are back with you within 10 working days."),
				cur("2", "ntc-move", "Repair centre move", "Our repair centre is moving from Leeds to York. Repairs booked between 1 and 16 October 2026 may take 2 extra working days."),
				cur("3", "faq-tracking", "Tracking a repair", "We email a tracking link when the courier collects your appliance and again when it is on its way back. A repair shows as Booked, In workshop, Repaired, then Dispatched."),
				cur("4", "pol-registration", "Registering your appliance", "Register your appliance at zeta.example/register so we can contact you about safety notices. You do not need to register to claim under the warranty."),
			},
			want:     []string{"faq-claim"},
			v17Cites: []string{"faq-claim", "ntc-move", "faq-tracking"},
		},
	}
	for _, c := range cases {
		req := Request{Question: c.q, Sources: c.sources, Accepted: []string{c.sources[0].ID}}
		text, docs := answerOf(t, NewExtractiveV18(an), req)
		if !slices.Equal(docs, c.want) {
			t.Errorf("%s: v18 cites %v (%q); want %v", c.name, docs, text, c.want)
		}
		if text, docs := answerOf(t, NewExtractiveV17(an), req); !slices.Equal(docs, c.v17Cites) {
			t.Errorf("%s: v17 cites %v (%q); want %v", c.name, docs, text, c.v17Cites)
		}
		// A claim asks nothing whose missing part another source could
		// add: v18 reads it as v17 does (SciFact's claims).
		if c.claim != "" {
			claim := req
			claim.Question = c.claim
			_, d18 := answerOf(t, NewExtractiveV18(an), claim)
			_, d17 := answerOf(t, NewExtractiveV17(an), claim)
			if !slices.Equal(d18, d17) {
				t.Errorf("%s, as a claim: v18 cites %v, v17 %v", c.name, d18, d17)
			}
		}
		// Without an accepted chunk (a model assessor) v18 reads as v17.
		req.Accepted = nil
		_, d18 := answerOf(t, NewExtractiveV18(an), req)
		_, d17 := answerOf(t, NewExtractiveV17(an), req)
		if !slices.Equal(d18, d17) {
			t.Errorf("%s, nothing accepted: v18 cites %v, v17 %v", c.name, d18, d17)
		}
	}
}

// TestSecondSourceComparisonSides: on the Hollin corpus, a comparison
// naming no entity ("Which of your two blenders has the stronger
// motor?", fresh13 w62) keeps its other side's sentence after the
// accepted chunk opens: v18's "no equally complete second page for a
// question naming no entity" does not apply to a comparison.
func TestSecondSourceComparisonSides(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	req := f.requestAs(t, hollinQuestion{ID: "w62", Question: "Which of your two blenders has the stronger motor?"}, []string{"public"}, 5)
	i := slices.IndexFunc(req.Sources, func(s Source) bool { return s.DocID == "man-x200-specs" })
	if i < 0 {
		t.Fatalf("man-x200-specs not retrieved: %v", req.Sources)
	}
	req.Accepted = []string{req.Sources[i].ID}
	text, docs := answerOf(t, NewExtractiveV18(an), req)
	for _, want := range []string{"man-x200-specs", "man-x300-specs"} {
		if !slices.Contains(docs, want) {
			t.Errorf("v18 cites %v (%q); want %s among them", docs, text, want)
		}
	}
}

// TestInsteadOpensTheAnswer: when another source answers instead of the
// accepted chunk (v18), the answer opens with the sentence that does so —
// the first cited for a word of the question the accepted chunk never
// mentions — not with whichever other cited source is ranked first. Here
// the guarantee page ("guarantee", 3-year) is cited first and the spare
// lids page, ranked above it, second (for "lid"): the answer opens with
// the guarantee, then the rest in rank order.
func TestInsteadOpensTheAnswer(t *testing.T) {
	an := terms.New()
	sources := []Source{
		cur("1", "man-z20", "Z20 toaster", "The Z20 toaster browns bagels in about two minutes."),
		cur("2", "faq-lids", "Spare lids", "A cracked Z20 lid is replaced free for 2 years."),
		cur("3", "pol-guarantee", "Guarantee terms", "Every Zeta toaster, the Z20 included, has a 3-year guarantee from the date of purchase."),
	}
	req := Request{Question: "how long is the guarantee on a Z20 toaster lid for bagels", Sources: sources, Accepted: []string{sources[0].ID}}
	g := NewExtractiveV18(an)
	var rules []string
	g.explain = func(source int, _, rule string) { rules = append(rules, fmt.Sprintf("%d %s", source, rule)) }
	text, docs := answerOf(t, g, req)
	if want := []string{"0 opening", "2 adds", "1 adds"}; !slices.Equal(rules, want) {
		t.Fatalf("chosen %v, want %v (the case no longer tests the order)", rules, want)
	}
	want := "Every Zeta toaster, the Z20 included, has a 3-year guarantee from the date of purchase. [3] A cracked Z20 lid is replaced free for 2 years. [2]"
	if text != want || !slices.Equal(docs, []string{"pol-guarantee", "faq-lids"}) {
		t.Errorf("v18 answers %q (%v); want %q", text, docs, want)
	}
}
