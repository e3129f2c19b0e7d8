package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// fakeDefiner is a fakeTaxonomy that also knows the words its glosses
// define by a word.
type fakeDefiner struct {
	fakeTaxonomy
	defined map[string][]thesaurus.Taxon
}

func (f fakeDefiner) Defined(w string) []thesaurus.Taxon { return f.defined[strings.ToLower(w)] }

// TestDefined: builtin:coverage-v32 (Builtin.Defined) accepts on the
// first attempt ("how do I get you to wipe my account data", fresh5 k48's
// shape) a first chunk that holds the question's "wipe" only as
// the word WordNet defines by it ("delete": "wipe out digitally or
// magnetically recorded information"), names it in the reason, and
// reports v32; v31 (Defined off) refuses it, and so does v32 when the
// thesaurus defines nothing by "wipe", or only a word the chunk does not
// hold, or only a word that is the question's own. Without a thesaurus
// that knows its glosses v32 judges as v31.
func TestDefined(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "privacy#0", Title: "Your account data", Text: "You can ask us to delete your account data. We do it within 30 days of your request."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Wipe the jug with a damp cloth", "Delete old jobs from the repair log")
	q := "how do I get you to wipe my account data"
	judge := func(on bool, th Thesaurus) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = on, false, false, false, false, false, false, false, 0, 0, 0, 0, false // v32 (v33's readings: TestGloss)
		newerIf(b, false)
		b.Gate = false
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	definer := func(words ...string) fakeDefiner {
		var xs []thesaurus.Taxon
		for _, w := range words {
			xs = append(xs, thesaurus.Taxon{Word: w, Pos: 'v', Its: 1, ItsCommon: true, Pointer: 'g'})
		}
		return fakeDefiner{fakeTaxonomy{fakeThesaurus{}, nil}, map[string][]thesaurus.Taxon{"wipe": xs}}
	}
	v32 := judge(true, definer("delete"))
	if !v32.Assessment.Sufficient || v32.Assessment.Score < 0.5 || len(v32.Accepted) == 0 || v32.Accepted[0] != "privacy#0" ||
		!strings.Contains(v32.Assessment.Reason, `reading "wipe" as "delete", a word defined by it`) || v32.Usage.Model != V32Model+"+fake-1" || V32Model != "builtin:coverage-v32" {
		t.Errorf("v32: %+v (%s), want accepted on privacy#0 reading \"wipe\" as \"delete\", a word defined by it", v32.Assessment, v32.Usage.Model)
	}
	if v31 := judge(false, definer("delete")); v31.Assessment.Sufficient || v31.Usage.Model != V31Model+"+fake-1" {
		t.Errorf("v31: %+v (%s), want refused", v31.Assessment, v31.Usage.Model)
	}
	for name, th := range map[string]Thesaurus{
		"nothing defined by the word":     definer(),
		"a word the chunk lacks":          definer("erase"),
		"the question's own word":         definer("account"),
		"a thesaurus that knows no gloss": fakeTaxonomy{fakeThesaurus{}, nil},
	} {
		if r := judge(true, th); r.Assessment.Sufficient {
			t.Errorf("%s: %+v, want refused", name, r.Assessment)
		}
	}
}
