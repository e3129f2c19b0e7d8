package assess

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/wire"
)

var classifyFor = answertype.Classify

// answersEvidence adds to hollinLike a page that gives a part number and
// one that names the model number, so "part" and "model" are words the
// visible corpus uses.
var answersEvidence = []Evidence{
	{ChunkID: "man-x200-blades#0", Title: "X200 blade assembly", Text: "Replace the blade assembly, part BLD-X200, about once a year with daily use."},
	{ChunkID: "man-x200-specs#0", Title: "X200 Blender specifications", Text: "The X200 blender has a 1,200 W motor. Model number HL-X200-UK."},
	{ChunkID: "sb-112#0", Title: "SB-112: X300 Pro pump replacement", Text: "If E12 returns, replace the vacuum pump, part PMP-X300. Allow 35 minutes of labour."},
}

func newAnswersAssessor() *Builtin {
	b, lex := newTestAssessor()
	for _, e := range answersEvidence {
		lex.add(b.an, []string{"public"}, e.Title+"\n"+e.Text)
	}
	return b
}

// TestAnswersChecks: builtin:coverage-v9 refuses a chunk that only looks
// like an answer (the answer repeats the question, a code of another kind
// than the one asked, a thing asked about that no visible document
// mentions) and still accepts the chunk that answers. Every refused case
// is accepted by builtin:coverage-v8 (Answers off): the case tests v9.
func TestAnswersChecks(t *testing.T) {
	tests := []struct {
		name, question string
		evidence       []Evidence
		want           bool
		reason         string // in the reason when refused
		plain          bool   // over hollinLike alone: "model" and "number" are words no visible chunk uses
	}{
		{"the answer repeats the question", "What's the model number of the K50 kettle?", hollinLike[2:3], false, "", true},
		{"an error code is no part number", "What's the part number for the X300 Pro's vacuum pump?", hollinLike[3:4], false, "", false},
		{"the part number is given", "What's the part number for the X300 Pro's vacuum pump?", []Evidence{hollinLike[3], answersEvidence[2]}, true, "", false},
		{"a part number of another part is still a part number", "what's the part number for a new set of X200 blades", answersEvidence[:1], true, "", false},
		{"the model number is given", "What's the model number of the X200?", answersEvidence[1:2], true, "", false},
		{"no visible document mentions the thing asked about", "My K50 switches itself off before the water's boiled. Is there a firmware update that sorts it?", hollinLike[2:3], false, `whether there is "a firmware update"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newAnswersAssessor()
			if tt.plain {
				b, _ = newTestAssessor()
			}
			req := Request{Question: tt.question, Query: tt.question, Evidence: tt.evidence, Groups: []string{"public"}}
			res := assessChecked(t, b, req)
			if res.Assessment.Sufficient != tt.want {
				t.Fatalf("Assess(%q) = %+v, want sufficient %v", tt.question, res.Assessment, tt.want)
			}
			if res.Usage.Model != BuiltinModel {
				t.Errorf("model %q, want %q", res.Usage.Model, BuiltinModel)
			}
			if tt.want && (len(res.Accepted) == 0 || !slices.ContainsFunc(tt.evidence, func(e Evidence) bool { return e.ChunkID == res.Accepted[0] })) {
				t.Errorf("accepted on %v, want a chunk of the evidence", res.Accepted)
			}
			if !tt.want && len(res.Accepted) > 0 {
				t.Errorf("refused but accepted on %v", res.Accepted)
			}
			if tt.reason != "" && !strings.Contains(res.Assessment.Reason, tt.reason) {
				t.Errorf("reason %q does not say %q", res.Assessment.Reason, tt.reason)
			}
			if tt.want {
				return
			}
			b.Answers = false
			res = assessChecked(t, b, req)
			if !res.Assessment.Sufficient {
				t.Errorf("with the answer checks off, %q is refused too (%s): the case does not test v9", tt.question, res.Assessment.Reason)
			}
			if want := BuiltinModel + "-noanswers"; res.Usage.Model != want {
				t.Errorf("model %q with the answer checks off, want %q", res.Usage.Model, want)
			}
		})
	}
}

// TestAbsentThing: the thing a question asks whether there is, when no
// visible chunk uses a word of it; none when one does, or when the
// question asks no such thing.
func TestAbsentThing(t *testing.T) {
	b := newAnswersAssessor()
	vocab := b.corpus.Visible([]string{"public"})
	for q, want := range map[string]string{
		"Is there a firmware update that sorts it?":         "a firmware update",
		"My K50 is slow. Are there any discounts for me?":   "any discounts",
		"Is there a vacuum mode on the X300 Pro?":           "",
		"Is there a fee for the repair?":                    "a fee",
		"Is there any descaling to do on the K50?":          "",
		"How often should I descale the K50?":               "",
		"There is a crack in my jar. Can I still use it?":   "",
		"is there anything i can do about the vacuum pump?": "",
	} {
		if got := b.absentThing(q, vocab); got != want {
			t.Errorf("absentThing(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestRepeats: an expression the question itself holds repeats it, one
// it lacks does not; yes/no and instruction answers never repeat.
func TestRepeats(t *testing.T) {
	b := newAnswersAssessor()
	vocab := b.corpus.Visible([]string{"public"})
	q := "What's the model number of the K50 kettle?"
	r := &reading{named: normalised(q)}
	for expr, want := range map[string]bool{"K50": true, "k50": true, "HL-X200-UK": false, "K5": false} {
		if got := r.repeats(classifyFor(q), expr); got != want {
			t.Errorf("repeats(%q) = %v, want %v", expr, got, want)
		}
	}
	yn := "Can I descale the K50?"
	r = &reading{named: normalised(yn)}
	if r.repeats(classifyFor(yn), "descale") {
		t.Errorf("a yes/no answer repeats its question's verb")
	}
	if got := b.codeNouns("What number do I ring?", classifyFor("What number do I ring?"), vocab); !slices.Equal(got, []string{"number"}) {
		t.Errorf("codeNouns = %v, want [number]", got)
	}
	if got := b.codeNouns("what's the phone number for support", classifyFor("what's the phone number for support"), vocab); !slices.Equal(got, []string{"number"}) {
		t.Errorf("codeNouns with a word before the noun no visible chunk uses = %v, want [number]", got)
	}
	plain, _ := newTestAssessor()
	if got := plain.codeNouns("What number do I ring?", classifyFor("What number do I ring?"), plain.corpus.Visible([]string{"public"})); got != nil {
		t.Errorf("codeNouns of a number no visible chunk uses = %v, want none", got)
	}
	if got := b.codeNouns("what's the part number for the X200 blades", classifyFor("what's the part number for the X200 blades"), vocab); !slices.Equal(got, []string{"part"}) {
		t.Errorf("codeNouns = %v, want [part]", got)
	}
}

// TestQueried: a spelling correction counts for judging only once the
// attempt's query carries it.
func TestQueried(t *testing.T) {
	b := newAnswersAssessor()
	q := "how often should I descael the K50"
	spelled, fixed := b.Rewriter.Spell(context.Background(), q, b.corpus.Visible([]string{"public"}), nil, wire.Filters{})
	if len(fixed) == 0 {
		t.Fatalf("Spell(%q) corrects nothing: the test needs a correction", q)
	}
	if got := b.queried(q, spelled, q); got != q {
		t.Errorf("first attempt: queried = %q, want the question as typed", got)
	}
	if got := b.queried(q, spelled, spelled); got != spelled {
		t.Errorf("after the spelling rewrite: queried = %q, want %q", got, spelled)
	}
	if got := b.queried(q, spelled, "K50 descale monthly"); got != spelled {
		t.Errorf("a query carrying the correction: queried = %q, want %q", got, spelled)
	}
}

// A misspelt thing is not absent: the spelling-corrected reading finds
// the word the visible corpus uses, so the reason does not say no
// document mentions it, and a rewrite is still proposed.
func TestAbsentThingMisspelt(t *testing.T) {
	b := newAnswersAssessor()
	b.Answers = true
	res := assessChecked(t, b, Request{Question: "Is there a vaccum on the X300 Pro?", Query: "Is there a vaccum on the X300 Pro?", Groups: []string{"public"}, Evidence: hollinLike[1:2]})
	if strings.Contains(res.Assessment.Reason, "which no document you can see mentions") {
		t.Errorf("a misspelt word read as absent: %q", res.Assessment.Reason)
	}
}
