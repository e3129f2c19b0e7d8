package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// fakeLinks is a fakeThesaurus that also follows WordNet's other
// pointers: word → pointer symbols → the words reached.
type fakeLinks struct {
	fakeThesaurus
	links map[string][]thesaurus.Taxon
}

func (f fakeLinks) Links(w, syms string) []thesaurus.Taxon {
	var out []thesaurus.Taxon
	for _, x := range f.links[strings.ToLower(w)] {
		if strings.IndexByte(syms, x.Pointer) >= 0 {
			out = append(out, x)
		}
	}
	return out
}

// TestAlike: builtin:coverage-v25 (Builtin.Alike) reads the question's
// "normal delivery" — a modifier no visible document uses — as the page's
// "Standard delivery" when WordNet relates "normal" to "standard" by an
// also-see or similar-to pointer through common senses of both: the
// period stated there answers it, and the reason names the reading in the
// asker's words. v24 (Alike off) reads "Standard delivery" as another kind
// of delivery and refuses, as v25 does with a relation through a rare
// sense, with another pointer, or without a thesaurus that follows them;
// and "express delivery" (no relative of "standard") stays another kind.
func TestAlike(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "parts#0", Title: "Ordering spare parts", Text: "Spare parts are sold at parts.hollin.example. Standard delivery takes 3 to 5 working days and costs £3.95."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")
	judge := func(alike bool, th Thesaurus, q string) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		if th != nil {
			b.UseThesaurus(th)
		}
		b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = alike, alike, alike, alike, alike, alike, false, alike, alike, false, alike, false, alike, alike, alike, alike, alike, alike, alike, alike, alike, codeIf(alike), aloneIf(alike), mergeIf(alike), rivalIf(alike), alike
		newerIf(b, alike)
		b.Gate = alike
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	links := func(word string, ptr byte, common, itsCommon bool) fakeLinks {
		return fakeLinks{fakeThesaurus{}, map[string][]thesaurus.Taxon{"normal": {{Word: word, Pos: 'a', Sense: 1, Common: common, Its: 1, ItsCommon: itsCommon, Pointer: ptr}}}}
	}
	q := "how many days does a spare part take to arrive with normal delivery?"
	v25 := judge(true, links("standard", '^', true, true), q)
	if !v25.Assessment.Sufficient || len(v25.Accepted) == 0 || v25.Accepted[0] != "parts#0" ||
		!strings.Contains(v25.Assessment.Reason, `reading "normal delivery" as "Standard delivery"`) || v25.Usage.Model != BuiltinModel+"+fake-1" {
		t.Errorf("v25: %+v (%s), want accepted on parts#0 reading \"normal delivery\" as \"Standard delivery\"", v25.Assessment, v25.Usage.Model)
	}
	// the modifier in marks is the same word (before round-24 rv24b
	// alike trimmed plainWord's marks only, so "*normal*" had no relative
	// and the page's "Standard delivery" read as another kind)
	for _, marked := range []string{"*normal*", "[normal]", "«normal»", "_normal_"} {
		mq := strings.Replace(q, "normal", marked, 1)
		if r := judge(true, links("standard", '^', true, true), mq); !r.Assessment.Sufficient || !strings.Contains(r.Assessment.Reason, `as "Standard delivery"`) {
			t.Errorf("%q: %+v, want accepted reading it as \"Standard delivery\"", mq, r.Assessment)
		}
	}
	if v24 := judge(false, links("standard", '^', true, true), q); v24.Assessment.Sufficient || v24.Usage.Model != V24Model+"+fake-1" {
		t.Errorf("v24: %+v (%s), want refused", v24.Assessment, v24.Usage.Model)
	}
	for name, th := range map[string]Thesaurus{
		"a rare sense of the question's word": links("standard", '^', false, true),
		"a rare sense of the page's word":     links("standard", '^', true, false),
		"a derivation, not a likeness":        links("standard", '+', true, true),
		"several words":                       links("standard issue", '&', true, true),
		"no other pointers known":             fakeThesaurus{},
		"no thesaurus":                        nil,
	} {
		if r := judge(true, th, q); r.Assessment.Sufficient {
			t.Errorf("%s: %+v, want refused", name, r.Assessment)
		}
	}
	if r := judge(true, links("standard", '&', true, true), "how many days does a spare part take to arrive with express delivery?"); r.Assessment.Sufficient {
		t.Errorf("express delivery: %+v, want refused (another kind)", r.Assessment)
	}
}
