package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestLackCeilings: a Lack's ceilings credit the words the first chunk
// lacks by kind. A chunk that lacks only a word other visible chunks use
// (known) fits with the known words credited, not with the unknown ones;
// one that lacks only a word no visible chunk uses fits with the unknown
// ones credited, not with the known ones; either fits with every word
// credited; VerbFit credits no noun; a chunk that fits, fits in each.
func TestLackCeilings(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "faq#0", Title: "Proof of purchase", Text: "A receipt shows the date of purchase."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "Order slip for a repair", "Keep the invoice safe", "K50 kettle")
	lack := func(q string) Lack {
		t.Helper()
		b := NewBuiltin(an, lex)
		_, ls, err := b.Lacks(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(ls) == 0 {
			t.Fatalf("%q: no Lack", q)
		}
		return ls[len(ls)-1]
	}
	for _, c := range []struct {
		q                                  string
		fit, known, unknown, any, verbFits bool
	}{
		{"which slip and invoice show the purchase date", false, true, false, true, false},
		{"which voucher coupon token or stub shows the date", false, false, true, true, false},
		{"which receipt shows the purchase date", true, true, true, true, true},
	} {
		l := lack(c.q)
		if l.Fit != c.fit || l.KnownFit != c.known || l.UnknownFit != c.unknown || l.AnyFit != c.any || l.VerbFit != c.verbFits {
			t.Errorf("%q: fit %v known %v unknown %v any %v verb %v, want %v %v %v %v %v (%+v)", c.q, l.Fit, l.KnownFit, l.UnknownFit, l.AnyFit, l.VerbFit,
				c.fit, c.known, c.unknown, c.any, c.verbFits, l.Terms)
		}
	}
}
