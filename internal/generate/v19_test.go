package generate

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/terms"
)

// TestProductNamesAsTheAssessorReadsThem: a page naming a product's code
// holds the words of the product's full name as the sources write it
// ("Z20 Smart Toaster": the Z20 app page is about the smart toaster), as
// the builtin assessor reads it (assess.ProductNames, v19). The accepted
// app page then opens the answer to "whats the name of the app the smart
// toaster talks to", an open question asking one thing included, and the
// page titled with the name is not cited beside it for "toaster" nor
// answers instead of it; v18 answered all three from the toaster's
// manual. A question naming the product itself reads no names (as the
// assessor).
func TestProductNamesAsTheAssessorReadsThem(t *testing.T) {
	an := terms.New()
	manual := cur("1", "man-z20", "Z20 Smart Toaster", "The Z20 smart toaster browns two slices in about two minutes and keeps toast warm for up to ten minutes. Empty the crumb tray once a week.")
	app := cur("2", "man-z20-app", "Pairing the Z20 with the Crumbly Home app", "To pair the Z20 with the Crumbly Home app, hold the browning dial down for 5 seconds until the light flashes blue, then choose Add appliance in the app.")
	hard := cur("3", "faq-crumbs", "Crumbs and cleaning", "Crumbs left in an appliance can burn. Clean toasters and grills regularly.")
	cases := []struct {
		name, q  string
		sources  []Source
		accepted string
		want     []string // documents v19 cites
		v18Cites []string // what v18 cites instead
	}{
		{
			name:     "a name asked",
			q:        "whats the name of the app the smart toaster talks to",
			sources:  []Source{manual, app, hard},
			accepted: app.ID,
			want:     []string{"man-z20-app"},
			v18Cites: []string{"man-z20"},
		},
		{
			name:     "an open question",
			q:        "What's the app called that the smart toaster works with?",
			sources:  []Source{manual, app, hard},
			accepted: app.ID,
			want:     []string{"man-z20-app"},
			v18Cites: []string{"man-z20"},
		},
		{
			name:     "the name's page not cited beside the accepted one",
			q:        "How long do I hold the dial down to get the smart toaster ready to pair with my phone?",
			sources:  []Source{manual, app, hard},
			accepted: app.ID,
			want:     []string{"man-z20-app"},
			v18Cites: []string{"man-z20"},
		},
	}
	for _, c := range cases {
		req := Request{Question: c.q, Sources: c.sources, Accepted: []string{c.accepted}}
		text, docs := answerOf(t, NewExtractiveV19(an), req)
		if !slices.Equal(docs, c.want) {
			t.Errorf("%s: v19 cites %v (%q); want %v", c.name, docs, text, c.want)
		}
		if text, docs := answerOf(t, NewExtractiveV18(an), req); !slices.Equal(docs, c.v18Cites) {
			t.Errorf("%s: v18 cites %v (%q); want %v", c.name, docs, text, c.v18Cites)
		}
	}
}

// TestSameProduct: a product's name weighs in the accepted chunk's bearing
// only against a page naming the same code (v19): the Z20 app page and the
// "Z20 Smart Toaster" manual are one product's pages; the registration
// policy, naming no product, is not (fresh9 r14: the X200 cleaning page,
// holding "blender" through "X200 Blender", opened instead of the
// registration page that answers).
func TestSameProduct(t *testing.T) {
	an := terms.New()
	sources := []Source{
		cur("1", "man-z20", "Z20 Smart Toaster", "The Z20 smart toaster browns two slices in about two minutes."),
		cur("2", "man-z20-app", "Pairing the Z20 with the Crumbly Home app", "To pair the Z20 with the Crumbly Home app, hold the browning dial down for 5 seconds."),
		cur("3", "pol-registration", "Registering your appliance", "You do not need to register to claim under the warranty."),
	}
	g := NewExtractiveV19(an)
	mentions := g.mentions(sources)
	words, names := g.nameWords(Request{Question: "can I still claim on my toaster", Sources: sources}, nil, mentions)
	if !words[1][an.Terms("toaster")[0]] || len(words[2]) != 0 {
		t.Fatalf("name words = %v, want toaster for the app page, nothing for the policy", words)
	}
	if !sameProduct(names, mentions, 1, 0) {
		t.Error("the app page and the toaster's manual: not one product's pages")
	}
	if sameProduct(names, mentions, 1, 2) || sameProduct(names, mentions, 2, 0) {
		t.Error("the registration policy and a Z20 page: one product's pages")
	}
	if w, _ := NewExtractiveV18(an).nameWords(Request{Sources: sources}, nil, mentions); w != nil {
		t.Errorf("v18 reads names: %v", w)
	}
	if w, _ := g.nameWords(Request{Sources: sources}, []assess.Entity{{Terms: []string{"z20"}, Code: true}}, mentions); w != nil {
		t.Errorf("a question naming an entity reads names: %v", w)
	}
}
