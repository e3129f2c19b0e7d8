package generate

import (
	"testing"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// TestKinScoreNoStandIn: with a thesaurus relating a question word to a
// word no sentence holds, every sentence's kscore is its score, exactly,
// even where a sentence opening with a pronoun holds the words of the
// sentence before it (v20's refers: score's IDF counts only the
// sentences whose own words hold a word, kinIDF counted those too, so
// v35 without a stand-in could open with another sentence than v34).
func TestKinScoreNoStandIn(t *testing.T) {
	an := terms.New()
	g := NewExtractiveV35(an)
	g.UseThesaurus(kinThesaurus{
		related: map[string][]string{"warranty": {"guarantee"}},
		common:  map[string][]string{"guarantee": {"warranty"}},
	})
	q := "How long does the motor warranty last?"
	req := Request{Question: q, Sources: []Source{
		{Label: "1", Chunk: corpus.Chunk{ID: "w#0", DocID: "w", Title: "Warranty", Text: "The warranty covers the motor. It runs for five years. Motor faults are repaired free."}},
		{Label: "2", Chunk: corpus.Chunk{ID: "m#0", DocID: "m", Title: "Motor care", Text: "Clean the motor vents monthly. The motor warranty needs a receipt."}},
	}}
	var all []*sentence
	for si, src := range req.Sources {
		for pi, text := range citation.Sentences(src.Text) {
			all = append(all, &sentence{source: si, pos: pi, text: text})
		}
	}
	asked := g.classify(q)
	content := g.content(q, asked)
	if len(g.kin(q, content)) == 0 {
		t.Fatalf("kin(%q) is empty: the test does not reach kinScore", q)
	}
	g.score(req, all, content, asked)
	for _, s := range all {
		if s.kscore != s.score {
			t.Errorf("%q: kscore %v, score %v; want equal without a stand-in", s.text, s.kscore, s.score)
		}
	}
}
