package assess

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// followCorpus is matterCorpus with a page naming both blenders and
// neither's speed (ranked first, as a warranty page is for a question
// naming both), a repair-turnaround page stating a count of days, the
// tracking page enumerating a repair's statuses, and a parts-ordering
// page stating its delivery charge.
var followCorpus = append(slices.Clone(matterCorpus),
	Evidence{ChunkID: "warranty#0", Title: "Warranty terms", Text: "Blender motors on the X200 and X300 Pro are covered for 5 years. Every Hollin appliance has a 2-year warranty."},
	Evidence{ChunkID: "repairs#0", Title: "Repairs and turnaround", Text: "Most repairs are finished within 10 working days of the appliance reaching the repair centre."},
	Evidence{ChunkID: "track#0", Title: "Tracking a repair", Text: "Track your repair online with your case number. A repair shows as Booked, In workshop, Repaired, then Dispatched."},
	Evidence{ChunkID: "parts#0", Title: "Ordering spare parts", Text: "Order spare parts online. Delivery costs £3.95, and orders over £25 are delivered free."},
)

// followJudge judges q against the evidence of followCorpus named by
// ids, in that order, with Follow as set and the later Counts (v59) off:
// its enumeration reading takes the first case's count too.
func followJudge(t *testing.T, follow bool, q string, ids ...string) Result {
	t.Helper()
	return judgeAmong(t, followCorpus, []string{"Opening hours", "Your account data\nDownload a copy of your data from Settings.", "Registering your appliance", "Switching on\nHold the button to turn it on."},
		func(b *Builtin) {
			b.Follow, b.Counts, b.Opposite, b.Learned, b.LearnedCover, b.Veto, b.Status = follow, 0, false, false, false, false, false
		}, q, ids...)
}

// TestFollow: with Follow (builtin:coverage-v57), a choice between two
// named things followed by "and by how much?" is judged as the choice
// (its clause naming the things offered included, "which one" read as
// "which") and the follow-up by the values the choice was accepted on; a
// count followed by "and what are they?" is judged as the question for
// the things counted, which an enumeration answers (not a page stating a
// count of days); an amount the asker states is no name a page must
// mention. A follow-up or count nothing retrieved answers is still
// refused. Without Follow the first three are refused or taken on
// another page.
func TestFollow(t *testing.T) {
	checkSwitch(t, "Follow", func(on bool, q string, ids ...string) Result { return followJudge(t, on, q, ids...) }, []switchCase{
		{"How many stages does a repair go through, and what are they?", []string{"repairs#0", "track#0"}, "repairs#0", "track#0"},
		{"My basket comes to £19.20. Do I pay for delivery, and how much?", []string{"parts#0", "k50#0"}, "", "parts#0"},
		// nothing retrieved answers: refused either way
		{"Which one's cheaper, the X200 or the X300 Pro, and by how much?", []string{"warranty#0", "x300#0", "x200#0"}, "", ""},
		{"How many colours does the X200 jar come in, and what are they?", []string{"repairs#0", "track#0"}, "", ""},
		{"My basket comes to £19.20. Do I pay for gift wrapping, and how much?", []string{"parts#0", "k50#0"}, "", ""},
	})
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Follow || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Follow %v, model %q, want on and builtin:coverage-v68", b.Follow, b.Model())
	}
	if b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, 0, false, 0, false, false, false, false; b.Model() != V56Model || V56Model != "builtin:coverage-v56" {
		t.Errorf("without Follow, model %q, want builtin:coverage-v56", b.Model())
	}
}

// TestFollowParts: the readings Follow adds to Parts' splitting.
func TestFollowParts(t *testing.T) {
	q := "Which one's faster at full power, the X200 or the X300 Pro, and by how much?"
	if got, want := withAsides(q, []string{"Which one's faster at full power,", "and by how much?"}), []string{"Which one's faster at full power, the X200 or the X300 Pro,", "and by how much?"}; !slices.Equal(got, want) {
		t.Errorf("withAsides = %q, want %q", got, want)
	}
	for in, want := range map[string]string{"Which one's faster": "Which is faster", "which one costs more": "which costs more", "which ones are": "which are", "Which oneself": "Which oneself"} {
		if got := whichOne(in); got != want {
			t.Errorf("whichOne(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		ps   []string
		want []string
	}{
		{[]string{"How many statuses will my repair show,", "and what are they?"}, []string{"What statuses will my repair show?"}},
		{[]string{"How many steps are there,", "and what are they called?"}, []string{"What steps are there?"}},
		{[]string{"How many steps are there,", "and how long does each take?"}, []string{"How many steps are there,", "and how long does each take?"}},
		{[]string{"What is it,", "and what are they?"}, []string{"What is it,", "and what are they?"}},
	} {
		if got := countedNamed(c.ps); !slices.Equal(got, c.want) {
			t.Errorf("countedNamed(%q) = %q, want %q", c.ps, got, c.want)
		}
	}
	if got := followUp("and how much?", "Do I pay for delivery,"); got != "how much (Do I pay for delivery)?" {
		t.Errorf("followUp = %q", got)
	}
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	q = "My basket comes to £19.20 and the X200 code is E4."
	var texts []string
	for _, e := range Entities(b.an, q, newLexicon(terms.New(), "x").Visible(nil)) {
		if !statedAmount(q, e) {
			texts = append(texts, e.Text)
		}
	}
	if !slices.Equal(texts, []string{"X200", "E4"}) {
		t.Errorf("entities but stated amounts of %q: %q, want X200 and E4", q, texts)
	}
}
