package assess

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// The registration page is about every appliance and never says
// "toaster"; the asker's visible documents write the class in a product's
// name ("Z20 Smart Toaster").
var (
	generalReg  = Evidence{ChunkID: "reg#0", Title: "Registering your appliance", Text: "Register your appliance online to get recall alerts and faster warranty claims."}
	generalName = "Z20 Smart Toaster\nThe Z20 has four slots and six browning levels."
)

// TestGeneralClassFailedSearch: a failed search fails the assessment
// rather than judge without it.
func TestGeneralClassFailedSearch(t *testing.T) {
	q := "Why should I register my toaster?"
	an := terms.New()
	b := NewBuiltin(an, failingNames{newLexicon(an, generalReg.Title+"\n"+generalReg.Text, generalName)})
	if _, err := b.Assess(context.Background(), Request{Question: q, Query: q, Evidence: []Evidence{generalReg}, Groups: []string{"public"}}); err == nil {
		t.Error("Assess judged although reading the visible chunks failed")
	}
}

// TestGeneralClass: builtin:coverage-v28 (Builtin.General) reads a
// product's class on a page about no product: v27 refuses (its class
// reading credits the noun only to a page naming the Z20); v28 accepts on
// the registration page. No page naming a code is credited (a page about
// the Z30 is not about toasters), nor any when the page writing the name
// is one the asker may not see: no word of an invisible document changes
// a decision, and the reason names none of its words.
func TestGeneralClass(t *testing.T) {
	reg, name := generalReg, generalName
	z30 := Evidence{ChunkID: "z30#0", Title: "Registering the Z30", Text: "Register the Z30 online to get recall alerts and faster warranty claims."}
	others := []string{"Orders\nWe list your orders.", "Delivery\nWe deliver in three days.", "Returns\nReturn it within 30 days."}
	q := "Why should I register my toaster?"
	for _, c := range []struct {
		acl string
		ev  Evidence
	}{{"public", reg}, {"staff", reg}, {"public", z30}} {
		an := terms.New()
		lex := newLexicon(an, c.ev.Title+"\n"+c.ev.Text)
		lex.add(an, []string{c.acl}, name)
		for _, o := range others {
			lex.add(an, []string{"public"}, o)
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		req := Request{Question: q, Query: q, Evidence: []Evidence{c.ev}, Groups: []string{"public"}}
		res := assessChecked(t, b, req)
		want := c.acl == "public" && c.ev.ChunkID == "reg#0"
		if got := res.Assessment.Sufficient && res.Assessment.Score >= 0.5; got != want {
			t.Errorf("v28, %s, name page %s: accepted %v, want %v (%s)", c.ev.ChunkID, c.acl, got, want, res.Assessment.Reason)
		}
		if res.Usage.Model != BuiltinModel {
			t.Errorf("model %q, want %q", res.Usage.Model, BuiltinModel)
		}
		if strings.Contains(res.Assessment.Reason, "Smart") || strings.Contains(res.Assessment.Reason, "slots") {
			t.Errorf("the reason names the name page's words: %s", res.Assessment.Reason)
		}
		b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if res := assessChecked(t, b, req); res.Assessment.Sufficient && res.Assessment.Score >= 0.5 {
			t.Errorf("v27 accepts %q on %s (%s): the case does not test General", q, c.ev.ChunkID, res.Assessment.Reason)
		} else if res.Usage.Model != V27Model {
			t.Errorf("model %q with General off, want %q", res.Usage.Model, V27Model)
		}
	}
}

// TestGeneralSearchesOnlyNamedWords: with the asker's name pairs known,
// v28's general reading searches a question word only when some chunk the
// asker may see writes it in a name after a code, and decides as it does
// searching every word. The name page seen by the asker: "toaster" is
// searched; seen only by staff, or written without a capital (no name),
// nothing is searched for a public asker.
func TestGeneralSearchesOnlyNamedWords(t *testing.T) {
	q := "Why should I register my toaster?"
	for _, c := range []struct {
		name     string
		page     string
		acl      string
		searched bool
	}{
		{"name visible", generalName, "public", true},
		{"name seen by staff only", generalName, "staff", false},
		{"no name written", "Z20 toaster\nThe Z20 has four slots.", "public", false},
	} {
		an := terms.New()
		lex := newLexicon(an, generalReg.Title+"\n"+generalReg.Text)
		lex.add(an, []string{c.acl}, c.page)
		// a page the public may see holds "toaster" outside any name, so
		// the word is known to every asker and searched without pairs
		for _, o := range []string{"Orders\nWe list your orders.", "Toast\nA toaster browns bread.", "Returns\nReturn it within 30 days."} {
			lex.add(an, []string{"public"}, o)
		}
		req := Request{Question: q, Query: q, Evidence: []Evidence{generalReg}, Groups: []string{"public"}}
		checkPairedSearches(t, c.name, an, lex, req, c.searched, true)
	}
}

// checkPairedSearches judges req over lex with the asker's name pairs
// and over lex keeping none (every word searched, for every chunk naming
// no code): the results must be equal, the latter must search, and the
// former search exactly when searched says.
// classFree sets Builtin.ClassFree (builtin:coverage-v44; false: codeOnly's
// condition as v38 … v43 apply it).
func checkPairedSearches(t *testing.T, name string, an *terms.Analyzer, lex *lexicon, req Request, searched, classFree bool) {
	t.Helper()
	var plain, paired int
	judge := func(corpus Corpus) Result {
		b := NewBuiltin(an, corpus)
		b.Rewriter = NewRewriter(an, lex)
		b.ClassFree = classFree
		return assessChecked(t, b, req)
	}
	want := judge(pairedLexicon{lex, &plain, true})
	got := judge(pairedLexicon{lex, &paired, false})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: with pairs %+v, searching every word %+v", name, got, want)
	}
	if plain == 0 {
		t.Errorf("%s: searching every word made no search: the case tests nothing", name)
	}
	if (paired > 0) != searched {
		t.Errorf("%s: %d searches with pairs (%d without), want searched %v", name, paired, plain, searched)
	}
}

// TestGeneralSearchesOnlyCreditable: v38's general reading searches a
// word only for a retrieved chunk some answer could credit, and decides
// as it does searching for every chunk naming no code. The registration
// page states a period ("within 28 days"), so v38 reads it as naming no
// code and puts codeOnly's condition on its credit: asked about a
// toaster "from the shop", a word the page lacks and no visible product
// name holds, no answer can credit "toaster" to it, and nothing is
// searched; asked without "shop", the condition may hold and the word is
// searched. A name written only in a page the asker may not see changes
// neither the decision nor whether a search is made: that page's pairs
// are not the asker's.
func TestGeneralSearchesOnlyCreditable(t *testing.T) {
	reg := Evidence{ChunkID: "reg#0", Title: "Registering your appliance", Text: "Register your appliance online within 28 days to get recall alerts and faster warranty claims."}
	for _, c := range []struct {
		name     string
		q        string
		acl      string // of the page writing "Z20 Smart Toaster"; "" for none
		searched bool
	}{
		{"condition may hold", "Why should I register my toaster?", "public", true},
		{"a word the page lacks", "Why should I register my toaster from the shop?", "public", false},
		{"name seen by staff only", "Why should I register my toaster?", "staff", false},
		{"no name page", "Why should I register my toaster?", "", false},
		// With no number the page is credited with no condition (codeNew):
		// the word it lacks does not stop the search (rv36).
		{"no number, a word the page lacks", "Why should I register my toaster from the shop?", "public", true},
	} {
		reg := reg
		if strings.HasPrefix(c.name, "no number") {
			reg.Text = "Register your appliance online to get recall alerts and faster warranty claims."
		}
		an := terms.New()
		lex := newLexicon(an, reg.Title+"\n"+reg.Text)
		if c.acl != "" {
			lex.add(an, []string{c.acl}, generalName)
		}
		for _, o := range []string{"Orders\nWe list your orders.", "Toast\nA toaster browns bread.", "Shop\nOur shop opens at nine."} {
			lex.add(an, []string{"public"}, o)
		}
		req := Request{Question: c.q, Query: c.q, Evidence: []Evidence{reg}, Groups: []string{"public"}}
		checkPairedSearches(t, c.name, an, lex, req, c.searched, false)
	}
}
