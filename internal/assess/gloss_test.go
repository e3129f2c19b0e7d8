package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// fakeFormer is a fakeDefiner that also knows words' base forms.
type fakeFormer struct {
	fakeDefiner
	forms map[string][]string
}

func (f fakeFormer) BaseForms(w string) []string { return f.forms[strings.ToLower(w)] }
func (f fakeFormer) Senses(string) int           { return 1 }

// TestGloss: builtin:coverage-v33 (Builtin.Genus, Builtin.Spelled) takes
// v32's word defined by a question word ("delete" for "wipe") only when
// the definition reads as about what the question or the chunk is and the
// chunk writes the word. Against one chunk and one question ("how do I
// get you to wipe my account data", fresh5 k48's shape), each case is
// judged by v32 (accepts: the case shows v32's reading) and v33:
//
//   - the defining verb's object ("information") held through a word
//     related to it ("data", in the question and the chunk): v33 accepts;
//   - an object nothing the question or the chunk holds relates to
//     ("bill", fresh10 t80's "send an bill to"): v33 refuses, and so it
//     does when only the defined word itself relates to the object,
//     either way (the chunk's "delete" standing for "bill");
//   - a head that only modifies the defining noun (Modifier: "extra" for
//     "spare", "an extra component"): v33 refuses;
//   - a chunk holding the defined word's stem only in another word
//     ("deletion": SciFact 1316's "importance" for "import"): v33
//     refuses; with "deleted" (a form of "delete") it accepts.
func TestGloss(t *testing.T) {
	an := terms.New()
	q := "how do I get you to wipe my account data"
	type tc struct {
		name   string
		text   string
		x      thesaurus.Taxon
		rel    map[string][]string
		forms  map[string][]string
		v33    bool
		reason string
	}
	del := thesaurus.Taxon{Word: "delete", Pos: 'v', Its: 1, ItsCommon: true, Pointer: 'g'}
	with := func(f func(x *thesaurus.Taxon)) thesaurus.Taxon { x := del; f(&x); return x }
	deleteText := "You can ask us to delete your account data. We do it within 30 days of your request."
	forms := map[string][]string{"delete": {"delete"}, "deleted": {"deleted", "delete"}, "deletion": {"deletion"}}
	for _, c := range []tc{
		{"object held through a related word", deleteText, with(func(x *thesaurus.Taxon) { x.Object = "information" }),
			map[string][]string{"data": {"information"}}, forms, true, `reading "wipe" as "delete", a word defined by it`},
		{"object related the other way", deleteText, with(func(x *thesaurus.Taxon) { x.Object = "information" }),
			map[string][]string{"information": {"data"}}, forms, true, `reading "wipe" as "delete", a word defined by it`},
		{"object not held", deleteText, with(func(x *thesaurus.Taxon) { x.Object = "bill" }),
			map[string][]string{"bill": {"invoice"}}, forms, false, ""},
		{"object held only through the defined word", deleteText, with(func(x *thesaurus.Taxon) { x.Object = "bill" }),
			map[string][]string{"bill": {"delete"}}, forms, false, ""},
		{"object held only through the defined word, related the other way", deleteText, with(func(x *thesaurus.Taxon) { x.Object = "bill" }),
			map[string][]string{"delete": {"bill"}}, forms, false, ""}, // rv31
		{"head only a modifier", deleteText, with(func(x *thesaurus.Taxon) { x.Modifier = true }), nil, forms, false, ""},
		{"no object, no modifier", deleteText, del, nil, forms, true, `reading "wipe" as "delete", a word defined by it`},
		{"the stem in another word", "You can ask for the deletion of your account data. We do it within 30 days of your request.", del, nil, forms, false, ""},
		{"a form of the word", "Your account data is deleted within 30 days of your request. You can ask us to.", del, nil, forms, true, `reading "wipe" as "delete", a word defined by it`},
	} {
		ev := []Evidence{{ChunkID: "privacy#0", Title: "Your account data", Text: c.text}}
		lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Wipe the jug with a damp cloth", "Delete old jobs from the repair log")
		th := fakeFormer{fakeDefiner{fakeTaxonomy{fakeThesaurus(c.rel), nil}, map[string][]thesaurus.Taxon{"wipe": {c.x}}}, c.forms}
		judge := func(v33 bool) Result {
			t.Helper()
			b := NewBuiltin(an, lex)
			b.Rewriter = NewRewriter(an, lex)
			b.UseThesaurus(th)
			b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = v33, v33, v33, false, false, false, false, 0, 0, 0, 0, false
			newerIf(b, false)
			b.Gate = false
			res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if v32 := judge(false); !v32.Assessment.Sufficient || v32.Usage.Model != V32Model+"+fake-1" {
			t.Errorf("%s: v32 %+v (%s), want accepted (the case no longer shows v32's reading)", c.name, v32.Assessment, v32.Usage.Model)
			continue
		}
		v33 := judge(true)
		if v33.Usage.Model != V33Model+"+fake-1" || V33Model != "builtin:coverage-v33" {
			t.Errorf("%s: model %s, want builtin:coverage-v33+fake-1", c.name, v33.Usage.Model)
		}
		if v33.Assessment.Sufficient != c.v33 || c.v33 && !strings.Contains(v33.Assessment.Reason, c.reason) {
			t.Errorf("%s: v33 %+v, want sufficient %v (%s)", c.name, v33.Assessment, c.v33, c.reason)
		}
	}
}
