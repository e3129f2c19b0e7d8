package assess

import (
	"context"
	"strings"
	"testing"
)

// TestFocusReading: builtin:coverage-v8 accepts a chunk the coverage rules
// refuse when it answers what the clause that asks asks (a scene the
// documents do not describe, words they do not use), and still refuses
// when a word the documents use elsewhere is missing, when an entity is
// missing, when no answer of the expected type is there, and when a
// question expecting no particular type holds a word no document uses.
// Each case is also run with the focus reading off, and the accepted
// ones must then be refused: the case tests the focus reading.
func TestFocusReading(t *testing.T) {
	tests := []struct {
		name, question string
		evidence       []Evidence
		want           bool
	}{
		{"scene and unknown words left out", "I make smoothies every morning in my kitchen - how often should I descale my K50?", hollinLike[2:3], true},
		{"unknown scene name left out", "We're moving to Portugal next spring with the kettle. How often should I descale my K50?", hollinLike[2:3], true},
		{"a word the corpus uses elsewhere is missing", "how often should I descale the X300 Pro", hollinLike[1:2], false},
		{"an entity of the clause that asks is missing", "how often should I descale the K70", hollinLike[2:3], false},
		{"an entity of the scene the corpus knows is missing", "My X300 Pro is new. How often should I descale it?", hollinLike[2:3], false},
		{"no answer of the expected type", "I fill it every morning - how much does a K50 weigh in kilos?", hollinLike[2:3], false},
		{"no particular type, an unknown word asked", "I have a K50 at home - what wattage does the K50 kettle draw?", hollinLike[2:3], false},
		// v18 judges the chunk the question's words match best, wherever
		// it was retrieved (v17 read the first only: TestOwnOrder).
		{"the chunk the question matches best, retrieved second", "I make smoothies every morning in my kitchen - how often should I descale my K50?", []Evidence{hollinLike[1], hollinLike[2]}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := newTestAssessor()
			b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // the focus reading as v8 made it (v21 weighs the scene less in the coverage rules: TestScene)
			newerIf(b, false)
			b.Gate = false
			b.Sentence = false // v12's sentence reading reads the second chunk (TestSentenceReading)
			req := Request{Question: tt.question, Query: tt.question, Evidence: tt.evidence, Groups: []string{"public"}}
			res := assessChecked(t, b, req)
			if res.Assessment.Sufficient != tt.want {
				t.Errorf("Assess(%q) = %+v, want sufficient %v", tt.question, res.Assessment, tt.want)
			}
			if tt.want && !strings.Contains(res.Assessment.Reason, "clause that asks") {
				t.Errorf("reason %q does not say the focus reading accepted", res.Assessment.Reason)
			}
			b.Focus = false
			res = assessChecked(t, b, req)
			if res.Assessment.Sufficient {
				t.Errorf("with the focus reading off, %q is accepted too (%s): the case does not test it", tt.question, res.Assessment.Reason)
			}
			if want := BuiltinModel + "-nofocus-nosentence-noscene-nostates-nokin-nohyp-noalike-novalued-noclass-nogeneral-nobound-noperiodof-noelsewhere-nostreetaddress-nopayer-nosamekind-nodefined-nogenus-nospelled-nocompound-noact-noframe-nokind-notagged-nocodeterm-noalone-nogate-nomerged-norival-noclassfree-noagree-nosides-nomeasure-nolisted-noplaces-nomatter-norates-noparts-noruled-nomeasured-nosituated-nolistedclause-nocovered-nofollow-notimed-noevery-nocounts-noopposite-noreview-nolearned-nolearnedcover-noveto-nostatus"; res.Usage.Model != want {
				t.Errorf("model %q with the focus and sentence readings off, want %q", res.Usage.Model, want)
			}
		})
	}
}

// TestFocusComparison: a comparison is judged on the first chunk naming
// each entity, together.
func TestFocusComparison(t *testing.T) {
	b, _ := newTestAssessor()
	ev := []Evidence{
		{ChunkID: "a#0", Title: "X300 Pro error codes", Text: "E4 means the vacuum lid seal is loose."},
		{ChunkID: "b#0", Title: "X200 error codes", Text: "E4 means the jar lid is not locked."},
	}
	q := "I own both at home and at the office - does the E4 code mean something different on the X200 than on the X300 Pro?"
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, "with") {
		t.Errorf("Assess(%q) = %+v, want both chunks accepted together", q, res.Assessment)
	}
	res, err = b.Assess(context.Background(), Request{Question: q, Query: q, Evidence: ev[:1], Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Assessment.Sufficient {
		t.Errorf("Assess(%q) on the X300 Pro's codes alone = %+v, want refused", q, res.Assessment)
	}
}

// assessChecked assesses req with b, failing the test on an error and
// reporting an assessment that fails its own check.
func assessChecked(t *testing.T, b *Builtin, req Request) Result {
	t.Helper()
	res, err := b.Assess(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Assessment.Check(); err != nil {
		t.Errorf("assessment fails its own check: %v", err)
	}
	return res
}
