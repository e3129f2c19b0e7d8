package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// TestBeyond: with KinRank 1 the thesaurus tries read the second chunk
// too. The account page, which names the account data most and which the
// assessor reads first, lacks the question's "wipe"; the privacy page,
// second, holds it only as the word WordNet defines by it ("delete").
// The default (KinRank 0) refuses; KinRank 1 accepts on the privacy page and
// names the credit; it refuses when the thesaurus gives "wipe" nothing the
// privacy page holds, and when the privacy page is third (KinRank 2 then
// accepts).
func TestBeyond(t *testing.T) {
	an := terms.New()
	page := Evidence{ChunkID: "account#0", Title: "Your account page", Text: "Your account data is shown on your account page. Account data includes your orders, your account settings and the data of your registered products."}
	privacy := Evidence{ChunkID: "privacy#0", Title: "Your account data", Text: "You can ask us to delete your account data. We do it within 30 days of your request."}
	lex := newLexicon(an, page.Title+"\n"+page.Text, privacy.Title+"\n"+privacy.Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Delete old jobs from the repair log", "Wipe the jug with a damp cloth")
	q := "how do I get you to wipe my account data"
	definer := func(words ...string) fakeDefiner {
		var xs []thesaurus.Taxon
		for _, w := range words {
			xs = append(xs, thesaurus.Taxon{Word: w, Pos: 'v', Its: 1, ItsCommon: true, Pointer: 'g'})
		}
		return fakeDefiner{fakeTaxonomy{fakeThesaurus{}, nil}, map[string][]thesaurus.Taxon{"wipe": xs}}
	}
	judge := func(rank int, th Thesaurus, ev ...Evidence) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.KinRank = rank
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if off := judge(0, definer("delete"), page, privacy); off.Assessment.Sufficient || off.Usage.Model != BuiltinModel+"+fake-1" {
		t.Errorf("KinRank 0: %+v (%s), want refused", off.Assessment, off.Usage.Model)
	}
	on := judge(1, definer("delete"), page, privacy)
	if !on.Assessment.Sufficient || on.Assessment.Score < 0.5 || len(on.Accepted) == 0 || on.Accepted[0] != "privacy#0" ||
		!strings.Contains(on.Assessment.Reason, `"Your account data" covers`) || !strings.Contains(on.Assessment.Reason, `reading "wipe" as "delete", a word defined by it`) ||
		on.Usage.Model != BuiltinModel+"+kinrank+fake-1" {
		t.Errorf("KinRank 1: %+v %v (%s), want accepted on privacy#0 reading \"wipe\" as \"delete\"", on.Assessment, on.Accepted, on.Usage.Model)
	}
	if r := judge(1, definer("erase"), page, privacy); r.Assessment.Sufficient {
		t.Errorf("KinRank 1, nothing the privacy page holds: %+v, want refused", r.Assessment)
	}
	other := Evidence{ChunkID: "account#1", Title: "Account data", Text: "Account data: your account holds the data of your orders. Account data is kept with your account."}
	if r := judge(1, definer("delete"), page, other, privacy); r.Assessment.Sufficient {
		t.Errorf("KinRank 1, the privacy page third: %+v %v, want refused", r.Assessment, r.Accepted)
	}
	if r := judge(2, definer("delete"), page, other, privacy); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "privacy#0" {
		t.Errorf("KinRank 2, the privacy page third: %+v %v, want accepted on privacy#0", r.Assessment, r.Accepted)
	}
}
