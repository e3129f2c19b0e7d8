package generate

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestDenialNoContentOlderIDs: a yes/no question with no content word
// ("Is it?") gets no denial from v21 to v29, as before v30 (round 27's
// review: v30's reading of the denial leaked into the older ids when the
// question's content was empty); v30 keeps its merged answer.
func TestDenialNoContentOlderIDs(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "pol-warranty-2026", "man-x200-blades", "faq-abroad", "man-x300-specs", "pol-registration")
	for _, q := range []string{"Is it?", "Can I do it?"} {
		req := Request{Question: q, Sources: pages, Accepted: []string{pages[0].ID}}
		for _, g := range []*Extractive{NewExtractiveV21(an), NewExtractiveV28(an), NewExtractiveV29(an)} {
			if text, _ := answerOf(t, g, req); strings.Contains(text, "does not cover") {
				t.Errorf("%s answers %q with %q: a denial with no content word", g.Model(), q, text)
			}
		}
		// v30 reads such a question as its answer holding no word of the
		// clause that asks (rule 12), as it was merged: unchanged.
		if text, _ := answerOf(t, NewExtractiveV30(an), req); !strings.Contains(text, "does not cover") {
			t.Errorf("v30 answers %q with %q: want the denial, as merged", q, text)
		}
	}
}
