package assess

import (
	"strings"
	"testing"
)

// sceneCorpus is an invented toaster corpus: a care page that shares the
// scene's words, the warranty page that answers, and two more pages.
var sceneCorpus = []Evidence{
	{ChunkID: "door-care#0", Title: "Toaster door care", Text: "The toaster door can crack if the toaster falls from a shelf or a worktop. Wipe the door with a damp cloth."},
	{ChunkID: "warranty#0", Title: "Warranty terms", Text: "The warranty covers manufacturing faults for two years. Accidental damage is not covered."},
	{ChunkID: "specs#0", Title: "Z20 toaster specifications", Text: "The Z20 toaster has four slots and a 1,500 W element."},
	{ChunkID: "crumbs#0", Title: "Crumb tray", Text: "Empty the crumb tray of the toaster every week, and more often on a busy worktop."},
}

// TestScene: builtin:coverage-v21 (Builtin.Scene) weighs the words only
// the question's scene holds less, so the page that answers what is asked
// is accepted though it does not retell the scene; v20 (Scene off)
// refuses it. A question whose asking part the page does not answer is
// refused both ways, and so is one with no scene.
func TestScene(t *testing.T) {
	const scene = "my kid knocked the toaster off the shelf and the door cracked. "
	accept := scene + "is accidental damage covered?"
	b, _ := assessorOver(sceneCorpus)
	req := Request{Question: accept, Query: accept, Evidence: sceneCorpus, Groups: []string{"public"}}
	res := assessChecked(t, b, req)
	if !res.Assessment.Sufficient || len(res.Accepted) == 0 || res.Accepted[0] != "warranty#0" {
		t.Fatalf("v21: Assess(%q) = %+v, want accepted on the warranty page", accept, res)
	}
	if res.Usage.Model != BuiltinModel {
		t.Errorf("model %q, want %q", res.Usage.Model, BuiltinModel)
	}
	if !strings.Contains(res.Assessment.Reason, "Warranty terms") {
		t.Errorf("reason %q does not name the warranty page", res.Assessment.Reason)
	}
	b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
	newerIf(b, false)
	b.Gate = false
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Errorf("v20 accepts %q too (%s): the case does not test Scene", accept, res.Assessment.Reason)
	} else if res.Usage.Model != V20Model {
		t.Errorf("model %q with Scene off, want %q", res.Usage.Model, V20Model)
	}
	b.Scene = true
	for _, q := range []string{
		// what is asked is nowhere: the scene's words do not make it so
		scene + "how many slots does the crumb tray have?",
		scene + "does the warranty cover postage of the spare door?",
	} {
		req := Request{Question: q, Query: q, Evidence: sceneCorpus, Groups: []string{"public"}}
		if res := assessChecked(t, b, req); res.Assessment.Sufficient {
			t.Errorf("v21 accepted %q: %s", q, res.Assessment.Reason)
		}
	}
	// A question with no scene is weighed as before.
	q := "is accidental damage to the toaster door from a shelf covered?"
	req = Request{Question: q, Query: q, Evidence: sceneCorpus, Groups: []string{"public"}}
	v21 := assessChecked(t, b, req)
	b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
	newerIf(b, false)
	b.Gate = false
	if v20 := assessChecked(t, b, req); v20.Assessment.Score != v21.Assessment.Score || v20.Assessment.Reason != v21.Assessment.Reason {
		t.Errorf("%q with no scene: v21 %+v, v20 %+v", q, v21.Assessment, v20.Assessment)
	}
}

// TestSceneSpacing: the spaces between a question's words do not change
// v21's verdict: a scene read inside a clause ("... the door cracked how
// is ...") is found in the question whatever separates its words (before
// round 18's review, two spaces or a line break there left the scene's
// words weighing in full, and the warranty page was refused).
func TestSceneSpacing(t *testing.T) {
	b, _ := assessorOver(sceneCorpus)
	for _, q := range []string{
		"my kid knocked the toaster off the shelf and the door cracked how is accidental damage covered",
		"my kid  knocked the toaster off the shelf and the door cracked how is accidental damage covered",
		"my kid knocked the toaster off the shelf\nand the door cracked how is accidental damage covered",
	} {
		req := Request{Question: q, Query: q, Evidence: sceneCorpus, Groups: []string{"public"}}
		if res := assessChecked(t, b, req); !res.Assessment.Sufficient || res.Accepted[0] != "warranty#0" {
			t.Errorf("v21: Assess(%q) = %+v, want accepted on the warranty page", q, res.Assessment)
		}
	}
}
