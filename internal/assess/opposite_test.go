package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// oppositeCorpus: a repairs page stating one value under warranty and
// another out of warranty, and pages about other things.
var oppositeCorpus = []Evidence{
	{ChunkID: "repairs#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days of receiving it. Collection by courier is free for appliances under warranty. Out-of-warranty repairs carry a £25 inspection fee, which is deducted from the repair price if you go ahead."},
	{ChunkID: "warranty#0", Title: "Warranty terms", Text: "Every Hollin appliance has a 2-year warranty from the date of purchase. The warranty covers manufacturing faults."},
	{ChunkID: "lid#0", Title: "Lids", Text: "Lids fit every jar."},
}

// TestOpposite: builtin:coverage-v60 (Builtin.Opposite) refuses an
// acceptance whose chunk states the asked matter (the courier) only under
// the cover condition opposite to the question's ("out of warranty"
// against "free for appliances under warranty"); a question whose
// condition the chunk states of its matter ("out-of-warranty repairs"),
// or of the same condition, stays accepted.
func TestOpposite(t *testing.T) {
	an := terms.New()
	var texts []string
	for _, e := range oppositeCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	judge := func(on bool, q string) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.Opposite = on
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: oppositeCorpus, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	q := "My blender is out of warranty - what do you charge for the courier to collect it?"
	if r := judge(false, q); !r.Assessment.Sufficient {
		t.Fatalf("Opposite off: %+v, want accepted (the test no longer shows the fault)", r.Assessment)
	}
	r := judge(true, q)
	if r.Assessment.Sufficient || !strings.Contains(r.Assessment.Reason, "under warranty") {
		t.Errorf("Opposite on: %+v %v, want refused naming the opposite condition", r.Assessment, r.Accepted)
	}
	if r.Usage.Model != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("model %q, want builtin:coverage-v68", r.Usage.Model)
	}
	for _, q := range []string{
		"What does the courier collection cost if my blender is still under warranty?",
		"My blender is out of warranty - what do you charge to repair it?",
	} {
		if r := judge(true, q); !r.Assessment.Sufficient {
			t.Errorf("%q: %+v, want accepted", q, r.Assessment)
		}
	}
	b := NewBuiltin(an, lex)
	if b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, 0, false, false, false, false; b.Model() != V59Model || V59Model != "builtin:coverage-v59" {
		t.Errorf("Opposite off: model %q, want builtin:coverage-v59", b.Model())
	}
}
