package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// statusAssessor is the default assessor on Rival's pages and thesaurus
// (rival.go's test) and the recall notice, public, with staffOnly's pages
// added for the staff group.
func statusAssessor(staffOnly ...string) *Builtin {
	an := terms.New()
	var docs []string
	for _, e := range []Evidence{rivalBlades, rivalWarranty, rivalWater, statusRecall} {
		docs = append(docs, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, append(docs, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")...)
	for _, s := range staffOnly {
		lex.add(an, []string{"staff"}, s)
	}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	b.UseThesaurus(fakeThesaurus{"worn": {"wear", "wearing"}})
	return b
}

// statusJudge judges q on ev for a public asker with Status as on.
func statusJudge(t *testing.T, on bool, q string, ev ...Evidence) Result {
	t.Helper()
	b := statusAssessor()
	b.Status = on
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var statusRecall = Evidence{ChunkID: "recall#0", Title: "Safety notice: X200 jar recall", Text: "X200 jars from batch B-2291 may crack when used with hot liquids. Stop using the jar and order a free replacement at hollin.example/recall. The batch number is printed on the base of the jar."}

// TestStatus (builtin:coverage-v68): "Are blunt blades something the
// guarantee will replace?" (design question fresh9 r60): v65 accepts the
// blade page ranked first ("replace the" near "blades"), which states no
// rule about blades nor cover; v68 accepts the warranty terms ranked
// below it, whose "It does not cover blade wear" decides the question
// ("guarantee" before the modal "will" asks of cover). The acceptance
// stands when the accepted page states a rule of the question's thing
// or asked verb (the recall notice's "order a free replacement" for
// "will you replace my cracked X200 jar for free"), and when no
// retrieved page states a status (no warranty page).
func TestStatus(t *testing.T) {
	q := "Are blunt blades something the guarantee will replace?"
	on := func(r Result) string {
		if !r.Assessment.Sufficient || len(r.Accepted) == 0 {
			return ""
		}
		return r.Accepted[0]
	}
	if r := statusJudge(t, false, q, rivalBlades, statusRecall, rivalWater, rivalWarranty); on(r) != "blades#0" {
		t.Fatalf("v65: %+v %v, want accepted on blades#0 (the test no longer shows the fault)", r.Assessment, r.Accepted)
	}
	r := statusJudge(t, true, q, rivalBlades, statusRecall, rivalWater, rivalWarranty)
	if on(r) != "warranty#0" || !strings.Contains(r.Assessment.Reason, "blade wear") || !strings.Contains(r.Assessment.Reason, "which states no status of the asked action") {
		t.Errorf("v68: %+v %v, want accepted on warranty#0 for its cover statement", r.Assessment, r.Accepted)
	}
	if r := statusJudge(t, true, q, rivalBlades, statusRecall, rivalWater); on(r) != "blades#0" {
		t.Errorf("v68 without the warranty page: %+v %v, want accepted on blades#0", r.Assessment, r.Accepted)
	}
	jar := "Will you replace my cracked X200 jar for free?"
	if r := statusJudge(t, true, jar, statusRecall, rivalBlades, rivalWarranty); on(r) != "recall#0" {
		t.Errorf("v68, the recall's rule of the asked verb: %+v %v, want accepted on recall#0", r.Assessment, r.Accepted)
	}
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Status || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Status %v, model %q, want on and builtin:coverage-v68", b.Status, b.Model())
	}
	if b.Status = false; b.Model() != V65Model {
		t.Errorf("Status off: model %q, want %s", b.Model(), V65Model)
	}
}
