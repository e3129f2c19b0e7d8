package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestCompound: builtin:coverage-v33 (Builtin.Compound) credits no
// relative of a question word that the evidence writes only inside a
// compound WordNet lists as one word (fresh13 w84's shape: "extra" read
// as the "spare" of "spare parts"). v32 (Compound off) accepts the first
// chunk through the relative and names it; v33 refuses; v33 accepts when
// the chunk writes the relative outside the compound too, and when the
// thesaurus lists no such compound.
func TestCompound(t *testing.T) {
	an := terms.New()
	q := "can I buy an extra jug for the X200?"
	judge := func(compound bool, text string, forms map[string][]string) Result {
		t.Helper()
		ev := []Evidence{{ChunkID: "parts#0", Title: "Ordering parts", Text: text}}
		lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "X200 blender specifications", "K50 kettle descaling", "Extra charges apply to express delivery", "Buy a jug online", "repair centre move")
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(fakeFormer{fakeDefiner{fakeTaxonomy{fakeThesaurus{"extra": {"spare"}}, nil}, nil}, forms})
		b.Compound = compound
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	bound := "You can buy spare parts for the X200, such as a jug, from our shop."
	compounds := map[string][]string{"spare_parts": {"spare part"}, "spare_part": {"spare part"}}
	if r := judge(false, bound, compounds); !r.Assessment.Sufficient || !strings.Contains(r.Assessment.Reason, `"extra" as "spare"`) {
		t.Fatalf("Compound off: %+v, want accepted reading \"extra\" as \"spare\" (the test no longer shows the credit)", r.Assessment)
	}
	if r := judge(true, bound, compounds); r.Assessment.Sufficient {
		t.Errorf("v33: %+v, want refused (\"spare\" only in \"spare parts\")", r.Assessment)
	}
	if r := judge(true, "You can buy a spare jug for the X200 from our shop, and spare parts too.", compounds); !r.Assessment.Sufficient {
		t.Errorf("v33, \"spare\" written outside the compound too: %+v, want accepted", r.Assessment)
	}
	if r := judge(true, bound, nil); !r.Assessment.Sufficient {
		t.Errorf("v33, no compound listed: %+v, want accepted", r.Assessment)
	}
}
