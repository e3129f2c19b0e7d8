package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// FuzzRound44 (rv44): the default assessor (coverage-v49: Sides,
// SidesMeasure, Listed, Places, Matter) judges any question — empty,
// punctuation only, non-ASCII, a list, a choice, a comparison, a material
// or speed question, very long — over matterCorpus without a panic, and
// with a reason that passes the assessment's own check; the readers
// round 44 added (listQuestion, comparesBy, chooses, enumerates, plural)
// read any text.
func FuzzRound44(f *testing.F) {
	for _, s := range []string{"", "?", "...", "what", "which", "what s", "which or", "how does", "how does it compare",
		"what statuses will my repair show?", "which is faster, the X200 or the X300 Pro?", "What's the X200's jug made of, glass or plastic?",
		"how fast do the blades on the Pro spin at full whack?", "Moving to Spain: is my X300 Pro covered?", "¿Qué es? 日本語 ÄÖÜ",
		"what are the different stages", "a, b, c", ", , ,", "how has the X200 changed", "which X200 or"} {
		f.Add(s)
	}
	b := matterBuiltin()
	b.UseThesaurus(placesThesaurus{fakeThesaurus{}, map[string][]string{"spain": {"abroad"}}})
	f.Fuzz(func(t *testing.T, q string) {
		listQuestion(q)
		comparesBy(q)
		chooses(q)
		enumerates(q)
		plural(q)
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: matterCorpus, Groups: []string{"public"}})
		if err != nil {
			return
		}
		if err := res.Assessment.Check(); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	})
}

// TestRound44OddInput (rv44): FuzzRound44's seeds and a very long
// question, judged twice alike.
func TestRound44OddInput(t *testing.T) {
	b := matterBuiltin()
	long := strings.Repeat("what is the X200's jug made of, glass or plastic, and how fast do the blades spin at full whack? ", 200)
	for _, q := range []string{"", "?", "’s", "what", "which or", "how does it compare", long, "Ünïcödé spins, at, full, whack, ok"} {
		a := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: matterCorpus, Groups: []string{"public"}})
		z := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: matterCorpus, Groups: []string{"public"}})
		if a.Assessment.Sufficient != z.Assessment.Sufficient || a.Assessment.Reason != z.Assessment.Reason {
			t.Errorf("%.40q: judged %+v then %+v", q, a.Assessment, z.Assessment)
		}
	}
}

// matterBuiltin is the default assessor over matterCorpus alone.
func matterBuiltin() *Builtin {
	an := terms.New()
	var texts []string
	for _, e := range matterCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	return b
}
