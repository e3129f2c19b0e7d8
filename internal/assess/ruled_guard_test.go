package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// guardCorpus: chunks that name the question's thing but fail one of
// Ruled's other conditions, and two that pass them.
var guardCorpus = []Evidence{
	{ChunkID: "keep#0", Title: "X200 cleaning and care", Text: "Keep the motor base away from the tap."},
	{ChunkID: "cover#0", Title: "X200 cleaning and care", Text: "The motor base is not covered if you put it under the tap."},
	{ChunkID: "free#0", Title: "X200 cleaning and care", Text: "Putting the motor base under the tap is free."},
	{ChunkID: "plain#0", Title: "Cleaning and care", Text: "Never put the motor base under the tap."},
	{ChunkID: "recall#0", Title: "X200 coupling recall", Text: "Fit coupling kit CPL-X200 at the first repair visit, free of charge."},
	{ChunkID: "visit#0", Title: "X200 coupling recall", Text: "Fit coupling kit CPL-X200 at the first repair visit."},
}

// freeWords are visit#0 with a "free" that states no rule; they stay out
// of the lexicon, so the words' weights are guardCorpus's.
var freeWords = []Evidence{
	{ChunkID: "feel#0", Title: "X200 coupling recall", Text: "Feel free to fit coupling kit CPL-X200 at the first repair visit."},
	{ChunkID: "hands#0", Title: "X200 coupling recall", Text: "Fit the hands-free coupling kit CPL-X200 at the first repair visit."},
}

// TestRuledGuards (rv45): each of Ruled's conditions, on its own, keeps a
// chunk from deciding a yes/no question (TestRuled's cases pass with the
// rule sentence, the entity and the cost conditions each taken out); and
// a question of cost is decided by a rule of cost.
func TestRuledGuards(t *testing.T) {
	an := terms.New()
	var texts []string
	for _, e := range append(append([]Evidence{}, ruledCorpus...), guardCorpus...) {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	texts = append(texts, "Jar care\nRinse the jar under the tap after use.") // "rinse" known
	lex := newLexicon(an, texts...)
	th := ruleThesaurus{
		fakeThesaurus: fakeThesaurus{"rinse": {"wash"}},
		taxa:          map[string][]thesaurus.Taxon{"bottom": {{Word: "base", Pos: 'n', Sense: 1, Common: true}}},
		parts:         map[string]string{"bottom": "nva", "rinse": "nv", "tap": "nv", "billed": "v", "coupling": "n", "kit": "nv"},
	}
	judge := func(ruled bool, q string, ev Evidence) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.Ruled = ruled
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: []Evidence{ev}, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	byID := map[string]Evidence{}
	for _, e := range append(append([]Evidence{}, guardCorpus...), freeWords...) {
		byID[e.ChunkID] = e
	}
	for _, c := range []struct {
		q, chunk string
		want     bool
		why      string
	}{
		{"Can I rinse the bottom of my X200 under the tap?", "keep#0", false, "no rule: an instruction of handling is not a prohibition"},
		{"Can I rinse the bottom of my X200 under the tap?", "cover#0", false, "a rule of cover decides no question of an action"},
		{"Can I rinse the bottom of my X200 under the tap?", "free#0", false, "a rule of cost decides no question of an action"},
		{"Can I rinse the bottom of my Z900 under the tap?", "plain#0", false, "the chunk does not name the Z900"},
		{"Should the customer be billed for the coupling kit of the motor base?", "recall#0", true, "a question of cost, a rule of cost"},
		{"Should the customer be billed for the coupling kit of the motor base?", "visit#0", false, "a question of cost, no rule"},
		{"Should the customer be billed for the coupling kit of the motor base?", "feel#0", false, `"feel free to" is no rule of cost`},
		{"Should the customer be billed for the coupling kit of the motor base?", "hands#0", false, `"hands-free" is no rule of cost`},
	} {
		if r := judge(false, c.q, byID[c.chunk]); r.Assessment.Sufficient {
			t.Fatalf("%q on %s, Ruled off: %+v, want refused (the case no longer shows Ruled)", c.q, c.chunk, r.Assessment)
		}
		if r := judge(true, c.q, byID[c.chunk]); r.Assessment.Sufficient != c.want {
			t.Errorf("%q on %s: %+v, want sufficient %v (%s)", c.q, c.chunk, r.Assessment, c.want, c.why)
		}
	}
}

// TestRuledNothingKnown: a yes/no question none of whose content words
// the asker's documents use is refused, as every other reading refuses
// it, though WordNet names its thing in a rule ("bottom" as "base").
func TestRuledNothingKnown(t *testing.T) {
	an := terms.New()
	ev := Evidence{ChunkID: "care#0", Title: "Cleaning", Text: "Never put the motor base in water."}
	lex := newLexicon(an, ev.Title+"\n"+ev.Text)
	th := ruleThesaurus{
		fakeThesaurus: fakeThesaurus{"rinse": {"wash"}},
		taxa:          map[string][]thesaurus.Taxon{"bottom": {{Word: "base", Pos: 'n', Sense: 1, Common: true}}},
		parts:         map[string]string{"bottom": "nva", "rinse": "nv", "tap": "nv"},
	}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	b.UseThesaurus(th)
	q := "Is it OK to rinse the bottom under the tap?"
	r, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: []Evidence{ev}, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Assessment.Sufficient {
		t.Errorf("%q with no word the documents use: %+v, want refused", q, r.Assessment)
	}
}
