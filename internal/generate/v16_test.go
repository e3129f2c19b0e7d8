package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// jointRequest: a question asking the same of two toasters, with each
// toaster's error page and a range page naming both.
func jointRequest(q string) Request {
	return Request{Question: q, Sources: []Source{
		{Label: "1", Chunk: corpus.Chunk{ID: "a#0", DocID: "z20-errors", Title: "Z20 error codes", Status: corpus.Current,
			Text: "F3 means the crumb tray is open: push the tray in until it clicks. F5 means the element has failed: contact support."}},
		{Label: "2", Chunk: corpus.Chunk{ID: "b#0", DocID: "z10-errors", Title: "Z10 error codes", Status: corpus.Current,
			Text: "F3 means the lever is stuck: unplug the toaster and let it cool. F8 means a sensor fault: contact support."}},
		{Label: "3", Chunk: corpus.Chunk{ID: "c#0", DocID: "range", Title: "Toaster range", Status: corpus.Current,
			Text: "The Z10 and Z20 toasters are covered for 2 years. Both come in four colours."}},
	}}
}

func TestJointQuestionEachPage(t *testing.T) {
	an := terms.New()
	for _, q := range []string{
		"does F3 mean the same thing on the Z10 as it does on the Z20?",
		"my Z20 is showing F3 — is that the same fix as F3 on the older Z10?",
	} {
		req := jointRequest(q)
		g := NewExtractive(an)
		var rules []string
		g.explain = func(_ int, text, rule string) { rules = append(rules, rule+": "+text) }
		docs, ans := citedDocs(t, g, req)
		slices.Sort(docs)
		if !slices.Equal(docs, []string{"z10-errors", "z20-errors"}) {
			t.Errorf("v16 %q: %q cites %v; want both error pages (%v)", q, ans.Text, docs, strings.Join(rules, " | "))
		}
		docs, ans = citedDocs(t, NewExtractiveV15(an), req)
		if len(docs) != 1 {
			t.Errorf("v15 %q: %q cites %v; want one page (v15 answers from one)", q, ans.Text, docs)
		}
	}
}

// TestExtractiveV16Hollin: on the Hollin corpus, the joint E4 question
// (fresh3 g31) is answered from both error pages with the X200's fact
// ("not locked"); v15 answered from the X300 Pro's page alone.
func TestExtractiveV16Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	f.againstPrevious(t, NewExtractiveV16(an), NewExtractiveV15(an), []previousCase{
		{"g31", "does E4 mean the same thing on the X200 as it does on the X300 Pro?", []string{"public"}, "man-x300-errors",
			[]string{"man-x300-errors", "man-x200-errors"}, "not locked", []string{"man-x300-errors"}},
	})
}
