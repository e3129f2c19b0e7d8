package assess

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// TestTimedClassify (rv46b): each guard of timedClassify decides a case.
// A time still to come with an arrival verb asks for a period, the verb
// (and an extreme) framing it ("when should it turn up", "when it'll turn
// up", "how soon will it arrive, at the latest"); a time past ("when did
// it arrive"), a question naming no arrival verb ("when will the new
// model be released") or a date noun ("on which dates", "the latest
// day"), a "what's the latest" not opening the question or past ("was
// done"), keep their type. TestTimed judges only whole questions, whose
// refusals most of these guards did not decide.
func TestTimedClassify(t *testing.T) {
	b := NewBuiltin(terms.New(), nil)
	b.Timed = false // classify before Timed
	for _, c := range []struct {
		q     string
		typ   answertype.Type // "" (Description) unchanged when keep
		keep  bool
		frame []string // words the period's frame must hold
	}{
		{q: "ordered a spare part today, when should it turn up?", typ: answertype.Period, frame: []string{"turn"}},
		{q: "when it'll turn up?", typ: answertype.Period, frame: []string{"turn"}},
		{q: "How soon will it arrive, at the latest?", typ: answertype.Period, frame: []string{"soon", "arrive", "latest"}},
		{q: "What's the latest it will be done by?", typ: answertype.Period, frame: []string{"latest", "done"}},
		{q: "When did my parcel arrive?", keep: true},
		{q: "When will the new model be released?", keep: true},
		{q: "On which dates will spare part orders turn up?", keep: true},
		{q: "What's the latest day it will be done by?", keep: true},
		{q: "What's the latest it was done by?", keep: true},
		{q: "The latest it will be done by?", keep: true},
		{q: "what is it if it is not done by the latest it will be ready?", keep: true},
		{q: "", keep: true},
		{q: "’s?!", keep: true},
	} {
		before := b.classify(c.q)
		got := timedClassify(c.q, before, true, false) // v58's branches; reviewExtreme's in TestReviewTimed
		if c.keep {
			if got.Type != before.Type || !slices.Equal(got.Frame, before.Frame) {
				t.Errorf("timedClassify(%q) = %+v, want it as read (%+v)", c.q, got, before)
			}
			continue
		}
		if got.Type != c.typ {
			t.Errorf("timedClassify(%q) = %+v, want %s", c.q, got, c.typ)
		}
		for _, w := range c.frame {
			if !slices.Contains(got.Frame, w) {
				t.Errorf("timedClassify(%q).Frame = %q, want %q in it", c.q, got.Frame, w)
			}
		}
	}
}
