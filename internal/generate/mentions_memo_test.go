package generate

import (
	"context"
	"os"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
)

// designSets are the development sets rules are designed on (the others
// are read for totals only).
var designSets = []string{"hollin", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13"}

// TestMentionsMemoUnchanged: assess.TitledMentions hands the same map to
// every caller asking for a chunk's mentions (the Assess activity at each
// attempt, its statement reading, this generator for its sources), so no
// caller may change it. It runs the builtin assessor (as a worker wires
// it, with WordNet when /usr/share/wordnet is there) and the builtin
// generator with its grounding check over the design sets' questions, as
// the loop's first attempt does, and checks every few questions that each
// kept map still equals its chunk's mentions made anew.
func TestMentionsMemoUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the assessor and the generator over the design sets")
	}
	f := newHollinFixture(t)
	var th assess.Thesaurus // nil unless opened: a nil *WordNet is not a nil Thesaurus
	if wn, err := thesaurus.Open("/usr/share/wordnet"); err == nil {
		th = wn
	}
	judge, err := (&live.Direct{Index: f.ix}).Assessor(th)
	if err != nil {
		t.Fatal(err)
	}
	an := terms.New()
	g, chk := NewExtractive(an), NewChecker(an)
	check := func(where string) {
		t.Helper()
		if err := assess.CheckKeptMentions(terms.NewUncached()); err != nil {
			t.Fatalf("after %s: %v", where, err)
		}
	}
	asked := 0
	for _, set := range designSets {
		for _, qq := range readDevSet(t, set) {
			req := f.requestAs(t, qq.hollinQuestion, qq.Groups, wire.DefaultTopK)
			if len(req.Sources) == 0 {
				continue
			}
			res, err := judge.Assess(context.Background(), assessRequest(qq, req))
			if err != nil {
				t.Fatal(err)
			}
			req.Accepted = res.Accepted
			if _, _, err := generateChecked(g, chk, req); err != nil {
				t.Fatalf("%s %s: %v", set, qq.ID, err)
			}
			if asked++; asked%4 == 0 {
				check(set + " " + qq.ID)
			}
		}
	}
	check("the last question")
	if n := assess.KeptMentions(); n == 0 || asked < 500 {
		t.Fatalf("%d questions asked, %d chunks' mentions kept: the memo was not exercised", asked, n)
	}
	if os.Getenv("MENTIONSMEMO_VERBOSE") != "" {
		t.Logf("%d questions, %d chunks' mentions kept", asked, assess.KeptMentions())
	}
}
