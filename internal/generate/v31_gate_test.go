package generate

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV31GateBranches (rv31b) reaches the two branches of v31's gate on
// an elaborating instruction that TestV31ElaboratesOnlyOnTheQuestion and
// TestV31Keeps do not (removing either left every test passing). The
// question "how do I clean the blender jug?"; the accepted page ranked
// first, its instruction sharing "citric acid" with the opening sentence
// ("Clean the blender jug with warm soapy water and citric acid") of the
// page ranked second, which opens (it says more of the question):
//
//   - "Rinse the jug with citric acid" holds a word of the question
//     ("jug"): it is cited though the opening's page ("Care guide") is
//     titled with no word of the question (the gate's len(s.own) > 0);
//   - "Rinse it with citric acid" holds none, and the opening's page
//     ("Cleaning guide") is titled only with the question's verb
//     ("clean"): it is not cited (the gate's !verbs[t]).
//
// v30 cites both instructions. Made-up pages, not a development
// question's.
func TestV31GateBranches(t *testing.T) {
	an := terms.New()
	q := "how do I clean the blender jug?"
	for _, c := range []struct {
		name      string
		srcs      []Source
		wantCited bool
	}{
		{"instruction with a question word", []Source{
			cur("1", "kettle-care", "Kettle care", "Rinse the jug with citric acid."),
			cur("2", "care-guide", "Care guide", "Clean the blender jug with warm soapy water and citric acid."),
		}, true},
		{"opening titled with the question's verb", []Source{
			cur("1", "kettle-care", "Kettle care", "Rinse it with citric acid."),
			cur("2", "care-guide", "Cleaning guide", "Clean the blender jug with warm soapy water and citric acid."),
		}, false},
	} {
		req := Request{Question: q, Sources: c.srcs, Accepted: []string{"kettle-care#0"}}
		if text, docs := answerOf(t, NewExtractiveV30(an), req); !slices.Contains(docs, "kettle-care") || !slices.Contains(docs, "care-guide") {
			t.Errorf("%s: v30 answers %q citing %v, want both pages (the case no longer tests v31)", c.name, text, docs)
		}
		text, docs := answerOf(t, NewExtractiveV31(an), req)
		if !slices.Contains(docs, "care-guide") || slices.Contains(docs, "kettle-care") != c.wantCited {
			t.Errorf("%s: v31 answers %q citing %v, want care-guide, and kettle-care cited %v", c.name, text, docs, c.wantCited)
		}
	}
}
