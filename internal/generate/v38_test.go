package generate

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV38: v38 opens its answer to a question stating a condition of its
// situation ("clicks off before the water has actually boiled") with the
// accepted page's sentence stating it ("may switch off before boiling"),
// not from the product's manual ranked above it that shares more of the
// question's words ("boils", "water"); v37 opens from the manual. A
// question stating no condition opens as v37 does.
func TestV38(t *testing.T) {
	an := terms.New()
	man := titled("1", "man-k50-kettle", "K50 Smart Kettle", "The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. Descale it once a month with citric acid.")
	sb := titled("2", "sb-114", "SB-114: K50 firmware 2.3", "K50 kettles on firmware 2.1 may switch off before boiling. Update them to firmware 2.3 through the Hollin Home app.")
	open := func(g *Extractive, q string) string {
		t.Helper()
		return openingOf(t, g, Request{Question: q, Sources: []Source{man, sb}, Accepted: []string{sb.ID}})
	}
	q := "customer on the phone says her K50 clicks off before the water has actually boiled. what do I tell her?"
	if o := open(NewExtractiveV37(an), q); strings.Contains(o, "before boiling") {
		t.Fatalf("v37 opens with %q: the test no longer shows the fault", o)
	}
	if o := open(NewExtractiveV38(an), q); !strings.Contains(o, "before boiling") {
		t.Errorf("v38 opens with %q, want the bulletin's \"switch off before boiling\"", o)
	}
	plain := "customer on the phone says her K50 keeps water warm. what do I tell her?"
	if a, b := open(NewExtractiveV37(an), plain), open(NewExtractiveV38(an), plain); a != b {
		t.Errorf("no condition: v37 opens with %q, v38 with %q", a, b)
	}
	if NewExtractiveV38(an).Model() != ExtractiveV38Model || ExtractiveV38Model != "builtin:extractive-v38" {
		t.Errorf("model %q, want builtin:extractive-v38", NewExtractiveV38(an).Model())
	}
}

// TestV38Guards (rv45b): v38 changes the opening only when the accepted
// source's opening states the question's condition and the other's does
// not: a condition neither states ("before the lid is shut") and one both
// state open as v37 does. TestV38 passed with either half taken out.
func TestV38Guards(t *testing.T) {
	an := terms.New()
	man := titled("1", "man-k50-kettle", "K50 Smart Kettle", "The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. Descale it once a month with citric acid.")
	both := titled("1", "man-k50-kettle", "K50 Smart Kettle", "The K50 smart kettle may switch off before boiling when limescale builds up and boils 1.7 litres in about four minutes. Descale it once a month with citric acid.")
	sb := titled("2", "sb-114", "SB-114: K50 firmware 2.3", "K50 kettles on firmware 2.1 may switch off before boiling. Update them to firmware 2.3 through the Hollin Home app.")
	open := func(g *Extractive, q string, first Source) string {
		t.Helper()
		return openingOf(t, g, Request{Question: q, Sources: []Source{first, sb}, Accepted: []string{sb.ID}})
	}
	for _, c := range []struct {
		q     string
		first Source
	}{
		{"customer on the phone says her K50 clicks off before the lid is shut. what do I tell her?", man},
		{"customer on the phone says her K50 clicks off before the water has actually boiled. what do I tell her?", both},
	} {
		v37, v38 := open(NewExtractiveV37(an), c.q, c.first), open(NewExtractiveV38(an), c.q, c.first)
		if v37 != v38 {
			t.Errorf("%q: v37 opens with %q, v38 with %q", c.q, v37, v38)
		}
		if strings.Contains(v37, "firmware") {
			t.Errorf("%q: v37 opens with the bulletin %q: the case no longer shows the guard", c.q, v37)
		}
	}
}
