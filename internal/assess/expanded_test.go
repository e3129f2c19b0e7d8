package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestExpandedCredits: on an attempt whose search the worker expanded
// (ExpandedSearch, loop.expand), Expanded credits a question word no
// visible document uses to a chunk holding a relative Expand added beside
// it ("bought" held as "purchase"), on the first attempt as a rewritten
// attempt credits translate's substitutes, and the reason names the
// credit; not when the search was not expanded, nor with the switch off,
// nor for a relative only a document the asker may not see uses. v22's
// readings, as TestTranslate: v23's relatives would credit "purchase"
// on the first chunk anyway (TestKin).
func TestExpandedCredits(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "faq#0", Title: "Proof of purchase", Text: "A receipt shows the date of purchase."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "X300 Pro blender receipt", "K50 kettle", "repair date")
	lex.add(an, []string{"staff"}, "Parts we acquire from suppliers") // "acquire": staff only
	b := NewBuiltin(an, lex)
	b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0
	b.UseThesaurus(fakeThesaurus{"bought": {"purchase", "acquire"}, "purchase": {"bought"}, "acquire": {"bought"}})
	q := "what slip shows the date I bought it"
	assess := func(expanded, searched bool, groups ...string) Result {
		t.Helper()
		b.Expanded, b.ExpandedSearch = boolInt(expanded), searched
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: groups})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	plain := assess(false, false, "public")
	if plain.Assessment.Sufficient {
		t.Fatalf("v22, not expanded: %+v, want insufficient (the first attempt reads the words as written)", plain.Assessment)
	}
	for _, c := range []struct{ expanded, searched bool }{{false, true}, {true, false}} {
		if res := assess(c.expanded, c.searched, "public"); res.Assessment != plain.Assessment {
			t.Errorf("Expanded %v, ExpandedSearch %v: %+v, want %+v: credited only when both", c.expanded, c.searched, res.Assessment, plain.Assessment)
		}
	}
	on := assess(true, true, "public")
	if !on.Assessment.Sufficient || on.Assessment.Score <= plain.Assessment.Score || !strings.Contains(on.Assessment.Reason, `"bought" held as "purchase" (fake-1, added to the search)`) {
		t.Errorf("expanded search: %+v, want sufficient, a higher score than %v and the credit named", on.Assessment, plain.Assessment.Score)
	}
	if strings.Contains(on.Assessment.Reason, "acquire") {
		t.Errorf("reason %q names a relative only staff may see", on.Assessment.Reason)
	}
	b.Expanded = expandCredit
	if got := b.Model(); !strings.HasSuffix(got, "+expanded+fake-1") {
		t.Errorf("model %q, want the switch named (+expanded)", got)
	}
}

// TestExpandedOnlyHidden: a relative only a hidden document uses is never
// credited, expanded search or not: Expand never adds it.
func TestExpandedOnlyHidden(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "st#0", Title: "Supplier parts", Text: "Parts we acquire from suppliers are logged by date."}}
	lex := newLexicon(an, "K50 kettle", "repair date")
	lex.add(an, []string{"staff"}, ev[0].Title+"\n"+ev[0].Text)
	b := NewBuiltin(an, lex)
	b.Kin, b.Hyp, b.Defined = false, false, false
	b.UseThesaurus(fakeThesaurus{"bought": {"acquire"}, "acquire": {"bought"}})
	b.Expanded, b.ExpandedSearch = expandCredit, true
	q := "which parts were bought by date"
	for _, groups := range [][]string{{"public"}, {"public", "staff"}} {
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: groups})
		if err != nil {
			t.Fatal(err)
		}
		credited := strings.Contains(res.Assessment.Reason, `"bought" held as "acquire"`)
		if credited != (len(groups) == 2) {
			t.Errorf("groups %v: reason %q; want the credit named only for staff, who may see the page", groups, res.Assessment.Reason)
		}
	}
}
