package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestAloneKeepsLacksAndCandidates: the chunks Alone judges alone add no
// Lack (Lacks' last is still the question as the service reads it, on the
// first chunk) and, when Alone accepts, Candidates still returns every
// retrieved chunk's features, not only the one chunk judged alone.
func TestAloneKeepsLacksAndCandidates(t *testing.T) {
	an := terms.New()
	handbook := aloneHandbook
	rates := aloneRates
	lex := newLexicon(an, handbook.Title+"\n"+handbook.Text, rates.Title+"\n"+rates.Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")
	q := "What's our hourly rate from Hollin for warranty labour?"
	req := Request{Question: q, Query: q, K: 5, Evidence: []Evidence{handbook, rates}, Groups: []string{"public"}}
	build := func(alone int) *Builtin {
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(fakeThesaurus{"hourly": {"hour"}})
		b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = alone, 0, 0, false // v41 with Alone, v38 without
		newerIf(b, false)
		b.Gate = alone != 0
		return b
	}
	_, off, err := build(0).Lacks(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, on, err := build(aloneV40).Lacks(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Assessment.Sufficient || len(res.Accepted) == 0 || res.Accepted[0] != "rates#0" {
		t.Fatalf("v40: %+v %v, want accepted on rates#0 judged alone", res.Assessment, res.Accepted)
	}
	if len(on) != len(off) || len(on) == 0 || on[len(on)-1].ChunkID != "handbook#0" {
		ids := func(ls []Lack) (out []string) {
			for _, l := range ls {
				out = append(out, l.ChunkID)
			}
			return out
		}
		t.Errorf("Lacks' chunks with Alone %v, without %v: want the same, the last on handbook#0", ids(on), ids(off))
	}
	_, coff, err := build(0).Candidates(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	_, con, err := build(aloneV40).Candidates(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(con) != len(coff) || len(con) != 2 {
		t.Errorf("Candidates with Alone: %d chunks, without: %d; want both chunks' features", len(con), len(coff))
	}
}
