package assess

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// hollinDocs loads the Hollin corpus (testdata/hollin/corpus.jsonl) as
// one chunk per document, with its ACL, and an assessor over it.
func hollinDocs(t testing.TB) (*Builtin, map[string]Evidence) {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	an := terms.New()
	lex := &lexicon{}
	docs := map[string]Evidence{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var d struct {
			ID, Title, Text string
			ACL             []string
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		lex.add(an, d.ACL, d.Title+"\n"+d.Text)
		docs[d.ID] = Evidence{ChunkID: d.ID + "#0", Title: d.Title, Text: d.Text}
	}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	return b, docs
}

// permutations calls fn with every ordering of ev.
func permutations(ev []Evidence, fn func([]Evidence)) {
	var rec func(k int)
	p := slices.Clone(ev)
	rec = func(k int) {
		if k == len(p) {
			fn(slices.Clone(p))
			return
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// TestOwnOrder: the same retrieved chunks in any order get the same
// verdict, score, reason and accepted chunks (builtin:coverage-v18,
// OwnOrder). The cases are development questions with the five documents
// the service's search retrieved for them, each of which v17 judged
// differently in some order (round 15's held-out h01 first: accepted on
// the specification page when it came first, refused when the error-code
// page did); v17 must fail the property on h01.
func TestOwnOrder(t *testing.T) {
	b, docs := hollinDocs(t)
	cases := []struct {
		q    string
		docs []string
	}{
		{"how fast does the X200 spin", []string{"man-x200-specs", "man-x200-blades", "ntc-x200-recall", "man-x200-cleaning", "man-x200-errors"}},
		{"can I put the blender base in the sink", []string{"man-x200-cleaning", "ntc-x200-recall", "man-x200-specs", "pol-registration", "pol-privacy"}},
		{"how do I connect the K50 to my phone", []string{"man-k50-kettle", "man-k50-app", "faq-proof-of-purchase", "faq-warranty-claim", "man-x300-errors"}},
		{"how big is the jug on the X200", []string{"man-x200-specs", "man-x200-blades", "ntc-x200-recall", "man-x200-cleaning", "man-x200-errors"}},
		{"where is the Hollin head office", []string{"faq-abroad", "man-k50-app", "man-x300-errors", "man-x200-errors", "pol-warranty-2026"}},
		{"which has more speed settings, the X200 or the X300 Pro?", []string{"man-x300-specs", "pol-warranty-2026", "man-x200-specs", "man-x300-errors", "pol-privacy"}},
		{"how regularly should I be getting the scale out of my K50?", []string{"man-k50-kettle", "man-k50-app", "pol-privacy", "pol-repairs", "pol-registration"}},
		{"my X200 just cut out with E7 on the display, how long do I have to leave it off the plug before I try again", []string{"man-x200-errors", "man-x200-specs", "man-x200-blades", "ntc-x200-recall", "man-x200-cleaning"}},
		{"I knocked my blender off the worktop and the jug cracked - will Hollin replace it for nothing under the guarantee?", []string{"pol-warranty-2026", "ntc-x200-recall", "man-x200-errors", "man-x200-blades", "man-x200-specs"}},
		{"is the X300 Pro's motor much beefier than the X200's?", []string{"man-x300-specs", "pol-warranty-2026", "man-x300-errors", "man-x200-specs", "man-x200-cleaning"}},
	}
	type outcome struct {
		sufficient bool
		score      float64
		reason     string
		accepted   string
	}
	judge := func(q string, ev []Evidence) outcome {
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Groups: []string{"public"}, Evidence: ev})
		if err != nil {
			t.Fatal(err)
		}
		return outcome{res.Assessment.Sufficient, res.Assessment.Score, res.Assessment.Reason, strings.Join(res.Accepted, " ")}
	}
	evidence := func(ids []string) []Evidence {
		var ev []Evidence
		for _, id := range ids {
			e, ok := docs[id]
			if !ok {
				t.Fatalf("no document %s", id)
			}
			ev = append(ev, e)
		}
		return ev
	}
	for _, c := range cases {
		ev := evidence(c.docs)
		want := judge(c.q, ev)
		differ := 0
		permutations(ev, func(p []Evidence) {
			if got := judge(c.q, p); got != want {
				if differ == 0 {
					t.Errorf("%q: %v in one order, %v in another", c.q, want, got)
				}
				differ++
			}
		})
		if differ > 0 {
			t.Errorf("%q: %d of 120 orders judged otherwise", c.q, differ)
		}
	}
	// h01 with the specification page first or the error-code page first:
	// accepted both ways on the specification page.
	h01 := evidence(cases[0].docs)
	for _, ev := range [][]Evidence{h01, append([]Evidence{h01[4]}, h01[:4]...)} {
		if got := judge(cases[0].q, ev); !got.sufficient || got.accepted != "man-x200-specs#0" || !strings.Contains(got.reason, "22,000 RPM") {
			t.Errorf("h01 %v, want accepted on the specification page's 22,000 RPM", got)
		}
	}
	// v17 judges the same chunks by their order (without v49's Matter,
	// which reads "spin" as frame: every order then covers the question).
	b.OwnOrder, b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated = false, false, false, false, false, false, false
	if a, z := judge(cases[0].q, h01), judge(cases[0].q, append([]Evidence{h01[4]}, h01[:4]...)); a.sufficient == z.sufficient {
		t.Errorf("v17 judged h01 alike in both orders (%v, %v): the test no longer shows the order dependence", a, z)
	}
}

// BenchmarkOwnOrder is one assessment of h01's five Hollin documents,
// the specification page first (both accept it on the first reading), with
// v18's own order and without it (v17): what ordering the evidence costs.
func BenchmarkOwnOrder(b *testing.B) {
	a, docs := hollinDocs(b)
	var ev []Evidence
	for _, id := range []string{"man-x200-specs", "man-x200-blades", "ntc-x200-recall", "man-x200-cleaning", "man-x200-errors"} {
		ev = append(ev, docs[id])
	}
	q := "how fast does the X200 spin"
	req := Request{Question: q, Query: q, K: 5, Groups: []string{"public"}, Evidence: ev}
	for _, on := range []bool{false, true} {
		a.OwnOrder = on
		b.Run(map[bool]string{false: "v17", true: "v18"}[on], func(b *testing.B) {
			for range b.N {
				if _, err := a.Assess(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestOwnOrderSpelling: a misspelt question word is corrected to the
// word the attempt's evidence spells it with, and two words of the
// evidence may be equally close ("replacd": "replaced", "replace"); with
// the own order (v18) the choice, and so the reason and the proposals
// (the spelling strategy's query), do not depend on the order the
// evidence arrived in.
func TestOwnOrderSpelling(t *testing.T) {
	an := terms.New()
	jug := Evidence{ChunkID: "a#0", Title: "Jug", Text: "A cracked jug is replaced free within the warranty."}
	seal := Evidence{ChunkID: "b#0", Title: "Seal", Text: "Replace the blade seal every year."}
	kettle := Evidence{ChunkID: "c#0", Title: "K50", Text: "The K50 kettle boils in four minutes. The lid is sold separately."}
	lids := Evidence{Title: "Lids", Text: "Lids for the K50 cost £5 from the parts shop."}
	lex := newLexicon(an)
	for _, e := range []Evidence{jug, seal, kettle, lids} {
		lex.add(an, []string{"public"}, e.Title+"\n"+e.Text)
	}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	for _, q := range []string{"who replacd my K50 lid", "how often is the K50 lid replacd?"} {
		var got []string
		for _, ev := range [][]Evidence{{jug, seal, kettle}, {seal, jug, kettle}} {
			res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 3, Groups: []string{"public"}, Evidence: ev})
			if err != nil {
				t.Fatal(err)
			}
			out := res.Assessment.Reason + " // " + strings.Join(res.Accepted, " ")
			for _, p := range res.Proposals {
				out += " // " + p.Strategy + ": " + p.Query
			}
			got = append(got, out)
		}
		if got[0] != got[1] {
			t.Errorf("%q judged by the evidence's order:\n  %s\n  %s", q, got[0], got[1])
		}
	}
}
