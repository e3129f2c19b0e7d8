package assess

import (
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestCountsReaders (rv46b): countList needs a plural counted noun
// ("statuses", not "staff" nor a bare "how many"); codeList needs three
// distinct codes opening sentences ("E4 … E7 …" is two; "Press it. Then
// wait. Unplug it." opens with no code; a code opening two sentences
// counts once).
func TestCountsReaders(t *testing.T) {
	for q, want := range map[string]bool{
		"How many different statuses will my repair go through?": true,
		"How many staff will handle my repair?":                  false,
		"How many?":                                              false,
		"":                                                       false,
	} {
		if got := countList(q); got != want {
			t.Errorf("countList(%q) = %v, want %v", q, got, want)
		}
	}
	for text, want := range map[string]string{
		"F2 means the lid is open. F5 means the motor is hot. F8 means a sensor fault.": "F2, F5, F8",
		"E4 means x. E7 means y.":                           "",
		"E4 means x. E4 again means x. E7 means y.":         "",
		"Press it. Then wait. Unplug it.":                   "",
		"F2: lid. F5, motor. F8; sensor. F9. means nothing": "F2, F5, F8, F9",
		"": "",
	} {
		if got := codeList(text); got != want {
			t.Errorf("codeList(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestCountsSingular (rv46b): Counts' enumeration answers a count of a
// plural kind only: "how many status" (no plural) is not answered by the
// tracking page's list of statuses.
func TestCountsSingular(t *testing.T) {
	b := builtinOver(terms.New(), countsPages)
	q := "How many status does a repair show?"
	r := assessChecked(t, b, Request{Question: q, Query: q, Evidence: []Evidence{countsPages[1]}, Groups: []string{"public"}})
	if r.Assessment.Sufficient {
		t.Errorf("Assess(%q) accepted %v: %s", q, r.Accepted, r.Assessment.Reason)
	}
}
