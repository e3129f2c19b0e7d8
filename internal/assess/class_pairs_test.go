package assess

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// pairedLexicon is a lexicon whose vocabularies know the name pairs of
// the chunks their groups may see (PairedNamingVocabulary), as the
// worker's do over an index keeping them, and count Naming's searches.
// untabled: the index keeps no pairs (NamePairs says so).
type pairedLexicon struct {
	*lexicon
	searches *int
	untabled bool
}

func (l pairedLexicon) Visible(groups []string) Vocabulary {
	tb := names.NewTable()
	for _, d := range l.docs {
		title, text, _ := strings.Cut(d.text, "\n")
		tb.Add(l.an, d.acl, title, text)
	}
	return pairedVocab{l.lexicon.Visible(groups).(*lexVocab), tb.Visible(groups), !l.untabled, l.searches}
}

type pairedVocab struct {
	*lexVocab
	pairs    names.Pairs
	ok       bool
	searches *int
}

var _ PairedNamingVocabulary = pairedVocab{}

func (v pairedVocab) NamePairs() (names.Pairs, bool) { return v.pairs, v.ok }

func (v pairedVocab) Naming(ctx context.Context, term string, f wire.Filters) ([]string, error) {
	*v.searches++
	return v.lexVocab.Naming(ctx, term, f)
}

// TestClassSearchesOnlyNamedPairs: with the asker's name pairs known, the
// class reading searches a question word only when a retrieved chunk
// lacking it holds a code some chunk the asker may see names with it; the
// decisions are those of searching every word. The page writing "Z20
// Smart Toaster" decides: visible to the asker, both words are searched
// and the app page is accepted; seen only by staff, or absent, or naming
// another code, nothing is searched for a public asker and the question
// is refused as before; an index keeping no pairs searches as before.
func TestClassSearchesOnlyNamedPairs(t *testing.T) {
	app := Evidence{ChunkID: "z20-app#0", Title: "Pairing the Z20 with the Crumbly app", Text: "To pair the Z20 with the Crumbly app, hold the lever down for 5 seconds until the light blinks."}
	returns := Evidence{ChunkID: "returns#0", Title: "Returns", Text: "You can return a kettle or an iron within 30 days of delivery for a refund."}
	q := "Which app goes with the Z20 smart toaster?"
	for _, c := range []struct {
		name     string
		page     string // the page that may write the name, "" for none
		acl      string
		groups   []string
		untabled bool
		searched bool // by the paired reading
		accepted bool
	}{
		{"name visible", "Z20 Smart Toaster\nThe Z20 has four slots.", "public", []string{"public"}, false, true, true},
		{"name seen by staff only", "Z20 Smart Toaster\nThe Z20 has four slots.", "staff", []string{"public"}, false, false, false},
		{"staff asking", "Z20 Smart Toaster\nThe Z20 has four slots.", "staff", []string{"public", "staff"}, false, true, true},
		{"no name written", "", "public", []string{"public"}, false, false, false},
		// accepted on the weights alone: "smart" and "toaster" are
		// commoner with the Q30's page, and neither is credited
		{"another code's name", "Q30 Smart Toaster\nThe Q30 has two slots.", "public", []string{"public"}, false, false, true},
		{"index keeps no pairs", "", "public", []string{"public"}, true, true, false},
	} {
		an := terms.New()
		lex := newLexicon(an, app.Title+"\n"+app.Text, returns.Title+"\n"+returns.Text)
		if c.page != "" {
			lex.add(an, []string{c.acl}, c.page)
		}
		for _, other := range []string{"Orders\nWe list your orders.", "Toast\nA smart toaster browns bread."} {
			lex.add(an, []string{"public"}, other)
		}
		req := Request{Question: q, Query: q, Evidence: []Evidence{app, returns}, Groups: c.groups}
		var plain, paired int
		judge := func(corpus Corpus) Result {
			b := NewBuiltin(an, corpus)
			b.Rewriter = NewRewriter(an, lex)
			// the class reading's searches alone: with v38's CodeTerm the
			// returns page ("within 30 days") names no code, and the general
			// reading searches the name words for it (TestGeneralSearchesOnlyNamedWords);
			// v40's Alone would judge the returns page again, alone
			b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = 0, 0, 0, 0, false
			newerIf(b, false)
			b.Gate = false
			return assessChecked(t, b, req)
		}
		want := judge(pairedLexicon{lex, &plain, true}) // every lacked word searched, as v27 did
		got := judge(pairedLexicon{lex, &paired, c.untabled})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: with pairs %+v, searching every word %+v", c.name, got, want)
		}
		if accepted := got.Assessment.Sufficient && len(got.Accepted) > 0 && got.Accepted[0] == app.ChunkID; accepted != c.accepted {
			t.Errorf("%s: accepted on the app page %v, want %v (%s)", c.name, accepted, c.accepted, got.Assessment.Reason)
		}
		if plain == 0 {
			t.Errorf("%s: searching every word made no search: the case does not test the pairs", c.name)
		}
		if (paired > 0) != c.searched {
			t.Errorf("%s: %d searches with pairs (%d without), want searched %v", c.name, paired, plain, c.searched)
		}
		if c.untabled && paired != plain {
			t.Errorf("%s: %d searches, want %d as without pairs", c.name, paired, plain)
		}
	}
}

// BenchmarkClassReading is one assessment whose retrieved chunks all
// hold codes (as on bench-scale's corpus, where almost every document
// holds a letter-and-digit term) and whose lacked words no visible chunk
// names a product with: with the asker's name pairs (the worker over an
// index keeping them) nothing is searched; searching every word (v27
// before round 26) makes a search per lacked word. naming/op reports the
// searches, so a change that searches again shows.
func BenchmarkClassReading(b *testing.B) {
	an := terms.New()
	lex := newLexicon(an)
	var ev []Evidence
	for i := range 200 {
		title := fmt.Sprintf("Service bulletin SB%d", i)
		text := fmt.Sprintf("Unit R%d reports fault F%d after the firmware update; reset it from the settings menu.", i, i%7)
		lex.add(an, []string{"public"}, title+"\n"+text)
		if i < 10 {
			ev = append(ev, Evidence{ChunkID: fmt.Sprintf("sb%d#0", i), Title: title, Text: text})
		}
	}
	lex.add(an, []string{"public"}, "K50 Smart Kettle\nThe K50 boils fast.")
	q := "How do I reset my smart kettle after the firmware update?"
	req := Request{Question: q, Query: q, Evidence: ev, Groups: []string{"public"}}
	for _, c := range []struct {
		name     string
		untabled bool
	}{{"pairs", false}, {"every-word", true}} {
		b.Run(c.name, func(b *testing.B) {
			searches := 0
			v := pairedLexicon{lex, &searches, c.untabled}.Visible(req.Groups) // read once, as an index's
			a := NewBuiltin(an, fixedCorpus{v})
			a.Rewriter = NewRewriter(an, lex)
			n := 0
			for b.Loop() {
				if _, err := a.Assess(context.Background(), req); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(searches)/float64(n), "naming/op")
		})
	}
}

// fixedCorpus gives every asker one vocabulary.
type fixedCorpus struct{ v Vocabulary }

func (c fixedCorpus) Visible([]string) Vocabulary { return c.v }
