package generate

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
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
// against the entities, so two prices beside one entity passed.
func TestNumberEach(t *testing.T) {
	an := terms.New()
	ents := assess.Entities(an, "which costs us more, the X200 jar or the X300 Pro jar?", noVocabulary{})
	if len(ents) != 2 {
		t.Fatalf("entities %v, want the X200 and the X300 Pro", ents)
	}
	for text, want := range map[string]bool{
		"Internal cost prices: X200 jar £6.10, X300 Pro jar £7.25.":                      true,
		"£6.10 for an X200 jar and £7.25 for an X300 Pro jar.":                           true,
		"X200 jar £6.10, or £5.50 in packs of ten; the X300 Pro jar is made to order.":   false,
		"Blender motors on the X200 and X300 Pro are covered for 5 years.":               false,
		"The X200 jar and the X300 Pro jar are both sold at parts.hollin.example today.": false,
	} {
		found := answertype.Question{Type: answertype.Money}.Find(text)
		if got := numberEach(text, append(found, decidingExpressions(text)...), ents); got != want {
			t.Errorf("numberEach(%q) = %v, want %v", text, got, want)
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
