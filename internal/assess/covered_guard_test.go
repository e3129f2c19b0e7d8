package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// coveredGuardCorpus is coveredCorpus with a page stating cover of a
// named thing only.
var coveredGuardCorpus = append(append([]Evidence{}, coveredCorpus...),
	Evidence{ChunkID: "x200w#0", Title: "X200 warranty", Text: "Blender motors on the X200 are covered for 5 years."},
)

// TestCoveredGuards (rv46): each of Covered's conditions decides a case
// of its own (a case fails with that condition removed): a question of
// no yes/no type and a statement naming only the question's entity stay
// refused; "warranty," closing a clause before a noun ("under the
// warranty, worktop and all?") still asks of cover.
func TestCoveredGuards(t *testing.T) {
	an := terms.New()
	var texts []string
	byID := map[string]Evidence{}
	for _, e := range coveredGuardCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
		byID[e.ChunkID] = e
	}
	lex := newLexicon(an, texts...)
	for _, c := range []struct {
		q    string
		ids  []string
		want string
	}{
		{"I knocked my blender off the worktop and the jar cracked - what will you do under the warranty?", []string{"warranty#0"}, ""},
		{"My X200 fell off the worktop, is it under warranty?", []string{"x200w#0"}, ""},
		{"I knocked my blender off the worktop and the jar cracked - is that under the warranty, worktop and all?", []string{"warranty#0"}, "warranty#0"},
	} {
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		var ev []Evidence
		for _, id := range c.ids {
			ev = append(ev, byID[id])
		}
		res, err := b.Assess(context.Background(), Request{Question: c.q, Query: c.q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if res.Assessment.Sufficient && len(res.Accepted) > 0 {
			got = res.Accepted[0]
		}
		if got != c.want {
			t.Errorf("%q: accepted on %q, want %q (%s)", c.q, got, c.want, res.Assessment.Reason)
		}
	}
}
