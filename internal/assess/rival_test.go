package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// rivalIf is builtin:coverage-v43's Rival when on, else 0 (for the
// tests that set an older model).
func rivalIf(on bool) int {
	if on {
		return rivalV43
	}
	return 0
}

// Rival's test pages: a blade page ranked first that holds the question's
// "blades" and "worn" and an instruction, and the warranty terms below it
// that say what the warranty does not cover.
var (
	rivalBlades   = Evidence{ChunkID: "blades#0", Title: "X200 blade assembly", Text: "A grinding noise, or food left in chunks, usually means the blades are worn. Replace the blade assembly, part BLD-X200, about once a year with daily use."}
	rivalWarranty = Evidence{ChunkID: "warranty#0", Title: "Warranty terms (2026)", Text: "Every Hollin appliance has a 2-year warranty from the date of purchase. Blender motors on the X200 and X300 Pro are covered for 5 years. The warranty covers manufacturing faults. It does not cover blade wear, cracked jars, limescale damage or accidental damage. You need proof of purchase to claim."}
	rivalWater    = Evidence{ChunkID: "water#0", Title: "Hard water and limescale", Text: "In hard-water areas, descale kettles and coffee machines more often. Limescale damage is not covered by the warranty."}
)

// rivalJudge judges q on ev with Rival set to a value (v42 when 0), with a
// thesaurus relating "worn" to "wear".
func rivalJudge(t *testing.T, rival int, q string, ev ...Evidence) Result {
	t.Helper()
	an := terms.New()
	var docs []string
	for _, e := range []Evidence{rivalBlades, rivalWarranty, rivalWater} {
		docs = append(docs, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, append(docs, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")...)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	b.UseThesaurus(fakeThesaurus{"worn": {"wear", "wearing"}})
	b.Rival = rival
	b.Covered = rival != 0 // v56 is newer than Rival: off for v42
	b.Status = rival != 0  // v68 too
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRival: "are blades that have worn down covered under the warranty?"
// (a design question's shape, fresh8 p55): v42 accepts the blade page
// (it holds "blades", "worn" and an instruction, "replace the", at 0.56;
// the coverage rules score it above the warranty terms, which lack
// "worn" as written); judged alone the warranty terms below it cover the
// question's words in their forms ("wear") and state what is not
// covered, at 1.00, so v43 accepts them, its reason saying so. With the
// margin above the blade page's own score not met (the blade page alone),
// or Rival 0, nothing changes.
func TestRival(t *testing.T) {
	q := "are blades that have worn down covered under the warranty?"
	old := rivalJudge(t, 0, q, rivalBlades, rivalWarranty, rivalWater)
	if !old.Assessment.Sufficient || len(old.Accepted) == 0 || old.Accepted[0] != "blades#0" {
		t.Fatalf("v42: %+v %v, want accepted on blades#0", old.Assessment, old.Accepted)
	}
	r := rivalJudge(t, rivalV43, q, rivalBlades, rivalWarranty, rivalWater)
	if !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "warranty#0" || r.Assessment.Score <= old.Assessment.Score+rivalBy ||
		!strings.HasPrefix(r.Assessment.Reason, "judged alone, the chunk ranked ") || !strings.Contains(r.Assessment.Reason, `covers more of the question than "X200 blade assembly"`) {
		t.Errorf("v43: %+v %v, want accepted on warranty#0", r.Assessment, r.Accepted)
	}
	if r.Usage.Model != BuiltinModel+"+fake-1" {
		t.Errorf("model %q", r.Usage.Model)
	}
	if r := rivalJudge(t, rivalV43, q, rivalBlades, rivalWater); len(r.Accepted) == 0 || r.Accepted[0] != "blades#0" {
		t.Errorf("v43 without the warranty page: %+v %v, want accepted on blades#0", r.Assessment, r.Accepted)
	}
	if r := rivalJudge(t, rivalV43, "how often should the blades be replaced?", rivalBlades, rivalWarranty); len(r.Accepted) == 0 || r.Accepted[0] != "blades#0" {
		t.Errorf("v43, a question the blade page answers: %+v %v, want accepted on blades#0", r.Assessment, r.Accepted)
	}
}

// TestRivalModel: builtin:coverage-v43 is v42 with Rival (rank 4, every
// guard); 0 is v42 (kept selectable); another value names itself.
func TestRivalModel(t *testing.T) {
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if b.Rival != rivalV43 || rivalV43 != 4|rivalWhole|rivalOwn|rivalMargin || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Rival %d, model %q, want %d and builtin:coverage-v68", b.Rival, b.Model(), rivalV43)
	}
	v47If(b, false)
	if b.Rival, b.ClassFree, b.Agree, b.Places, b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = 0, false, 0, 0, false, false, false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V42Model {
		t.Errorf("model %q with Rival 0, want %s", b.Model(), V42Model)
	}
	v47If(b, true)
	if b.Rival, b.ClassFree, b.Agree, b.Places, b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = 4, true, agreeV45, placesV48, true, true, true, true, true, true, true, true, true, true, true, countsV59, true, reviewV61, true, true, true, true; b.Model() != BuiltinModel+"-rival4" {
		t.Errorf("model %q with Rival 4, want %s-rival4", b.Model(), BuiltinModel)
	}
}

// TestRivalMargin: "how regularly does the smart kettle need descaling?
// we're in a soft water area" (design question fresh10 t21, on the Hollin
// corpus and its hits): the kettle page, which states its own descaling
// interval, is accepted; the hard-water page judged alone scores higher,
// by less than rivalBy, so v43 keeps the kettle page; without the margin
// the hard-water page (about hard water, not this kettle) is taken.
func TestRivalMargin(t *testing.T) {
	b, docs := hollinDocs(t)
	var ev []Evidence
	for _, id := range []string{"man-k50-kettle", "faq-hard-water", "man-x200-cleaning", "pol-registration", "pol-warranty-2026"} {
		ev = append(ev, docs[id])
	}
	q := "how regularly does the smart kettle need descaling? we're in a soft water area"
	judge := func(rival int) Result {
		t.Helper()
		b.Rival = rival
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	on := func(r Result) string {
		if !r.Assessment.Sufficient || len(r.Accepted) == 0 {
			return ""
		}
		return r.Accepted[0]
	}
	if r := judge(0); on(r) != "man-k50-kettle#0" {
		t.Fatalf("v42: %+v %v, want accepted on man-k50-kettle#0", r.Assessment, r.Accepted)
	}
	if r := judge(rivalV43); on(r) != "man-k50-kettle#0" {
		t.Errorf("v43: %+v %v, want accepted on man-k50-kettle#0", r.Assessment, r.Accepted)
	}
	if r := judge(rivalV43 &^ rivalMargin); on(r) != "faq-hard-water#0" {
		t.Errorf("v43 without the margin: %+v %v, want accepted on faq-hard-water#0 (the case the margin is for)", r.Assessment, r.Accepted)
	}
}
