package generate

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
)

// onlyV17Says checks that v17's answer to q over sources says fact and
// v16's does not.
func onlyV17Says(t *testing.T, an *terms.Analyzer, q, fact string, sources ...Source) {
	t.Helper()
	req := Request{Question: q, Sources: sources}
	if text, _ := answerOf(t, NewExtractiveV17(an), req); !strings.Contains(text, fact) {
		t.Errorf("v17 %q: %q; want %q", q, text, fact)
	}
	if text, _ := answerOf(t, NewExtractiveV16(an), req); strings.Contains(text, fact) {
		t.Errorf("v16 %q: %q says %q already: the test shows nothing", q, text, fact)
	}
}

// TestEchoBringsNextSentence: a case whose chosen sentence restates the
// question ("The Z20 would not toast ...") is answered by what follows it
// (rule 6); v16 quoted the restatement alone. A sentence repeating the
// question's words beside a value or a decision the question lacks
// ("... is free ...") answers it and brings nothing.
func TestEchoBringsNextSentence(t *testing.T) {
	an := terms.New()
	ticket := cur("1", "tkt-1", "Case 77: Z20 toasting fault",
		"Case 77. The Z20 would not toast bread on the lowest browning setting. Replacing the thermostat, part TH-20, fixed it the same day.")
	other := cur("2", "z20-manual", "Z20 toaster", "The Z20 toaster has six browning settings and a crumb tray.")
	onlyV17Says(t, an, "Customer says her Z20 won't toast bread on the lowest browning setting. Have we seen this before?", "TH-20", ticket, other)
	// The value the question states ("3 years") restated is no answer:
	// the note after it is.
	cover := cur("1", "tkt-2", "Case 78: cover question",
		"Case 78. Agent told the customer the Z20 element is covered for 3 years. Note from the team lead: the current cover is 4 years.")
	onlyV17Says(t, an, "A caller says an agent told them the Z20 element is covered for three years. Was that right?", "4 years", cover, other)
	// Not a restatement: the value "free" is the sentence's own.
	policy := cur("1", "pol-repairs", "Repairs",
		"Collection by courier is free for toasters under guarantee. Repairs take about ten working days.")
	q := "do I have to pay for the courier to collect my toaster under guarantee?"
	if got, _ := answerOf(t, NewExtractive(an), Request{Question: q, Sources: []Source{policy, other}}); strings.Contains(got, "ten working days") {
		t.Errorf("v17 %q: %q; the free collection answers it alone", q, got)
	}
}

// TestSiblingValue: a value said under a condition ("free on orders over
// £40") comes with the value its source gives the same thing otherwise
// (rule 7); v16 quoted the condition alone.
func TestSiblingValue(t *testing.T) {
	an := terms.New()
	parts := cur("1", "pol-parts", "Ordering spare parts",
		"Spare parts are sold at parts.example. Standard shipping takes 2 days and costs £4.50. Shipping is free on spare parts orders over £40.")
	other := cur("2", "faq-invoice", "Invoices", "Business customers can ask for an invoice for spare parts orders.")
	onlyV17Says(t, an, "how much is postage on a spare parts order?", "£4.50", parts, other)
}

// TestExtractiveV17Hollin: on the Hollin corpus, the pairing case (fresh4
// h13) gets the fix that followed, and the postage question (fresh4 h30)
// the standard delivery price; v16 quoted the restatement and the free
// threshold. Both cite the one document, as v16 did.
func TestExtractiveV17Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	f.againstPrevious(t, NewExtractiveV17(an), NewExtractiveV16(an), []previousCase{
		{"h13", "Customer on the line: her K50 won't pair with her older Android phone. Have we fixed this one before?", []string{"staff"}, "tkt-30455",
			[]string{"tkt-30455"}, "15 seconds", []string{"tkt-30455"}},
		{"h30", "whats the postage on a spare parts order", []string{"public"}, "pol-spare-parts",
			[]string{"pol-spare-parts"}, "£3.95", []string{"pol-spare-parts"}},
	})
	for _, c := range []struct{ q, fact string }{
		{"Customer on the line: her K50 won't pair with her older Android phone. Have we fixed this one before?", "15 seconds"},
		{"whats the postage on a spare parts order", "£3.95"},
	} {
		req := f.requestAs(t, hollinQuestion{ID: "v16", Question: c.q}, []string{"staff"}, 5)
		if _, ans := citedDocs(t, NewExtractiveV16(an), req); strings.Contains(ans.Text, c.fact) {
			t.Errorf("v16 %q: %q already says %q", c.q, ans.Text, c.fact)
		}
	}
}

// TestTitledListing: the accepted page titled with what is asked, whose
// sentences repeat no question word ("Z20 error codes": "F3 means ...",
// "F5 means ..."), is the answer, its sentences in order (rule 2c); v16
// opened from a page sharing one word with the question.
func TestTitledListing(t *testing.T) {
	an := terms.New()
	codes := cur("1", "z20-errors", "Z20 error codes",
		"F3 means the crumb tray is open: push the tray in until it clicks. F5 means the element has failed: contact support.")
	other := cur("2", "faq-receipt", "Proof of purchase", "A receipt that shows the shop and the date is enough.")
	q := "which error codes can a Z20 show, and what does each mean?"
	req := Request{Question: q, Sources: []Source{codes, other}, Accepted: []string{codes.ID}}
	docs, ans := citedDocs(t, NewExtractive(an), req)
	if !slices.Equal(docs, []string{"z20-errors"}) || !strings.Contains(ans.Text, "F3") || !strings.Contains(ans.Text, "F5") {
		t.Errorf("v17 %q: %q cites %v; want both codes from the error page", q, ans.Text, docs)
	}
	if docs, ans := citedDocs(t, NewExtractiveV16(an), req); slices.Contains(docs, "z20-errors") {
		t.Errorf("v16 %q: %q cites %v; v16 opened elsewhere", q, ans.Text, docs)
	}
	// Not accepted: the scores decide, as before.
	req.Accepted = nil
	if docs, _ := citedDocs(t, NewExtractive(an), req); slices.Contains(docs, "z20-errors") {
		t.Errorf("v17 %q without an accepted chunk cites %v; rule 2c reads the assessor's acceptance only", q, docs)
	}
}

// TestSiblingValueBounded: rule 7 brings one sibling value per chosen
// sentence, the first its source gives, not every value of a list: a
// tariff of five shipping prices answers a postage question with the
// condition and the standard price, not the whole tariff (seven
// sentences, past MaxSentences).
func TestSiblingValueBounded(t *testing.T) {
	an := terms.New()
	parts := cur("1", "pol-parts", "Ordering spare parts",
		"Spare parts are sold at parts.example. Standard shipping takes 2 days and costs £4.50. Express shipping costs £7.50. Weekend shipping costs £9.00. Shipping to the islands costs £12.00. International shipping costs £20.00. Shipping is free on spare parts orders over £40.")
	other := cur("2", "faq-invoice", "Invoices", "Business customers can ask for an invoice for spare parts orders.")
	q := "how much is postage on a spare parts order?"
	text, _ := answerOf(t, NewExtractiveV17(an), Request{Question: q, Sources: []Source{parts, other}})
	if !strings.Contains(text, "£4.50") || !strings.Contains(text, "£40") {
		t.Errorf("v17 %q: %q; want the free threshold and the standard price", q, text)
	}
	for _, more := range []string{"£7.50", "£9.00", "£12.00", "£20.00"} {
		if strings.Contains(text, more) {
			t.Errorf("v17 %q: %q; want one sibling value, not %s as well", q, text, more)
		}
	}
}

// TestDuplicateDocuments: over two identical documents the answer is the
// one over the first copy, whichever copy the assessor accepted, and
// quotes no sentence twice. The candidate sentences keep a repeated
// sentence's first copy only; rule 2c read the accepted copy's sentences
// straight from its source, so a case note whose restating sentence holds
// the question's words (rule 2c does not apply on the original) was quoted
// whole from the copy ("Case 77." and all), cited to the copy. Over fully
// identical documents rule 6 reads only the first copy (every candidate
// is the first copy's); it reaches a repeated sentence when documents
// share some sentences, the last case.
func TestDuplicateDocuments(t *testing.T) {
	an := terms.New()
	note := "Case 77. The Z20 would not toast bread on the lowest browning setting. Replacing the thermostat, part TH-20, fixed it the same day."
	codes := "F3 means the crumb tray is open: push the tray in until it clicks. F5 means the element has failed: contact support."
	other := cur("3", "z20-manual", "Z20 toaster", "The Z20 toaster has six browning settings and a crumb tray.")
	for _, c := range []struct {
		q, title, text string
	}{
		// rule 6 on the original: the restatement brings the fix
		{"Customer says her Z20 won't toast bread on the lowest browning setting. Have we seen this before?", "Case 77: Z20 toasting fault", note},
		// rule 2c on either copy
		{"which error codes can a Z20 show, and what does each mean?", "Z20 error codes", codes},
	} {
		first := cur("1", "doc", c.title, c.text)
		copied := cur("2", "doc-copy", c.title, c.text)
		want, wantDocs := answerOf(t, NewExtractive(an), Request{Question: c.q, Sources: []Source{first, other}, Accepted: []string{first.ID}})
		for _, acc := range []string{first.ID, copied.ID} {
			got, docs := answerOf(t, NewExtractive(an), Request{Question: c.q, Sources: []Source{first, copied, other}, Accepted: []string{acc}})
			if got != want || !slices.Equal(docs, wantDocs) {
				t.Errorf("%q, %s accepted: %q cites %v; want the first copy's answer %q citing %v", c.q, acc, got, docs, want, wantDocs)
			}
			quotesOnce(t, c.q, got)
		}
	}
	// Rule 6 reads the sentence after a restatement in the restating
	// sentence's source. Two documents sharing the fix's sentence, the
	// note ranked first: its restatement and fix open the answer, the
	// case's restatement follows, and its next sentence is the fix again,
	// quoted twice and cited to both documents before this change.
	fix := "Replacing the thermostat, part TH-20, fixed it the same day."
	kb := cur("1", "kb-1", "Z20 toasting fault", "Known fault: the Z20 would not toast bread on the lowest browning setting. "+fix)
	ticket := cur("2", "tkt-1", "Case 77", "Case 77. The Z20 would not toast bread on the lowest browning setting. "+fix)
	q := "Customer says her Z20 won't toast bread on the lowest browning setting. Have we seen this before?"
	got, _ := answerOf(t, NewExtractive(an), Request{Question: q, Sources: []Source{kb, ticket}})
	if !strings.Contains(got, "TH-20") {
		t.Errorf("%q: %q; want the fix", q, got)
	}
	quotesOnce(t, q, got)
}

// quotesOnce checks that answer quotes no sentence twice.
func quotesOnce(t *testing.T, q, answer string) {
	t.Helper()
	seen := map[string]bool{}
	for _, s := range citation.Sentences(reMarker.ReplaceAllString(answer, "")) {
		if seen[s] {
			t.Errorf("%q: %q quotes %q twice", q, answer, s)
		}
		seen[s] = true
	}
}

// reMarker is an answer sentence's source marker (" [2]").
var reMarker = regexp.MustCompile(` \[[^\]]+\]`)
