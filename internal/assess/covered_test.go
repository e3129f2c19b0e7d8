package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// coveredCorpus: a warranty page stating what the cover leaves out, a
// page on appliances abroad, and pages about other things.
var coveredCorpus = []Evidence{
	{ChunkID: "warranty#0", Title: "Warranty terms", Text: "Every Hollin appliance has a 2-year warranty from the date of purchase. The warranty covers manufacturing faults. It does not cover blade wear, cracked jars, limescale damage or accidental damage."},
	{ChunkID: "abroad#0", Title: "Using appliances abroad", Text: "Hollin appliances are made for UK 230 V sockets. Using one with a voltage converter abroad is not covered by the warranty."},
	{ChunkID: "recall#0", Title: "Jar recall", Text: "Some jars made in March may crack. Stop using the jar and we will send a new one."},
	{ChunkID: "specs#0", Title: "Blender specifications", Text: "The blender has a 1200 W motor, a worktop footprint of 20 cm and a 2-litre jar."},
	{ChunkID: "repair#0", Title: "Repairs", Text: "We aim to repair an appliance within 10 working days."},
	{ChunkID: "lid#0", Title: "Lids", Text: "Lids fit every jar."},
}

// TestCovered: builtin:coverage-v56 (Builtin.Covered) decides a yes/no
// question of warranty cover by a chunk's statement of what the cover
// leaves out when it names a word of the question's scene ("cracked"),
// which every other reading refuses (the scene, "knocked off the
// worktop", is in no cover statement); a question about a thing no
// cover statement names, or asking of no cover ("a warranty repair"),
// stays refused.
func TestCovered(t *testing.T) {
	an := terms.New()
	var texts []string
	for _, e := range coveredCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	judge := func(covered bool, q string, ev ...Evidence) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.Covered = covered
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	q := "I knocked my blender off the worktop and the jar cracked - will you replace it for nothing under the warranty?"
	evs := []Evidence{coveredCorpus[0], coveredCorpus[3], coveredCorpus[2]}
	if r := judge(false, q, evs...); r.Assessment.Sufficient {
		t.Fatalf("Covered off: %+v %v, want refused (the test no longer shows the cover reading)", r.Assessment, r.Accepted)
	}
	r := judge(true, q, evs...)
	if !r.Assessment.Sufficient || len(r.Accepted) != 1 || r.Accepted[0] != "warranty#0" || !strings.Contains(r.Assessment.Reason, "cracked jars") || r.Assessment.Score < 0.55 {
		t.Errorf("Covered on: %+v %v, want accepted on warranty#0 by its exclusion", r.Assessment, r.Accepted)
	}
	if r.Usage.Model != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("model %q, want builtin:coverage-v68", r.Usage.Model)
	}
	for _, q := range []string{
		// no cover statement names a lid or anything of its scene
		"My lid snapped when the dog chewed it, is the lid under warranty?",
		// "a warranty repair" names a kind of repair: no question of cover
		"Can we fit a cheaper blade in a warranty repair to save a bit?",
	} {
		if r := judge(true, q, coveredCorpus[4], coveredCorpus[5], coveredCorpus[0]); r.Assessment.Sufficient {
			t.Errorf("%q: %+v %v, want refused", q, r.Assessment, r.Accepted)
		}
	}
	if !NewBuiltin(an, lex).Covered {
		t.Error("default Covered off, want on")
	}
}
