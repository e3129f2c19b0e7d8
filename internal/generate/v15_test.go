package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// TestNamedStaleBesideACode: a question naming the archived terms by
// their year and a product by its code ("X200") still names the
// archived terms when a current page titled with the code is given: the
// code names a product, not a current version (v15, versionNumber). v14
// took any title word with digits for a current version, switched the
// archived-terms rule off, and answered from the current terms.
func TestNamedStaleBesideACode(t *testing.T) {
	req := Request{Question: "Under the 2024 terms, how long was the X200 motor covered?", Sources: []Source{
		{Label: "1", Chunk: corpus.Chunk{ID: "a#1", DocID: "pol-warranty-2024", Title: "Warranty terms (2024, archived)", Status: corpus.Archived,
			Text: "Under the 2024 terms, blender motors were covered for 2 years."}},
		{Label: "2", Chunk: corpus.Chunk{ID: "b#0", DocID: "pol-warranty-2026", Title: "Warranty terms (2026)", Status: corpus.Current,
			Text: "Blender motors on the X200 and X300 Pro are covered for 5 years."}},
		{Label: "3", Chunk: corpus.Chunk{ID: "c#0", DocID: "man-x200-specs", Title: "X200 blender specifications", Status: corpus.Current,
			Text: "The X200 blender has a 1,200 W motor and three speeds."}},
	}}
	an := terms.New()
	for _, tc := range []struct {
		g    *Extractive
		want []string
	}{
		{NewExtractiveV15(an), []string{"pol-warranty-2024"}},
		{NewExtractiveV14(an), []string{"pol-warranty-2026"}}, // v14's fault, kept in v14
	} {
		if docs, ans := citedDocs(t, tc.g, req); !slices.Equal(docs, tc.want) {
			t.Errorf("v%d: %q cites %v; want %v", tc.g.Version, ans.Text, docs, tc.want)
		}
	}
	g := NewExtractiveV15(an)
	if named := g.namedStale(req, g.content(req.Question, answertype.Classify(req.Question))); !named[0] {
		t.Errorf("namedStale = %v; want the 2024 terms (source 0) named", named)
	}
}

// TestVersionNumber: a version is a number in digits, a code has letters.
func TestVersionNumber(t *testing.T) {
	for term, want := range map[string]bool{"2024": true, "2.1": true, "x200": false, "pmp-x300": false, "warranty": false, "": false} {
		if got := versionNumber(term); got != want {
			t.Errorf("versionNumber(%q) = %v, want %v", term, got, want)
		}
	}
}

// TestNumberEach: a sentence tells compared entities apart only with a
// number standing by each (v15); v14 counted the different numbers
// against the entities, so two prices beside one entity passed. A part
// of the sentence mentions a compared code only where it stands whole:
// "X300 jar £7.25" does not mention the X30 (rv14: numberEach found
// "x30" inside "x300", took the part for both codes, and gave neither
// its price).
func TestNumberEach(t *testing.T) {
	an := terms.New()
	for question, cases := range map[string]map[string]bool{
		"which costs us more, the X200 jar or the X300 Pro jar?": {
			"Internal cost prices: X200 jar £6.10, X300 Pro jar £7.25.":                      true,
			"£6.10 for an X200 jar and £7.25 for an X300 Pro jar.":                           true,
			"X200 jar £6.10, or £5.50 in packs of ten; the X300 Pro jar is made to order.":   false,
			"Blender motors on the X200 and X300 Pro are covered for 5 years.":               false,
			"The X200 jar and the X300 Pro jar are both sold at parts.hollin.example today.": false,
		},
		"which costs us more, the X300 jar or the X30 jar?": {
			"Internal cost prices: X300 jar £7.25, X30 jar £6.10.":   true,
			"Internal cost prices: X30 jar £6.10, X300 jar £7.25.":   true,
			"Internal cost prices: X300 jar £7.25, X3000 jar £6.10.": false,
		},
	} {
		ents := assess.Entities(an, question, noVocabulary{})
		if len(ents) != 2 {
			t.Fatalf("entities of %q: %v, want two", question, ents)
		}
		for text, want := range cases {
			found := answertype.Question{Type: answertype.Money}.Find(text)
			if got := numberEach(text, append(found, decidingExpressions(text)...), ents); got != want {
				t.Errorf("numberEach(%q) = %v, want %v", text, got, want)
			}
		}
	}
	// v14's count passes the two prices beside the X200: the fault.
	text := "X200 jar £6.10, or £5.50 in packs of ten; the X300 Pro jar is made to order."
	if distinctNumbers(text, answertype.Question{Type: answertype.Money}.Find(text)) < 2 {
		t.Errorf("distinctNumbers no longer counts two prices in %q: the test shows nothing", text)
	}
}

// TestListingOneNumberEach: v15 does not answer a comparison from a
// sentence that gives two prices for one of the compared parts and none
// for the other; v14 did.
func TestListingOneNumberEach(t *testing.T) {
	an := terms.New()
	req := Request{Question: "How much more does an X300 Pro jar cost us than an X200 jar?", Sources: []Source{
		{Label: "1", Chunk: corpus.Chunk{ID: "a#0", DocID: "int-parts-cost", Title: "Internal cost prices", Status: corpus.Current,
			Text: "X200 jar £6.10, or £5.50 in packs of ten; the X300 Pro jar is made to order."}},
		{Label: "2", Chunk: corpus.Chunk{ID: "b#0", DocID: "man-x300-parts", Title: "X300 Pro spare parts", Status: corpus.Current,
			Text: "An X300 Pro jar costs £24.99 from the parts shop."}},
		{Label: "3", Chunk: corpus.Chunk{ID: "c#0", DocID: "pol-parts", Title: "Spare parts", Status: corpus.Current,
			Text: "Spare parts are sold at parts.hollin.example."}},
	}}
	for _, tc := range []struct {
		g      *Extractive
		listed bool
	}{{NewExtractiveV15(an), false}, {NewExtractiveV14(an), true}} {
		var rules []string
		tc.g.explain = func(_ int, _, rule string) { rules = append(rules, rule) }
		if _, err := tc.g.Generate(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(rules, "lists-all"); got != tc.listed {
			t.Errorf("v%d: listing chose the sentence = %v (rules %v), want %v", tc.g.Version, got, rules, tc.listed)
		}
	}
}

// TestChoiceInsideAWord: an entity typed inside a hyphenated word
// ("Rad53-dependent") is found where it stands (v15); v14 looked its
// first word up whole and missed it.
func TestChoiceInsideAWord(t *testing.T) {
	an := terms.New()
	q := "Is the checkpoint response Rad53-dependent or Mec1-dependent?"
	ents := assess.Entities(an, q, noVocabulary{})
	if len(ents) < 2 {
		t.Fatalf("entities %v: want Rad53 and Mec1", ents)
	}
	if !NewExtractiveV15(an).choice(q, ents) {
		t.Errorf("v15 choice(%q) = false (entities %v), want true", q, ents)
	}
	if NewExtractiveV14(an).choice(q, ents) {
		t.Errorf("v14 choice(%q) = true: the test shows nothing", q)
	}
}

// answerOf generates req's answer with g and returns its text and cited
// documents.
func answerOf(t *testing.T, g *Extractive, req Request) (string, []string) {
	t.Helper()
	docs, ans := citedDocs(t, g, req)
	return ans.Text, docs
}

// refusedOnlyByV15 checks that v15 says the sources do not answer req
// and v14 answers it.
func refusedOnlyByV15(t *testing.T, an *terms.Analyzer, req Request) {
	t.Helper()
	if text, _ := answerOf(t, NewExtractiveV15(an), req); text != prompt.NotFoundReply {
		t.Errorf("v15 answers %q; want %q", text, prompt.NotFoundReply)
	}
	if text, _ := answerOf(t, NewExtractiveV14(an), req); text == prompt.NotFoundReply {
		t.Errorf("v14 refuses too: the test shows nothing")
	}
}

// cur is a current source.
func cur(label, doc, title, text string) Source {
	return Source{Label: label, Chunk: corpus.Chunk{ID: doc + "#0", DocID: doc, Title: title, Status: corpus.Current, Text: text}}
}

// TestUnboundDimension: a question naming the dimension of the measure
// it asks ("what temperature") is not answered from sentences whose
// measures are of other dimensions (v15, rule 1b; fresh11 u83 and
// fresh12 v66, no-answer questions both answered by v14); a sentence
// giving degrees answers it.
func TestUnboundDimension(t *testing.T) {
	an := terms.New()
	kettle := cur("1", "man-k50-kettle", "K50 smart kettle manual",
		"The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. Descale it once a month with citric acid.")
	q := "What temperature does the K50 hold the water at when it's keeping it warm?"
	req := Request{Question: q, Sources: []Source{kettle}}
	refusedOnlyByV15(t, an, req)
	degrees := cur("1", "man-k50-kettle", "K50 smart kettle manual",
		"The K50 smart kettle keeps water warm at 80 °C for up to two hours.")
	if text, _ := answerOf(t, NewExtractiveV15(an), Request{Question: q, Sources: []Source{degrees}}); text == prompt.NotFoundReply {
		t.Errorf("v15 refuses a source giving degrees")
	}
}

// TestUnboundSymbols: a measure of the dimension asked written with a bare
// "C", an ordinal indicator for the degree sign ("80ºC") or in fluid
// ounces ("64 fl oz", a volume where "oz" alone is a mass) answers it:
// rule 1b does not decline it (answertype read none of these as the
// dimension asked).
func TestUnboundSymbols(t *testing.T) {
	an := terms.New()
	for _, tc := range []struct{ q, text string }{
		{"What temperature should the water be?", "Use water at 80C."},
		{"What temperature should the water be?", "Use water at 80ºC."},
		{"What temperature should the water be?", "Use water at 80 °F."},
		{"What capacity does the jug have?", "The jug holds 64 fl oz."},
	} {
		req := Request{Question: tc.q, Sources: []Source{cur("1", "man-k50-kettle", "K50 smart kettle manual", tc.text)}}
		if text, _ := answerOf(t, NewExtractiveV15(an), req); text == prompt.NotFoundReply {
			t.Errorf("v15 declines %q against %q", tc.q, tc.text)
		}
	}
}

// TestUnboundRate: an amount asked per a unit ("per mile") is not
// answered by amounts per other units (v15, rule 1b; fresh3 g48, a
// no-answer question v14 answered with the hourly and home-visit rates);
// an amount that is no rate still answers "per unit" (fresh3 g39).
func TestUnboundRate(t *testing.T) {
	an := terms.New()
	rates := cur("1", "ptn-brook-rates", "Brook Street Repairs: partner rates",
		"Hollin pays Brook Street Repairs £42 per hour of warranty labour and £18 per home visit. The agreement runs to 31 March 2027.")
	req := Request{Question: "how much does Hollin pay us per mile for travel to home visits?", Sources: []Source{rates}}
	refusedOnlyByV15(t, an, req)
	costs := cur("2", "int-parts-cost", "Internal cost prices",
		"Internal cost prices: X200 jar £6.10, BLD-X200 blade assembly £3.40, PMP-X300 pump £11.80.")
	req = Request{Question: "what do we pay per unit for the X200 blade assembly?", Sources: []Source{rates, costs}}
	if text, docs := answerOf(t, NewExtractiveV15(an), req); !slices.Contains(docs, "int-parts-cost") {
		t.Errorf("v15 answers %q citing %v; want the cost prices", text, docs)
	}
}

// TestBoundOpening: for a value asked of a code ("each X200 jar"), the
// sentence giving a value of the asked kind beside the code opens, not a
// page about the code whose value is said of something else (v15;
// fresh12 v52: v14 answered from the X200 recall's "free replacement").
func TestBoundOpening(t *testing.T) {
	an := terms.New()
	req := Request{Question: "What do we pay for each X200 jar?", Sources: []Source{
		cur("1", "ntc-x200-recall", "X200 jar recall",
			"X200 jars from batch B-2291 may crack when used with hot liquids. Stop using the jar and order a free replacement at hollin.example/recall. The batch number is printed on the base of the jar."),
		cur("2", "man-x200-specs", "X200 blender specifications", "The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds."),
		cur("3", "man-x200-cleaning", "Cleaning your X200", "Wash the jar and blades in warm soapy water or in the dishwasher."),
		cur("4", "int-parts-cost", "Internal cost prices",
			"Internal cost prices: X200 jar £6.10, BLD-X200 blade assembly £3.40, PMP-X300 pump £11.80, FLT-P9-HEPA filter £7.25. Do not share outside Finance."),
	}}
	for _, tc := range []struct {
		g    *Extractive
		want string
	}{{NewExtractiveV15(an), "int-parts-cost"}, {NewExtractiveV14(an), "ntc-x200-recall"}} {
		if text, docs := answerOf(t, tc.g, req); !slices.Equal(docs, []string{tc.want}) {
			t.Errorf("v%d answers %q citing %v; want %s alone", tc.g.Version, text, docs, tc.want)
		}
	}
}

// TestExtractiveV15Hollin asks the Hollin questions v15's rules were
// designed on, retrieved from the Hollin corpus with the chunk the
// assessor accepted: a number word of the question ("hold two things
// down") does not make another source's sentence holding it ("up to two
// hours") add to the answer (fresh11 u61: v14 cited the kettle manual
// beside the ticket that answers), and a value asked of a code opens
// with the sentence naming the code beside a value (fresh12 v52: v14
// answered from the X200 recall the assessor accepted).
func TestExtractiveV15Hollin(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	f.againstPrevious(t, NewExtractiveV15(an), NewExtractiveV14(an), []previousCase{
		{"u61", "what's the K50 reset where you hold two things down at once, and for how long?", []string{"public", "staff"}, "tkt-30455",
			[]string{"tkt-30455"}, "15 seconds", []string{"tkt-30455", "man-k50-kettle"}},
		{"v52", "What do we pay for each X200 jar?", []string{"public", "finance"}, "ntc-x200-recall",
			[]string{"int-parts-cost"}, "£6.10", []string{"ntc-x200-recall"}},
	})
}

// TestUnboundAsPer: "as per" (according to) asks no rate, nor does a
// "per" before a word the analyzer drops ("per each"): rule 1b does not
// decline an amount per an hour for them (rv14). It read "as per the
// agreement" as a rate per "the", which no amount is, and declined.
func TestUnboundAsPer(t *testing.T) {
	an := terms.New()
	rates := cur("1", "ptn-brook-rates", "Brook Street Repairs: partner rates",
		"Hollin pays Brook Street Repairs £42 per hour of warranty labour and £18 per home visit. The agreement runs to 31 March 2027.")
	for _, q := range []string{
		"How much does Hollin pay Brook Street for warranty labour as per the agreement?",
		"As per the partner agreement, what does Hollin pay Brook Street for warranty labour?",
		"What does Hollin pay Brook Street per each home visit?",
	} {
		if text, docs := answerOf(t, NewExtractiveV15(an), Request{Question: q, Sources: []Source{rates}}); !slices.Equal(docs, []string{"ptn-brook-rates"}) {
			t.Errorf("%q: v15 answers %q citing %v; want the partner rates", q, text, docs)
		}
	}
	// a rate per another unit is still declined
	refusedOnlyByV15(t, an, Request{Question: "As per the agreement, how much does Hollin pay us per mile for travel?", Sources: []Source{rates}})
}

// TestChoiceCodeInsideACode: a code is found where it stands whole, not
// inside a longer code: in "Is the K50 quieter than the K5?" the "K5" is
// the last word, not the "k5" of "K50" (rv14). v15 took the first "k5"
// it found, put both codes at one word, and saw no choice; v14 did.
func TestChoiceCodeInsideACode(t *testing.T) {
	an := terms.New()
	for _, q := range []string{"Is the K50 quieter than the K5?", "Is the X300 louder than the X30?", "Which is dearer, the X300 or the X30-Mini?"} {
		ents := assess.Entities(an, q, noVocabulary{})
		if len(ents) < 2 {
			t.Fatalf("entities %v: want two codes", ents)
		}
		if !NewExtractiveV15(an).choice(q, ents) {
			t.Errorf("v15 choice(%q) = false (entities %v), want true", q, ents)
		}
	}
}

// TestUnboundRateSameUnit: rule 1b declines only amounts per another
// unit (rv14). It took the one word after "per" for the unit ("per X200
// jar": "x200", against "£6.10 per jar"), counted "£6.10 each for X200
// jars" as a rate per "for", and "a piece" as another unit than "per
// unit"; v14 answered all three.
func TestUnboundRateSameUnit(t *testing.T) {
	an := terms.New()
	for _, tc := range [][2]string{
		{"What do we pay per X200 jar?", "Spare X200 jars cost us £6.10 per jar."},
		{"What do we pay per X200 jar?", "We pay £6.10 each for X200 jars."},
		{"How much is a replacement X200 jar per unit?", "A replacement X200 jar costs £6.10 a piece."},
	} {
		req := Request{Question: tc[0], Sources: []Source{cur("1", "int-parts-cost", "Internal cost prices", tc[1])}}
		if text, docs := answerOf(t, NewExtractiveV15(an), req); !slices.Equal(docs, []string{"int-parts-cost"}) {
			t.Errorf("%q on %q: v15 answers %q citing %v; want the cost prices", tc[0], tc[1], text, docs)
		}
	}
	// per another unit is still declined
	refusedOnlyByV15(t, an, Request{Question: "What do we pay per X200 jar?", Sources: []Source{cur("1", "ptn-brook-rates", "Brook Street Repairs: partner rates",
		"Hollin pays Brook Street Repairs £42 per hour of warranty labour on X200 jars and £18 per home visit.")}})
}

// TestNumberWordStems: rule 3's number words are the question's, as the
// analyzer spells them: "twenty" is the term "twenti", "twelve"
// "twelv", which NumberWord does not know (rv14). u61 with "twenty" (or
// "twelve") in the question and the kettle page's hours padded the answer
// with the kettle page again, as v14 did with "two".
func TestNumberWordStems(t *testing.T) {
	f := newHollinFixture(t)
	an := terms.New()
	q := "what's the K50 reset where you hold two things down at once, and for how long?"
	for _, n := range []string{"two", "twenty", "twelve"} {
		req := f.requestAs(t, hollinQuestion{ID: "u61", Question: q}, []string{"public", "staff"}, wire.DefaultTopK)
		req.Accepted = acceptedChunk(t, "u61", req, "tkt-30455")
		req.Question = strings.Replace(q, "two", n, 1)
		for i := range req.Sources {
			req.Sources[i].Text = strings.ReplaceAll(req.Sources[i].Text, "two hours", n+" hours")
		}
		if docs, ans := citedDocs(t, NewExtractiveV15(an), req); !slices.Equal(docs, []string{"tkt-30455"}) {
			t.Errorf("%q: %q cites %v; want the ticket alone", req.Question, ans.Text, docs)
		}
	}
}
