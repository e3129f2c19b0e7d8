package assess

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// listMoved: a notice on the repair centre's move, retrieved first, and
// the tracking page enumerating a repair's statuses.
var listMoved = []Evidence{
	{ChunkID: "move#0", Title: "Our repair centre is moving", Text: "Our repair centre moves to Leeds on 1 June. Repairs booked before then are finished in Derby."},
	listLike[0], listLike[1], listLike[3],
}

// TestListedClause: builtin:coverage-v57's ListedClause. A list question
// closing on a clause of time or manner ("as it moves along") is refused
// without it (the enumeration lacks "move", and the page holding it is
// retrieved first) and taken with it on the enumeration; a list question
// whose closing clause holds most of its words, and one whose kind the
// enumeration does not answer, are refused either way.
func TestListedClause(t *testing.T) {
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"What statuses will my repair show as it moves along?", true},
		{"What statuses will it show when the repair centre moves to Leeds?", false},
		{"What grades will the courier give my appliance as it arrives?", false},
	} {
		an := terms.New()
		b := builtinOver(an, listMoved)
		var got [2]Result
		for i, on := range []bool{false, true} {
			b.ListedClause = on
			got[i] = assessChecked(t, b, Request{Question: c.q, Query: c.q, Evidence: listMoved, Groups: []string{"public"}})
		}
		if got[0].Assessment.Sufficient {
			t.Errorf("Assess(%q) accepted without ListedClause: the case no longer tests it (%s)", c.q, got[0].Assessment.Reason)
		}
		if got[1].Assessment.Sufficient != c.want {
			t.Errorf("ListedClause: Assess(%q) = %+v, want sufficient %v", c.q, got[1].Assessment, c.want)
			continue
		}
		if c.want && !slices.Equal(got[1].Accepted, []string{"track#0"}) {
			t.Errorf("ListedClause: Assess(%q) accepted %v, want track#0", c.q, got[1].Accepted)
		}
	}
}

// TestListedClauseModel: ListedClause off is builtin:coverage-v54.
func TestListedClauseModel(t *testing.T) {
	b := NewBuiltin(terms.New(), nil)
	if !b.ListedClause || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default ListedClause %v, model %q, want on and builtin:coverage-v68", b.ListedClause, b.Model())
	}
	if b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V54Model || V54Model != "builtin:coverage-v54" {
		t.Errorf("model %q with ListedClause off, want builtin:coverage-v54", b.Model())
	}
}

// TestListedSecond: with ListedClause, a list question with no closing
// clause is taken on an enumeration judged second, below a page that
// matches the question better and enumerates nothing; without it only the
// first candidate is read.
func TestListedSecond(t *testing.T) {
	ev := []Evidence{{ChunkID: "aa#0", Title: "Repair", Text: "Every repair is a repair we stand behind."}, listLike[0], listLike[3]}
	q := "what are the different statuses my repair goes through on the tracker"
	an := terms.New()
	b := builtinOver(an, ev)
	var got [2]Result
	for i, on := range []bool{false, true} {
		b.ListedClause = on
		got[i] = assessChecked(t, b, Request{Question: q, Query: q, Evidence: ev, Groups: []string{"public"}})
	}
	if got[0].Assessment.Sufficient {
		t.Errorf("accepted without ListedClause: the case no longer tests it (%s)", got[0].Assessment.Reason)
	}
	if !got[1].Assessment.Sufficient || !slices.Equal(got[1].Accepted, []string{"track#0"}) {
		t.Errorf("ListedClause: %+v %v, want accepted on track#0", got[1].Assessment, got[1].Accepted)
	}
}
