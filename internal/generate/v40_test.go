package generate

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV40: asked what statuses a repair goes through on the tracker, the
// turnaround page ranked above the accepted tracking page shares one word
// of the question ("repair") with it; v39 opens with the turnaround page
// (the rank discount breaks the tie), v40 with the accepted page. Asked
// how long a repair takes, the turnaround page's sentence holds the
// period asked for and the accepted page's none: v40 opens as v39 does.
// Asked whether an X300 Pro can be taken abroad on a converter, with the
// error-code page (sharing only the verb "take") ranked first, v40 opens
// with the accepted abroad page, which names the converter (as v39 does on
// these two pages: the case guards the verbs-only branch against opening
// with the error codes, it does not show v39's fault, which took the
// recorded five pages of fresh5 k32).
func TestV40(t *testing.T) {
	an := terms.New()
	rep := titled("1", "pol-repairs", "Repairs and turnaround", "We aim to repair and return an appliance within 10 working days of receiving it. Out-of-warranty repairs carry a £25 inspection fee, which is deducted from the repair price if you go ahead.")
	track := titled("2", "faq-repair-tracking", "Tracking a repair", "We email a tracking link when the courier collects your appliance and again when it is on its way back. A repair shows as Booked, In workshop, Repaired, then Dispatched.")
	open := func(g *Extractive, q string, sources []Source, accepted Source) string {
		t.Helper()
		return openingOf(t, g, Request{Question: q, Sources: sources, Accepted: []string{accepted.ID}})
	}
	q := "what are the different statuses my repair goes through on the tracker"
	if o := open(NewExtractiveV39(an), q, []Source{rep, track}, track); strings.Contains(o, "Dispatched") {
		t.Fatalf("v39 opens with %q: the test no longer shows the fault", o)
	}
	if o := open(NewExtractive(an), q, []Source{rep, track}, track); !strings.Contains(o, "Dispatched") {
		t.Errorf("v40 opens with %q, want the accepted tracking page", o)
	}
	long := "how long will my repair take to come back?"
	if a, b := open(NewExtractiveV39(an), long, []Source{rep, track}, track), open(NewExtractive(an), long, []Source{rep, track}, track); a != b {
		t.Errorf("a period only the page above states: v39 opens with %q, v40 with %q", a, b)
	}
	codes := titled("1", "man-x300-errors", "X300 Pro error codes", "E4 means the vacuum lid seal is loose: take the seal out and press it back into its groove. E12 means the vacuum pump has failed: contact Hollin support.")
	abroad := titled("2", "faq-abroad", "Using Hollin appliances abroad", "Hollin appliances are built for UK 230 V mains. Using one with a voltage converter abroad is not covered by the warranty.")
	conv := "We're moving to the States for a year. Can I take my X300 Pro and run it off a converter?"
	if o := open(NewExtractive(an), conv, []Source{codes, abroad}, abroad); !strings.Contains(o, "converter") {
		t.Errorf("v40 opens with %q, want the accepted abroad page", o)
	}
	if NewExtractiveV40(an).Model() != ExtractiveV40Model || ExtractiveV40Model != "builtin:extractive-v40" {
		t.Errorf("model %q, want builtin:extractive-v40", NewExtractiveV40(an).Model())
	}
}
