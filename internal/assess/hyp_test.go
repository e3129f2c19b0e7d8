package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// fakeTaxonomy is a fakeThesaurus that also knows hypernyms and hyponyms.
type fakeTaxonomy struct {
	fakeThesaurus
	taxa map[string][]thesaurus.Taxon
}

func (f fakeTaxonomy) Taxa(w string) []thesaurus.Taxon { return f.taxa[strings.ToLower(w)] }

// TestHyp: builtin:coverage-v24 (Builtin.Hyp) accepts on the first
// attempt a first chunk that holds a question word only through a direct
// hypernym ("erased" → "delete"), names it in the reason with the
// relation, and reports v24; v23 (Hyp off) refuses it, as v24 does when
// the relation leaves from a sense of the question word that is no common
// one, or reaches one of the chunk word's that is not, or when the
// hypernym is several words. Without a thesaurus that knows hypernyms, v24
// judges as v23.
func TestHyp(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "privacy#0", Title: "Your account data", Text: "We delete your account data within 30 days of your request."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Erased jobs in the repair log")
	q := "how long until my data is erased"
	judge := func(hyp bool, th Thesaurus) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = hyp, hyp, hyp, hyp, hyp, hyp, hyp, false, hyp, hyp, false, hyp, false, hyp, hyp, hyp, hyp, hyp, hyp, hyp, hyp, hyp, codeIf(hyp), aloneIf(hyp), mergeIf(hyp), rivalIf(hyp), hyp
		newerIf(b, hyp)
		b.Gate = hyp
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	taxon := func(word string, common, itsCommon bool) fakeTaxonomy {
		return fakeTaxonomy{fakeThesaurus{}, map[string][]thesaurus.Taxon{"erased": {{Word: word, Broader: true, Pos: 'v', Sense: 1, Common: common, Its: 1, ItsCommon: itsCommon}}}}
	}
	v24 := judge(true, taxon("delete", true, true))
	if !v24.Assessment.Sufficient || v24.Assessment.Score < 0.5 || len(v24.Accepted) == 0 || v24.Accepted[0] != "privacy#0" ||
		!strings.Contains(v24.Assessment.Reason, `reading "erased" as "delete", a broader word`) || v24.Usage.Model != BuiltinModel+"+fake-1" {
		t.Errorf("v24: %+v (%s), want accepted on privacy#0 reading \"erased\" as \"delete\", a broader word", v24.Assessment, v24.Usage.Model)
	}
	if v23 := judge(false, taxon("delete", true, true)); v23.Assessment.Sufficient || v23.Usage.Model != V23Model+"+fake-1" {
		t.Errorf("v23: %+v (%s), want refused", v23.Assessment, v23.Usage.Model)
	}
	for name, th := range map[string]Thesaurus{
		"a rare sense of the question word": taxon("delete", false, true),
		"a rare sense of the chunk's word":  taxon("delete", true, false),
		"several words":                     taxon("delete data", true, true),
		"no hypernyms known":                fakeThesaurus{},
	} {
		if r := judge(true, th); r.Assessment.Sufficient {
			t.Errorf("%s: %+v, want refused", name, r.Assessment)
		}
	}
}

// TestHypLeavesNumbersAndShortTokens: v24 reads no question word holding
// a digit or of fewer than three letters through a hypernym. WordNet
// knows such tokens as numbers, letters, symbols and abbreviations, most
// with no tagged use, so their first sense passes for a common one: "2"
// is a kind of "digit", "pm" of "metal" (promethium) and of
// "examination" (post-mortem), "eu" of "metal" (europium). Before the
// fix "how do I reset jug 2" and "how do I reset it at 5 pm" were
// accepted on a page of reset codes "reading "2" as "digit"" and
// "reading "pm" as "metal"". A word of three letters or more is still
// read ("erased" as "delete", TestHyp).
func TestHypLeavesNumbersAndShortTokens(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "codes#0", Title: "Reset codes", Text: "Hold the reset button on the metal base for 10 seconds, then enter the 4-digit code."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "Jug 2 of the X300 Pro blender", "repair centre move at 5 pm", "Erased jobs in the repair log")
	broader := func(word string) []thesaurus.Taxon {
		return []thesaurus.Taxon{{Word: word, Broader: true, Pos: 'n', Sense: 1, Common: true, Its: 1, ItsCommon: true}}
	}
	fake := fakeTaxonomy{fakeThesaurus{}, map[string][]thesaurus.Taxon{"2": broader("digit"), "pm": broader("metal")}}
	ths := map[string]Thesaurus{"fake": fake}
	if wn, err := thesaurus.Open(thesaurus.DefaultDir); err == nil {
		ths["wordnet"] = wn // the readings above are WordNet's
	}
	for name, th := range ths {
		for _, q := range []string{"how do I reset jug 2", "how do I reset it at 5 pm"} {
			if a := assessFirst(t, an, lex, th, ev, q).Assessment; a.Sufficient || strings.Contains(a.Reason, "a broader word") {
				t.Errorf("%s: %q: %v %q, want refused, no word read through a hypernym", name, q, a.Sufficient, a.Reason)
			}
		}
	}
}

// TestHypReadsWordsInAnyMarks: v24 reads a question word through a
// hypernym whatever marks stand around it: before round 23 only
// plainWord's (",.?!;:" quotes, brackets) were trimmed, so "erased…",
// "*erased*", "[erased]" and "«erased»" were looked up as they stand,
// found nothing, and the page TestHyp accepts for "erased?" was refused.
func TestHypReadsWordsInAnyMarks(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "privacy#0", Title: "Your account data", Text: "We delete your account data within 30 days of your request."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Erased jobs in the repair log")
	th := fakeTaxonomy{fakeThesaurus{}, map[string][]thesaurus.Taxon{"erased": {{Word: "delete", Broader: true, Pos: 'v', Sense: 1, Common: true, Its: 1, ItsCommon: true}}}}
	for _, q := range []string{"how long until my data is erased?", "how long until my data is erased…", "how long until my data is *erased*", "how long until my data is [erased]", "how long until my data is «erased»"} {
		// (the reason quotes the word as the question writes it, as
		// v23's relatives do: wordFor)
		if a := assessFirst(t, an, lex, th, ev, q).Assessment; !a.Sufficient || !strings.Contains(a.Reason, `erased`) || !strings.Contains(a.Reason, `as "delete", a broader word`) {
			t.Errorf("%q: %v %q, want accepted reading erased as \"delete\"", q, a.Sufficient, a.Reason)
		}
	}
}

// assessFirst is the default builtin assessor's (v24's) judgement of q's
// first attempt on ev, with lex's vocabulary and rewriter and thesaurus th.
func assessFirst(t *testing.T, an *terms.Analyzer, lex *lexicon, th Thesaurus, ev []Evidence, q string) Result {
	t.Helper()
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	b.UseThesaurus(th)
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
