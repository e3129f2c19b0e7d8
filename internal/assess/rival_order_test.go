package assess

import (
	"context"
	"fmt"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestRivalOrder: Rival's rank and its choice among rivals, on TestRival's
// question and pages, in the order given (OwnOrder off: the ranks are
// those of the order the judgement reads). The warranty terms rival the blade page from the
// last rank read (rank 4, the fifth chunk) and not from the one below it;
// of two rivals that score the same, the one ranked first is accepted;
// and Candidates still returns every retrieved chunk's features and Lacks
// the same lacks when a rival is accepted (the judgement of all the
// evidence's, not the chunks' judged alone).
func TestRivalOrder(t *testing.T) {
	q := "are blades that have worn down covered under the warranty?"
	water := func(i int) Evidence {
		e := rivalWater // a distinct text each (the same text is read once)
		e.ChunkID = fmt.Sprintf("water%d#0", i)
		e.Text += fmt.Sprintf(" Leaflet %d.", i)
		return e
	}
	warranty := func(id string) Evidence {
		e := rivalWarranty
		e.ChunkID = id
		e.Text += " Leaflet " + id[:len(id)-2] + "."
		return e
	}
	an := terms.New()
	var docs []string
	for _, e := range []Evidence{rivalBlades, rivalWarranty, rivalWater} {
		docs = append(docs, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, append(docs, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")...)
	build := func(rival int) *Builtin {
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(fakeThesaurus{"worn": {"wear", "wearing"}})
		b.Rival = rival
		b.Covered = rival != 0 // v56 is newer than Rival: off for v42
		b.Status = rival != 0  // v68 too
		b.OwnOrder = false     // the ranks are the order given
		return b
	}
	judge := func(ev ...Evidence) Result {
		t.Helper()
		res, err := build(rivalV43).Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	on := func(r Result) string {
		if !r.Assessment.Sufficient || len(r.Accepted) == 0 {
			return ""
		}
		return r.Accepted[0]
	}
	if r := judge(rivalBlades, water(1), water(2), water(3), warranty("warranty#0")); on(r) != "warranty#0" {
		t.Errorf("the warranty terms at rank 4: %+v %v, want accepted on warranty#0", r.Assessment, r.Accepted)
	}
	if r := judge(rivalBlades, water(1), water(2), water(3), water(4), warranty("warranty#0")); on(r) != "blades#0" {
		t.Errorf("the warranty terms at rank 5: %+v %v, want accepted on blades#0 (below the last rank read)", r.Assessment, r.Accepted)
	}
	if r := judge(rivalBlades, water(1), warranty("first#0"), warranty("second#0")); on(r) != "first#0" {
		t.Errorf("two rivals scoring the same: %+v %v, want accepted on first#0 (ranked first)", r.Assessment, r.Accepted)
	}
	var n [2]int
	for j, rival := range []int{0, rivalV43} {
		res, cands, err := build(rival).Candidates(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: []Evidence{rivalBlades, rivalWarranty, rivalWater}, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"blades#0", "warranty#0"}[j]; on(res) != want {
			t.Fatalf("Rival %d: %+v %v, want accepted on %s", rival, res.Assessment, res.Accepted, want)
		}
		n[j] = len(cands)
	}
	if n[0] != 3 || n[1] != n[0] {
		t.Errorf("Candidates: %d chunks with Rival, %d without; want all 3", n[1], n[0])
	}
	// Lacks reads the judgement of all the evidence: the chunks judged
	// alone add none.
	var lacks [2][]Lack
	for j, rival := range []int{0, rivalV43} {
		res, ls, err := build(rival).Lacks(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: []Evidence{rivalBlades, rivalWarranty, rivalWater}, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"blades#0", "warranty#0"}[j]; on(res) != want {
			t.Fatalf("Lacks, Rival %d: %+v %v, want accepted on %s", rival, res.Assessment, res.Accepted, want)
		}
		lacks[j] = ls
	}
	if len(lacks[1]) != len(lacks[0]) || len(lacks[0]) == 0 || lacks[1][len(lacks[1])-1].ChunkID != lacks[0][len(lacks[0])-1].ChunkID {
		t.Errorf("Lacks: %d with Rival, %d without; want the same, the last on the same chunk", len(lacks[1]), len(lacks[0]))
	}
}

// TestRivalClears: a rival must score more than the margin above the
// accepted chunk, the same for every pair of thousandths: exactly 0.2
// above clears for none (in floating point 0.555+0.2 is above 0.755, so
// the comparison alone took that one), a thousandth more clears for all.
func TestRivalClears(t *testing.T) {
	for i := 0; i <= 800; i++ {
		own := float64(i) / 1000
		if r := float64(i+200) / 1000; clears(r, own, rivalBy) {
			t.Errorf("%.3f clears %.3f by exactly %.1f", r, own, rivalBy)
		}
		if r := float64(i+201) / 1000; i < 800 && !clears(r, own, rivalBy) {
			t.Errorf("%.3f does not clear %.3f", r, own)
		}
		if clears(own, own, 0) {
			t.Errorf("a tie %.3f clears with no margin", own)
		}
	}
}
