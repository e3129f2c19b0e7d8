package generate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV39: asked how many statuses a repair goes through, v39 opens with
// the accepted tracking page's enumeration ("Booked, In workshop,
// Repaired, then Dispatched"), not with the turnaround page ranked above
// it, whose "10 working days" and "£25 inspection fee" count no statuses;
// v38 opens with the turnaround page. A count the turnaround page does
// hold ("how many working days") opens as v38 does.
func TestV39(t *testing.T) {
	an := terms.New()
	rep := titled("1", "pol-repairs", "Repairs and turnaround", "We aim to repair and return an appliance within 10 working days of receiving it. Out-of-warranty repairs carry a £25 inspection fee.")
	track := titled("2", "faq-repair-tracking", "Tracking a repair", "We email a tracking link when the courier collects your appliance. A repair shows as Booked, In workshop, Repaired, then Dispatched.")
	open := func(g *Extractive, q string) string {
		t.Helper()
		return openingOf(t, g, Request{Question: q, Sources: []Source{rep, track}, Accepted: []string{track.ID}})
	}
	q := "How many different statuses will my repair go through?"
	if o := open(NewExtractiveV38(an), q); strings.Contains(o, "Dispatched") {
		t.Fatalf("v38 opens with %q: the test no longer shows the fault", o)
	}
	if o := open(NewExtractiveV39(an), q); !strings.Contains(o, "Booked, In workshop, Repaired, then Dispatched") {
		t.Errorf("v39 opens with %q, want the tracking page's enumeration", o)
	}
	days := "How many working days will my repair take?"
	if a, b := open(NewExtractiveV38(an), days), open(NewExtractiveV39(an), days); a != b {
		t.Errorf("a period: v38 opens with %q, v39 with %q", a, b)
	}
	if NewExtractiveV39(an).Model() != ExtractiveV39Model || ExtractiveV39Model != "builtin:extractive-v39" {
		t.Errorf("model %q, want builtin:extractive-v39", NewExtractiveV39(an).Model())
	}
}

// TestV39OddInput (rv46b): v39 answers odd count questions — empty,
// punctuation, numbers, currency and dates in odd places, unicode, very
// long — over pages of days, sums, dates, enumerations and bare commas,
// the second accepted or none, without a panic, twice alike, citing only
// the pages given, in bounded time.
func TestV39OddInput(t *testing.T) {
	an := terms.New()
	g := NewExtractive(an)
	pages := [][2]Source{
		{titled("1", "a", "Repairs and turnaround", "We aim to repair it within 10 working days. Out-of-warranty repairs carry a £25 inspection fee."),
			titled("2", "b", "Tracking a repair", "A repair shows as Booked, In workshop, Repaired, then Dispatched.")},
		{titled("1", "a", "£", "£1, £2, £3. 1 and 2, 3 days, 16 October."), titled("2", "b", ", , ,", ", , , , ")},
		{titled("1", "a", "", ""), titled("2", "b", "日本語", "一、二、三, 四, 五, 六。")},
		{titled("1", "a", "Codes", "E4 means one. E7 means two. E9 means three."), titled("2", "b", "Move", "Between 1 and 16 June, 2, 3, 4 extra working days.")},
	}
	long := strings.Repeat("How many statuses, codes, £25 fees and 10 working days, between 1 and 16 June? ", 300)
	longPages := [2]Source{titled("1", "a", "Long", strings.Repeat("Booked, In workshop, Repaired, then Dispatched. £25 for 10 working days. ", 300)),
		titled("2", "b", "Longer", strings.Repeat("A, B, C, D, E. 1 and 2. ", 500))}
	start := time.Now()
	for _, q := range []string{"", "?", "how many", "how many?", "how many , , , ?", "how many £25?", "how many 10 working days?",
		"how many 16 October", "How many different statuses will my repair go through?", "¿Cuántos? 日本語 how many Stücke?", long} {
		for _, ps := range append(pages, longPages) {
			for _, acc := range [][]string{nil, {ps[1].ID}} {
				req := Request{Question: q, Sources: ps[:], Accepted: acc}
				a, err := g.Generate(context.Background(), req)
				if err != nil {
					continue
				}
				z, _ := g.Generate(context.Background(), req)
				if a.Text != z.Text {
					t.Errorf("%.40q: answered %q then %q", q, a.Text, z.Text)
				}
				for _, c := range a.Citations {
					if c.Label != "1" && c.Label != "2" {
						t.Errorf("%.40q: cites %q, not a page given", q, c.Label)
					}
				}
			}
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("odd count questions took %v", d)
	}
}
