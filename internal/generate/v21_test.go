package generate

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// hollinPages returns the Hollin corpus documents ids as current sources
// in that order, labelled [1], [2], ...: the pages a loop run gave the
// generator (each document is one chunk).
func hollinPages(t *testing.T, ids ...string) []Source {
	t.Helper()
	docs, err := corpus.LoadJSONL(filepath.Join(hollinDir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Source
	for i, id := range ids {
		at := slices.IndexFunc(docs, func(d corpus.Document) bool { return d.ID == id })
		if at < 0 {
			t.Fatalf("no Hollin document %s", id)
		}
		d := docs[at]
		out = append(out, Source{Label: wire.Label(i), Chunk: corpus.Chunk{ID: d.ID + "#0", DocID: d.ID, Title: d.Title, Status: d.Status, Text: d.Text}})
	}
	return out
}

// TestDenialDecidesYesNo: a yes/no question answered only by statements
// saying yes gets its cited page's statement saying no when that one
// holds a word of the question the answer lacks (v21, rule 12); v20
// answered with the warranty's cover alone (the pages a loop run gave
// fresh12 v02, the question reworded). A denial holding only words the
// answer already holds is not added.
func TestDenialDecidesYesNo(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "pol-warranty-2026", "man-x200-blades", "faq-abroad", "man-x300-specs", "pol-registration")
	req := Request{Question: "The blades on my X300 Pro have gone blunt after a couple of years of heavy use. Can I claim new ones under the warranty?",
		Sources: pages, Accepted: []string{pages[0].ID}}
	text, docs := answerOf(t, NewExtractiveV21(an), req)
	if !strings.Contains(text, "does not cover blade wear") || !slices.Equal(docs, []string{"pol-warranty-2026"}) {
		t.Errorf("v21 cites %v: %q; want the warranty page's denial, citing it alone", docs, text)
	}
	if text, _ := answerOf(t, NewExtractiveV20(an), req); strings.Contains(text, "does not cover") {
		t.Errorf("v20 answers %q with the denial (the case no longer tests v21)", text)
	}

	req = Request{Question: "Does every Hollin appliance come with a warranty?", Sources: pages, Accepted: []string{pages[0].ID}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); strings.Contains(text, "does not cover") {
		t.Errorf("v21 answers %q: the denial says nothing of a word the answer lacks", text)
	}
}

// TestSidesInOneUnit: a comparison's other page is cited as an equally
// complete answer only when it gives a value in a unit the opening
// sentence gives one in (v21); v20 cited the warranty's "5 years" beside
// the blenders' watts (the pages a loop run gave fresh13 w62, the
// question reworded).
func TestSidesInOneUnit(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "man-x200-specs", "pol-warranty-2026", "man-x300-specs", "man-k50-kettle", "man-x200-errors")
	req := Request{Question: "Which of the two blenders you make has the stronger motor?", Sources: pages, Accepted: []string{pages[0].ID}}
	if _, docs := answerOf(t, NewExtractiveV20(an), req); !slices.Contains(docs, "pol-warranty-2026") {
		t.Errorf("v20 cites %v without the warranty (the case no longer tests v21)", docs)
	}
	text, docs := answerOf(t, NewExtractiveV21(an), req)
	if slices.Contains(docs, "pol-warranty-2026") || !contains(text, "1,200 W", "1,500 W") {
		t.Errorf("v21 cites %v: %q; want both blenders' watts and not the warranty", docs, text)
	}
}

// TestComparisonDecidedByAskedValue: a speed comparative is decided by
// each side's speed, not any number (v21, rule 2a; the pages a loop run
// gave fresh17 a11); and a comparison asking money by amounts in digits,
// not the recall's "free" (fresh17 a48's pages). Both questions reworded.
func TestComparisonDecidedByAskedValue(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "man-x300-specs", "pol-warranty-2026", "man-x200-specs", "man-x300-errors", "faq-abroad")
	req := Request{Question: "Which blender spins quicker on its top speed, the X200 or the X300 Pro, and by how much?", Sources: pages, Accepted: []string{pages[2].ID}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); !contains(text, "22,000 RPM", "30,000 RPM") {
		t.Errorf("v21 answers %q; want both top speeds", text)
	}
	if text, _ := answerOf(t, NewExtractiveV20(an), req); contains(text, "22,000 RPM", "30,000 RPM") {
		t.Errorf("v20 answers %q with both speeds (the case no longer tests v21)", text)
	}

	pages = hollinPages(t, "int-parts-cost", "man-x200-blades", "ntc-x200-recall", "man-x200-cleaning", "faq-abroad")
	req = Request{Question: "Between the X200 blade assembly and the X200 jar, which one costs us more?", Sources: pages, Accepted: []string{pages[0].ID}}
	if _, docs := answerOf(t, NewExtractiveV20(an), req); !slices.Contains(docs, "ntc-x200-recall") {
		t.Errorf("v20 cites %v without the recall (the case no longer tests v21)", docs)
	}
	if text, docs := answerOf(t, NewExtractiveV21(an), req); !slices.Equal(docs, []string{"int-parts-cost"}) || !contains(text, "£6.10", "£3.40") {
		t.Errorf("v21 cites %v: %q; want the cost prices alone", docs, text)
	}
}

// TestUnboundReadsMore: rule 1b (v21) refuses a dimension named anywhere
// in the noun phrase asked about, "weigh" against no mass, and a rate
// per a unit of time against no amount per that unit; v20 answered each
// with what the page says of something else. A rate per hour given, or
// a price per any other unit, is still answered.
func TestUnboundReadsMore(t *testing.T) {
	an := terms.New()
	kettle := cur("1", "man-k9", "K9 kettle", "The K9 kettle boils 1.5 litres in about three minutes and can keep water warm for up to an hour. Descale it once a month.")
	repairs := cur("2", "pol-repairs", "Repairs and turnaround", "Collection by courier is free for toasters under guarantee. Out-of-guarantee repairs carry a £20 inspection fee.")
	mixer := cur("3", "man-m30", "M30 Pro mixer specifications", "The M30 Pro stand mixer has a 700 W motor, a 5-litre bowl and eight speeds.")
	for _, req := range []Request{
		{Question: "What's the highest temperature I can set the K9 kettle to keep water at?", Sources: []Source{kettle, repairs}, Accepted: []string{kettle.ID}},
		{Question: "How much does the M30 Pro weigh?", Sources: []Source{mixer, kettle}, Accepted: []string{mixer.ID}},
		{Question: "What hourly rate does Crumbly pay its repair partners for guarantee work?", Sources: []Source{repairs, kettle}, Accepted: []string{repairs.ID}},
	} {
		if text, _ := answerOf(t, NewExtractiveV21(an), req); text != prompt.NotFoundReply {
			t.Errorf("v21 answers %q to %q; want %s", text, req.Question, prompt.NotFoundReply)
		}
		if text, _ := answerOf(t, NewExtractiveV20(an), req); text == prompt.NotFoundReply {
			t.Errorf("v20 refuses %q too (the case no longer tests v21)", req.Question)
		}
	}
	partner := cur("1", "ptn-ovenaid", "Oven Aid: partner agreement", "Crumbly pays Oven Aid £30 per hour of guarantee labour and £12 per call-out.")
	costs := cur("2", "int-costs", "Parts cost prices (internal)", "Internal cost prices: Z20 crumb tray £2.10, ELM-Z20 element assembly £5.40.")
	for _, c := range []struct {
		req  Request
		fact string
	}{
		{Request{Question: "What hourly rate does Crumbly pay Oven Aid for guarantee work?", Sources: []Source{partner, repairs}, Accepted: []string{partner.ID}}, "£30 per hour"},
		{Request{Question: "What do we pay per unit for the ELM-Z20 element assembly?", Sources: []Source{costs, repairs}, Accepted: []string{costs.ID}}, "£5.40"},
	} {
		if text, _ := answerOf(t, NewExtractiveV21(an), c.req); !strings.Contains(text, c.fact) {
			t.Errorf("v21 answers %q to %q; want %q", text, c.req.Question, c.fact)
		}
	}
}

// TestAskersThingAddsNothing: a word the asker names as their own ("my
// blender") does not make another page add to the answer (v21); v20
// cited the X200's specifications beside the registration page for it
// (the pages a loop run gave fresh10 t55, the question reworded).
func TestAskersThingAddsNothing(t *testing.T) {
	an := terms.New()
	pages := hollinPages(t, "pol-registration", "man-x200-specs", "man-x300-specs", "pol-warranty-2026", "man-x200-errors")
	req := Request{Question: "why do you want me to register my blender, what is it for?", Sources: pages, Accepted: []string{pages[0].ID}}
	if _, docs := answerOf(t, NewExtractiveV20(an), req); !slices.Contains(docs, "man-x200-specs") {
		t.Errorf("v20 cites %v without the X200 specifications (the case no longer tests v21)", docs)
	}
	if text, docs := answerOf(t, NewExtractiveV21(an), req); !slices.Equal(docs, []string{"pol-registration"}) || !strings.Contains(text, "safety notices") {
		t.Errorf("v21 cites %v: %q; want the registration page alone", docs, text)
	}
}

// TestPersonNameAskedFor: a question asking a person's name is answered
// NOT_FOUND when no sentence on the question of a page naming the case it
// names gives a full name (v21, rule 1c); v20 answered with the case's
// symptom. Another case's customer does not answer it; the case's own
// does.
func TestPersonNameAskedFor(t *testing.T) {
	an := terms.New()
	named := cur("1", "tkt-51001", "Case 51001: Z20 burnt toast", "Case 51001. Customer Priya Nair reports her Z20 burnt the toast on setting 2. Agent advised emptying the crumb tray; the toaster worked afterwards.")
	unnamed := cur("2", "tkt-51002", "Case 51002: Z30 will not pair", "Case 51002. The Z30 would not pair with an older iPhone. Holding the lever down for 10 seconds reset it, and pairing then worked.")
	req := Request{Question: "What was the customer's name on case 51002?", Sources: []Source{unnamed, named}, Accepted: []string{unnamed.ID}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); text != prompt.NotFoundReply {
		t.Errorf("v21 answers %q; want %s", text, prompt.NotFoundReply)
	}
	if text, _ := answerOf(t, NewExtractiveV20(an), req); text == prompt.NotFoundReply {
		t.Errorf("v20 refuses too (the case no longer tests v21)")
	}
	req = Request{Question: "What was the customer's name on case 51001?", Sources: []Source{named, unnamed}, Accepted: []string{named.ID}}
	if text, _ := answerOf(t, NewExtractiveV21(an), req); !strings.Contains(text, "Priya Nair") {
		t.Errorf("v21 answers %q; want the customer's name", text)
	}
}

// TestPersonNameShapes: rule 1c (v21) takes a full name in any of the
// shapes people's names have, not only two words of one capital each: a
// case naming its customer "Seán O'Neill", "Ellie McDonald", "Mary-Jane
// Smith" or "Anna DeVries" is answered with it, not NOT_FOUND. A word in
// capitals alone ("VAT") or holding a digit ("Z20") is still no name.
func TestPersonNameShapes(t *testing.T) {
	an := terms.New()
	q := "What was the customer's name on case 51001?"
	for _, name := range []string{"Priya Nair", "Seán O'Neill", "Ellie McDonald", "Mary-Jane Smith", "Anna DeVries", "Zoë Ångström", "Tom O’Brien"} {
		page := cur("1", "tkt-51001", "Case 51001: Z20 burnt toast", "Case 51001. Customer "+name+" reports her Z20 burnt the toast on setting 2. Agent advised emptying the crumb tray.")
		req := Request{Question: q, Sources: []Source{page}, Accepted: []string{page.ID}}
		if text, _ := answerOf(t, NewExtractiveV21(an), req); !strings.Contains(text, name) {
			t.Errorf("the case names %q; v21 answers %q", name, text)
		}
	}
	for _, words := range []string{"VAT Z20", "Z20 Toaster"} {
		page := cur("1", "tkt-51001", "Case 51001: Z20 burnt toast", "Case 51001. The "+words+" burnt the toast on setting 2. Agent advised emptying the crumb tray.")
		req := Request{Question: q, Sources: []Source{page}, Accepted: []string{page.ID}}
		if text, _ := answerOf(t, NewExtractiveV21(an), req); text != prompt.NotFoundReply {
			t.Errorf("%q is no person's name; v21 answers %q", words, text)
		}
	}
}

// TestCommensurableAmounts: two amounts of money are in one unit, the
// currency, as "1,200 W" and "1,500 W" are: commensurable (v21) read
// the last word of "£18" as its unit, so no two different prices were
// ever said in one unit and a comparison's other page giving a price was
// never an equally complete side. An amount and a period, or pounds and
// euros, are still not.
func TestCommensurableAmounts(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"A replacement X200 jar costs £18.", "A replacement X300 Pro jar costs £24.50.", true},
		{"The repair costs $40 plus parts.", "The part itself is $12.", true},
		{"The X200 blender has a 1,200 W motor.", "The X300 Pro has a 1,500 W motor.", true},
		{"A replacement X200 jar costs £18.", "Blender jars are covered for 2 years.", false},
		{"A replacement X200 jar costs £18.", "In France a jar costs €21.", false},
		{"The X200 blender has a 1,200 W motor.", "Blender motors are covered for 5 years.", false},
		{"Descale it when the light comes on.", "It costs £18.", true}, // no value on the first side: nothing to match
	} {
		if got := commensurable(c.a, c.b); got != c.want {
			t.Errorf("commensurable(%q, %q) = %v, want %v (units %v, %v)", c.a, c.b, got, c.want, unitsOf(c.a), unitsOf(c.b))
		}
	}
}

// TestTimeRateSaidOtherwise: rule 1b's rate per a unit of time (v21)
// takes the rate however a page writes it: with the time-rate word itself
// ("an hourly rate of £30", "£49 annually", "£4.99 monthly") or after a
// slash ("£4.99/month", "£30/hr"), not only as "£30 per hour" or "£30 an
// hour"; v21 answered each NOT_FOUND although the page states the rate
// asked. An amount per another unit of time ("£49 a year" for "monthly")
// and a fee that is no rate are still refused.
func TestTimeRateSaidOtherwise(t *testing.T) {
	an := terms.New()
	other := cur("2", "man-k9", "K9 kettle", "The K9 kettle boils 1.5 litres in about three minutes.")
	for _, c := range []struct {
		q, text  string
		answered bool
	}{
		{"What hourly rate does Crumbly pay Oven Aid?", "Crumbly pays Oven Aid an hourly rate of £30 for guarantee labour.", true},
		{"What hourly rate does Crumbly pay Oven Aid?", "Crumbly pays Oven Aid £30/hr for guarantee labour.", true},
		{"What is the monthly fee for the Care Plan?", "The Care Plan costs £4.99 monthly and covers accidental damage.", true},
		{"What is the monthly fee for the Care Plan?", "The Care Plan costs £4.99/month and covers accidental damage.", true},
		{"What is the monthly fee for the Care Plan?", "The Care Plan costs £4.99 a month and covers accidental damage.", true},
		{"What is the annual fee for the Care Plan?", "The Care Plan costs £49 annually and covers accidental damage.", true},
		{"What is the monthly fee for the Care Plan?", "The Care Plan costs £49 a year and covers accidental damage.", false},
		{"What is the monthly fee for the Care Plan?", "The Care Plan costs £49 annually and covers accidental damage.", false},
		{"What hourly rate does Crumbly pay Oven Aid?", "Out-of-guarantee repairs carry a £20 inspection fee.", false},
	} {
		page := cur("1", "plan", "Rates", c.text)
		req := Request{Question: c.q, Sources: []Source{page, other}, Accepted: []string{page.ID}}
		if text, _ := answerOf(t, NewExtractiveV21(an), req); (text != prompt.NotFoundReply) != c.answered {
			t.Errorf("%q over %q: v21 answers %q, want answered %v", c.q, c.text, text, c.answered)
		}
	}
}
