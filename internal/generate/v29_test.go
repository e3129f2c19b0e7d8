package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV29CitesAcceptedPage: development questions (round 26, g26-gen)
// with the pages their loop run gave the generator (rank order, the
// accepted one named, relevant per the development set). v28 answers
// from another page and misses the key fact; v29 cites the accepted page
// and holds it.
//
//   - a yes/no question's tie (fresh9 r45, fresh11 u46): the accepted
//     page's opening sentence holds every word of the question the
//     opening of the page ranked above does, and its title holds a word
//     of the question the other title does not ("water", "2024"), so it
//     opens rather than the page the rank discount favours;
//   - a product's name is no word a page adds (fresh17 a34): "K50 Smart
//     Kettle" holds "kettle" of "does the K50 kettle work with a phone
//     app", which the accepted page "Pairing the K50 with the Hollin Home
//     app" does not, but with the code "K50" it only says which product.
func TestV29CitesAcceptedPage(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		fact string
	}{
		{v25case{"Our tap water leaves white crusty stuff everywhere. Should I be treating my kettle any differently?",
			[]string{"man-k50-kettle", "faq-hard-water", "man-k50-app", "man-x200-cleaning", "ntc-repair-centre-move"}, "faq-hard-water"},
			"more often"},
		{v25case{"Under the 2024 terms, were blender motors covered for longer than the rest of the appliance?",
			[]string{"pol-warranty-2026", "man-x200-specs", "man-x300-specs", "pol-warranty-2024", "faq-abroad"}, "pol-warranty-2024"},
			"2 years"},
		{v25case{"does the K50 kettle work with a phone app",
			[]string{"man-k50-app", "man-k50-kettle", "faq-hard-water", "ntc-repair-centre-move", "faq-warranty-claim"}, "man-k50-app"},
			"Hollin Home"},
	} {
		req := c.request(t)
		if text, docs := answerOf(t, NewExtractiveV28(an), req); slices.Contains(docs, c.accepted) {
			t.Errorf("%q: v28 answers %q citing %v, the accepted %s among them (the case no longer tests v29)", c.q, text, docs, c.accepted)
		}
		text, docs := answerOf(t, NewExtractiveV29(an), req)
		if !slices.Contains(docs, c.accepted) || !strings.Contains(text, c.fact) {
			t.Errorf("%q: v29 answers %q citing %v, want %q citing %s", c.q, text, docs, c.fact, c.accepted)
		}
	}
}

// TestV29Keeps: where a looser tie reading lost the page that answers on
// the development sets, v29 answers as v28 does.
//
//   - fresh10 t07 (a place question: not a yes/no one, whose typed
//     sentence decides; the accepted "Tracking a repair" ties on
//     "repair" and its title names it);
//   - fresh6 m54 (a question asking two things: the page ranked above
//     answers the other part);
//   - fresh19 c80 (the accepted "VAT invoices for spare parts" ties on
//     "spare parts" but its title names no other word of the question).
func TestV29Keeps(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		v25case
		fact string
	}{
		{v25case{"Where do I go online to book in a repair under guarantee?",
			[]string{"pol-repairs", "faq-repair-tracking", "ntc-repair-centre-move", "faq-warranty-claim", "man-x200-specs"}, "faq-repair-tracking"},
			"hollin.example/repair"},
		{v25case{"did the old 2024 warranty pay out for a cracked jug? does the current one?",
			[]string{"pol-warranty-2026", "pol-repairs", "faq-abroad", "man-k50-kettle", "pol-warranty-2024"}, "pol-warranty-2024"},
			"does not cover"},
		{v25case{"If my spare parts basket comes to £35, do I still have to pay for postage?",
			[]string{"pol-spare-parts", "faq-vat-invoice", "man-x200-blades", "man-x200-specs", "man-x300-specs"}, "faq-vat-invoice"},
			"over £30"},
	} {
		req := c.request(t)
		for _, g := range []*Extractive{NewExtractiveV28(an), NewExtractiveV29(an)} {
			if text, _ := answerOf(t, g, req); !strings.Contains(text, c.fact) {
				t.Errorf("%q: v%d answers %q, want %q", c.q, g.Version, text, c.fact)
			}
		}
	}
}
