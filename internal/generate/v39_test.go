package generate

import (
	"strings"
	"testing"

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
