package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// situatedCorpus: a kettle's manual using the words of a fault, the
// service bulletin stating the fault's condition, a care page.
var situatedCorpus = []Evidence{
	{ChunkID: "manual#0", Title: "K50 Smart Kettle", Text: "The K50 smart kettle boils 1.7 litres in about four minutes and can keep water warm for up to two hours. Descale it once a month with citric acid."},
	{ChunkID: "bulletin#0", Title: "SB-114: K50 firmware 2.3", Text: "K50 kettles on firmware 2.1 may switch off before boiling. Update them to firmware 2.3 through the Hollin Home app."},
	{ChunkID: "water#0", Title: "Hard water and limescale", Text: "In hard water areas limescale builds up on the element. Descale the kettle after every few uses when the water is very hard."},
}

// TestSituated: builtin:coverage-v54 (Builtin.Situated) moves an
// acceptance from the manual using the question's words to the bulletin
// stating its condition ("before boiling" for "clicking off before the
// water boils"); a question stating no condition, or one the accepted
// chunk states, keeps its chunk, and a refusal stays a refusal.
func TestSituated(t *testing.T) {
	judge := situatedJudge(t, situatedCorpus)
	man, sb, water := situatedCorpus[0], situatedCorpus[1], situatedCorpus[2]
	q := "My K50 keeps clicking off before the water boils. What's the fix?"
	if r := judge(false, q, man, sb, water); !r.Assessment.Sufficient || len(r.Accepted) != 1 || r.Accepted[0] != "manual#0" {
		t.Fatalf("Situated off: %+v %v, want accepted on manual#0 (the test no longer shows the fault)", r.Assessment, r.Accepted)
	}
	r := judge(true, q, man, sb, water)
	if !r.Assessment.Sufficient || len(r.Accepted) != 1 || r.Accepted[0] != "bulletin#0" {
		t.Errorf("Situated on: %+v %v, want accepted on bulletin#0", r.Assessment, r.Accepted)
	}
	if r.Usage.Model != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("model %q, want builtin:coverage-v68", r.Usage.Model)
	}
	for _, c := range []struct {
		q       string
		ev      []Evidence
		off, on string // the chunk accepted, "" refused
	}{
		{"How often should I descale my K50?", []Evidence{man, sb, water}, "manual#0", "manual#0"},                                                            // no condition
		{"Should I update my K50 if it switches off before boiling?", []Evidence{sb, man, water}, "bulletin#0", "bulletin#0"},                                 // the accepted chunk states it
		{"Our kettle gets limescale on the element after every few uses. How often should we descale it?", []Evidence{man, water, sb}, "manual#0", "water#0"}, // "after every few uses"
		{"My X300 keeps clicking off before the water boils. What's the fix?", []Evidence{man, sb}, "", ""},                                                   // no chunk mentions the X300
	} {
		for _, on := range []bool{false, true} {
			r, want := judge(on, c.q, c.ev...), c.off
			if on {
				want = c.on
			}
			got := ""
			if r.Assessment.Sufficient && len(r.Accepted) > 0 {
				got = r.Accepted[0]
			}
			if got != want {
				t.Errorf("%q, Situated %v: accepted %q (%+v), want %q", c.q, on, got, r.Assessment, want)
			}
		}
	}
}

// TestSituatedModel: Situated off is builtin:coverage-v52 (kept
// selectable).
func TestSituatedModel(t *testing.T) {
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Situated || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Situated %v, model %q, want on and builtin:coverage-v68", b.Situated, b.Model())
	}
	if b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V53Model || V53Model != "builtin:coverage-v53" {
		t.Errorf("model %q with Situated off, want builtin:coverage-v53", b.Model())
	}
}

// situatedJudge returns a judge of q on ev with Situated as on, its
// lexicon built from corpus.
func situatedJudge(t *testing.T, corpus []Evidence) func(on bool, q string, ev ...Evidence) Result {
	an := terms.New()
	var texts []string
	for _, e := range corpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	return func(on bool, q string, ev ...Evidence) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.Situated = on
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
}
