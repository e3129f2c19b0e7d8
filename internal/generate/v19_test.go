package generate

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/terms"
)

// z20Pages are a toaster's manual, titled with the product's full name,
// its app page, naming it by its code only, and a policy naming no
// product.
var z20Pages = []Source{
	cur("1", "man-z20", "Z20 Smart Toaster", "The Z20 smart toaster browns two slices in about two minutes and keeps toast warm for up to ten minutes. Empty the crumb tray once a week."),
	cur("2", "man-z20-app", "Pairing the Z20 with the Crumbly Home app", "To pair the Z20 with the Crumbly Home app, hold the browning dial down for 5 seconds until the light flashes blue, then choose Add appliance in the app."),
	cur("3", "pol-registration", "Registering your appliance", "You do not need to register to claim under the warranty."),
}

// TestProductNamesAsTheAssessorReadsThem: a page naming a product's code
// holds the words of the product's full name as the sources write it
// ("Z20 Smart Toaster": the Z20 app page is about the smart toaster), as
// the builtin assessor reads it (assess.ProductNames, v19). With the app
// page accepted, it opens the answer to "whats the name of the app the
// smart toaster talks to", an open question asking one thing included,
// and the page titled with the name is not cited beside it for "toaster"
// nor answers instead of it; v18 answered all three from the toaster's
// manual.
func TestProductNamesAsTheAssessorReadsThem(t *testing.T) {
	an := terms.New()
	for _, q := range []string{
		"whats the name of the app the smart toaster talks to",
		"What's the app called that the smart toaster works with?",
		"How long do I hold the dial down to get the smart toaster ready to pair with my phone?",
	} {
		req := Request{Question: q, Sources: z20Pages, Accepted: []string{z20Pages[1].ID}}
		if text, docs := answerOf(t, NewExtractiveV19(an), req); !slices.Equal(docs, []string{"man-z20-app"}) {
			t.Errorf("%q: v19 cites %v (%q); want the app page", q, docs, text)
		}
		if text, docs := answerOf(t, NewExtractiveV18(an), req); !slices.Equal(docs, []string{"man-z20"}) {
			t.Errorf("%q: v18 cites %v (%q); want the manual (the case no longer tests v19)", q, docs, text)
		}
	}
}

// TestSameProduct: a product's name weighs in the accepted chunk's bearing
// only against a page naming the same code (v19): the Z20 app page and the
// "Z20 Smart Toaster" manual are one product's pages; the registration
// policy, naming no product, is not (fresh9 r14: the X200 cleaning page,
// holding "blender" through "X200 Blender", opened instead of the
// registration page that answers). Neither v18 nor a question naming an
// entity reads names.
func TestSameProduct(t *testing.T) {
	an := terms.New()
	g := NewExtractiveV19(an)
	mentions := g.mentions(z20Pages)
	words, names := g.nameWords(Request{Sources: z20Pages}, nil, mentions)
	if !words[1][an.Terms("toaster")[0]] || len(words[2]) != 0 {
		t.Fatalf("name words = %v, want toaster for the app page, nothing for the policy", words)
	}
	if !sameProduct(names, mentions, 1, 0) {
		t.Error("the app page and the toaster's manual: not one product's pages")
	}
	if sameProduct(names, mentions, 1, 2) || sameProduct(names, mentions, 2, 0) {
		t.Error("the registration policy and a Z20 page: one product's pages")
	}
	if w, _ := NewExtractiveV18(an).nameWords(Request{Sources: z20Pages}, nil, mentions); w != nil {
		t.Errorf("v18 reads names: %v", w)
	}
	if w, _ := g.nameWords(Request{Sources: z20Pages}, []assess.Entity{{Terms: []string{"z20"}, Code: true}}, mentions); w != nil {
		t.Errorf("a question naming an entity reads names: %v", w)
	}
}

// TestInsteadWhenTheOpeningLacksIt: a page titled with a word of the
// question that no chosen sentence holds answers instead of the accepted
// chunk (v19) even when the chunk mentions the word in a sentence not
// chosen: the answer rests on the sentences it quotes, not on the chunk's
// other sentences (fresh4 h45). v18 required the chunk to mention it
// nowhere, and quoted the crumbs page beside the claim page.
func TestInsteadWhenTheOpeningLacksIt(t *testing.T) {
	an := terms.New()
	sources := []Source{
		cur("1", "faq-crumbs", "Crumbs and cleaning", "Crumbs left in a toaster can burn, so clean toasters and grills often. Crumb damage is not covered by the guarantee."),
		cur("2", "faq-claim", "How do I make a guarantee claim?", "Book a repair at zeta.example/repair with your model number and proof of purchase. Most repairs are back with you within 10 working days."),
	}
	req := Request{Question: "What's the process for getting my toaster repaired under guarantee?", Sources: sources, Accepted: []string{sources[0].ID}}
	if text, docs := answerOf(t, NewExtractiveV19(an), req); !slices.Equal(docs, []string{"faq-claim"}) {
		t.Errorf("v19 cites %v (%q); want the claim page alone", docs, text)
	}
	if text, docs := answerOf(t, NewExtractiveV18(an), req); !slices.Equal(docs, []string{"faq-crumbs", "faq-claim"}) {
		t.Errorf("v18 cites %v (%q); want both (the case no longer tests v19)", docs, text)
	}
}

// TestElaboratesAnInstructionOnly: another source's sentence sharing a
// rare word with the best one elaborates it only when the best sentence is
// an instruction (v19): a status ("A repair shows as Booked, ...") is not
// elaborated by "Book a repair at ..." (fresh12 v94, fresh16 z60), an
// instruction ("descale kettles more often") still is by "Descale it once
// a month".
func TestElaboratesAnInstructionOnly(t *testing.T) {
	an := terms.New()
	status := []Source{
		cur("1", "faq-tracking", "Tracking a repair", "We email a tracking link when the courier collects your toaster and again when it is on its way back. A repair shows as Booked, In workshop, Repaired, then Dispatched."),
		cur("2", "faq-claim", "How do I make a guarantee claim?", "Book a repair at zeta.example/repair with your model number and proof of purchase."),
	}
	instruction := []Source{
		cur("1", "faq-hard-water", "Hard water and limescale", "In hard-water areas, descale kettles and coffee machines more often."),
		cur("2", "man-k9", "K9 kettle", "Descale it once a month with citric acid."),
	}
	for _, c := range []struct {
		q        string
		sources  []Source
		v19, v18 []string
	}{
		{"How can I keep an eye on where my toaster is while it's away being repaired?", status, []string{"faq-tracking"}, []string{"faq-tracking", "faq-claim"}},
		{"how should I look after my kettle in a hard water area?", instruction, []string{"faq-hard-water", "man-k9"}, []string{"faq-hard-water", "man-k9"}},
	} {
		req := Request{Question: c.q, Sources: c.sources, Accepted: []string{c.sources[0].ID}}
		if text, docs := answerOf(t, NewExtractiveV19(an), req); !slices.Equal(docs, c.v19) {
			t.Errorf("%q: v19 cites %v (%q); want %v", c.q, docs, text, c.v19)
		}
		if text, docs := answerOf(t, NewExtractiveV18(an), req); !slices.Equal(docs, c.v18) {
			t.Errorf("%q: v18 cites %v (%q); want %v", c.q, docs, text, c.v18)
		}
	}
}
