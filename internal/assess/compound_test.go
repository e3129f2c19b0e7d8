package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// TestCompound: builtin:coverage-v33 (Builtin.Compound) credits no
// relative of a question word that the evidence writes only inside a
// compound WordNet lists as one word (fresh13 w84's shape: "extra" read
// as the "spare" of "spare parts"). v32 (Compound off) accepts the first
// chunk through the relative and names it; v33 refuses; v33 accepts when
// the chunk writes the relative outside the compound too, and when the
// thesaurus lists no such compound.
func TestCompound(t *testing.T) {
	an := terms.New()
	q := "can I buy an extra jug for the X200?"
	judge := func(compound bool, text string, forms map[string][]string) Result {
		t.Helper()
		ev := []Evidence{{ChunkID: "parts#0", Title: "Ordering parts", Text: text}}
		lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "X200 blender specifications", "K50 kettle descaling", "Extra charges apply to express delivery", "Buy a jug online", "repair centre move")
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(fakeFormer{fakeDefiner{fakeTaxonomy{fakeThesaurus{"extra": {"spare"}}, nil}, nil}, forms})
		b.Compound = compound
		b.Ruled = false // v52's rule reading reads "You can buy spare parts …, such as a jug" as deciding: this tests v33's credit
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	bound := "You can buy spare parts for the X200, such as a jug, from our shop."
	compounds := map[string][]string{"spare_parts": {"spare part"}, "spare_part": {"spare part"}}
	if r := judge(false, bound, compounds); !r.Assessment.Sufficient || !strings.Contains(r.Assessment.Reason, `"extra" as "spare"`) {
		t.Fatalf("Compound off: %+v, want accepted reading \"extra\" as \"spare\" (the test no longer shows the credit)", r.Assessment)
	}
	if r := judge(true, bound, compounds); r.Assessment.Sufficient {
		t.Errorf("v33: %+v, want refused (\"spare\" only in \"spare parts\")", r.Assessment)
	}
	if r := judge(true, "You can buy a spare jug for the X200 from our shop, and spare parts too.", compounds); !r.Assessment.Sufficient {
		t.Errorf("v33, \"spare\" written outside the compound too: %+v, want accepted", r.Assessment)
	}
	if r := judge(true, bound, nil); !r.Assessment.Sufficient {
		t.Errorf("v33, no compound listed: %+v, want accepted", r.Assessment)
	}
}

// wipeCase is TestCompoundTries' question, its two pages (one writing
// "delete" only in "delete key"), their lexicon, and a thesaurus defining
// "delete" by "wipe", listing the compound "delete key" and relating as
// related says.
func wipeCase(an *terms.Analyzer, related fakeThesaurus) (q string, page, bound Evidence, lex *lexicon, th fakeFormer) {
	q = "how do I get you to wipe my account data"
	page = Evidence{ChunkID: "account#0", Title: "Your account page", Text: "Your account data is shown on your account page. Account data includes your orders, your account settings and the data of your registered products."}
	bound = Evidence{ChunkID: "privacy#0", Title: "Your account data", Text: "Press the delete key on your account page for your account data. We do it within 30 days of your request."}
	lex = newLexicon(an, page.Title+"\n"+page.Text, bound.Title+"\n"+bound.Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Wipe the jug with a damp cloth", "Delete old jobs from the repair log")
	del := thesaurus.Taxon{Word: "delete", Pos: 'v', Its: 1, ItsCommon: true, Pointer: 'g'}
	th = fakeFormer{fakeDefiner{fakeTaxonomy{related, nil}, map[string][]thesaurus.Taxon{"wipe": {del}}}, map[string][]string{"delete_key": {"delete key"}, "delete": {"delete"}}}
	return q, page, bound, lex, th
}

// TestCompoundTries (rv31): Compound reads the thesaurus tries too
// (judgeCredited, every try: the first chunk's and, with KinRank, those
// of the chunks below it), not only the wide reading's relatives:
// "wipe" read as the "delete" WordNet defines by it credits nothing when
// the evidence writes "delete" only in "delete key", a compound WordNet
// lists. TestCompound's case is the wide reading's; removing the tries'
// unbound left it passing.
func TestCompoundTries(t *testing.T) {
	an := terms.New()
	q, page, bound, lex, th := wipeCase(an, fakeThesaurus{})
	judge := func(compound bool, rank int, ev ...Evidence) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.Compound, b.KinRank = compound, rank
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, c := range []struct {
		name string
		rank int
		ev   []Evidence
	}{{"first chunk", 0, []Evidence{bound}}, {"KinRank 1, the second chunk", 1, []Evidence{page, bound}}} {
		if r := judge(false, c.rank, c.ev...); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "privacy#0" || !strings.Contains(r.Assessment.Reason, `"wipe" as "delete"`) {
			t.Errorf("%s, Compound off: %+v %v, want accepted on privacy#0 reading \"wipe\" as \"delete\" (the case no longer shows the credit)", c.name, r.Assessment, r.Accepted)
			continue
		}
		if r := judge(true, c.rank, c.ev...); r.Assessment.Sufficient {
			t.Errorf("%s, Compound on: %+v %v, want refused (\"delete\" only in \"delete key\")", c.name, r.Assessment, r.Accepted)
		}
	}
}

// countingFormer counts the compounds (words joined by "_") it is asked
// for.
type countingFormer struct {
	fakeFormer
	asked map[string]int
}

func (f countingFormer) BaseForms(w string) []string {
	if strings.Contains(w, "_") {
		f.asked[w]++
	}
	return f.fakeFormer.BaseForms(w)
}

// TestCompoundReadOnce (rv31b): an assessment reads its evidence for
// compounds once, however many credits it asks about (the wide reading's
// and each thesaurus try's, the first chunk's and, with KinRank, those
// below it): each compound a word of the evidence could be part of is
// asked of the thesaurus once. Before, each ask read the evidence again
// and asked again: "the_delete" and "delete_key" twice each here (two
// asks with "delete" in the credit: "wipe" is related to "delete" and
// defines it).
func TestCompoundReadOnce(t *testing.T) {
	an := terms.New()
	q, page, bound, lex, former := wipeCase(an, fakeThesaurus{"wipe": {"delete"}})
	th := countingFormer{former, map[string]int{}}
	for _, c := range []struct {
		rank int
		ev   []Evidence
	}{{0, []Evidence{bound}}, {1, []Evidence{page, bound}}} {
		rank := c.rank
		clear(th.asked)
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.KinRank = rank
		if _, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: c.ev, Groups: []string{"public"}}); err != nil {
			t.Fatal(err)
		}
		if th.asked["delete_key"] == 0 {
			t.Fatalf("KinRank %d: \"delete_key\" never asked (%v): the case no longer reads compounds", rank, th.asked)
		}
		for w, n := range th.asked {
			if n > 1 {
				t.Errorf("KinRank %d: %q asked %d times, want once (%v)", rank, w, n, th.asked)
			}
		}
	}
}

// BenchmarkCompoundReadOnce is TestCompoundReadOnce's KinRank 1 case,
// assessed with WordNet's relation and definition faked.
func BenchmarkCompoundReadOnce(b *testing.B) {
	an := terms.New()
	q, page, bound, lex, th := wipeCase(an, fakeThesaurus{"wipe": {"delete"}})
	a := NewBuiltin(an, lex)
	a.Rewriter = NewRewriter(an, lex)
	a.UseThesaurus(th)
	a.KinRank = 1
	req := Request{Question: q, Query: q, K: 5, Evidence: []Evidence{page, bound}, Groups: []string{"public"}}
	for b.Loop() {
		if _, err := a.Assess(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
