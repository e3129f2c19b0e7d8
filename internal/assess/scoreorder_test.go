package assess

import (
	"context"
	"strings"
	"testing"
)

// TestScoreOrder: builtin:coverage-v45 (Builtin.ScoreOrder) judges the
// evidence best first by the retrieval score each chunk carries, then by
// the own BM25, then by chunk id. Two warranty pages both answer "how
// long is the guarantee on a blender"; whichever carries the higher score
// is the one accepted, in every order the two arrive in, and with no
// scores (or equal ones) the own BM25's choice stands. With ScoreOrder off
// (v44, kept selectable) the scores change nothing.
func TestScoreOrder(t *testing.T) {
	b, docs := hollinDocs(t)
	q := "how long is the guarantee on a blender"
	a, z := docs["pol-warranty-2026"], docs["pol-warranty-2024"]
	judge := func(ev ...Evidence) (bool, string) {
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Groups: []string{"public"}, Evidence: ev})
		if err != nil {
			t.Fatal(err)
		}
		return res.Assessment.Sufficient, strings.Join(res.Accepted, " ")
	}
	scored := func(e Evidence, s float64) Evidence { e.Score = s; return e }
	if b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v45" || !b.ScoreOrder {
		t.Fatalf("default model %q, ScoreOrder %v: want builtin:coverage-v45 with ScoreOrder", b.Model(), b.ScoreOrder)
	}
	_, own := judge(a, z) // no scores: the own BM25's order
	for _, ev := range [][]Evidence{{a, z}, {z, a}} {
		if ok, got := judge(ev...); !ok || got != own {
			t.Errorf("no scores, %s first: accepted %v on %q, want %q", ev[0].ChunkID, ok, got, own)
		}
		if ok, got := judge(scored(ev[0], 0.5), scored(ev[1], 0.5)); !ok || got != own {
			t.Errorf("equal scores, %s first: accepted %v on %q, want %q", ev[0].ChunkID, ok, got, own)
		}
	}
	for _, hi := range []Evidence{a, z} {
		lo := map[bool]Evidence{true: z, false: a}[hi.ChunkID == a.ChunkID]
		for _, ev := range [][]Evidence{{scored(hi, 0.9), scored(lo, 0.1)}, {scored(lo, 0.1), scored(hi, 0.9)}} {
			if ok, got := judge(ev...); !ok || got != hi.ChunkID {
				t.Errorf("%s scored higher, %s first: accepted %v on %q, want %q", hi.ChunkID, ev[0].ChunkID, ok, got, hi.ChunkID)
			}
		}
	}
	b.ScoreOrder = false
	if b.Model() != V44Model || V44Model != "builtin:coverage-v44" {
		t.Errorf("ScoreOrder off: model %q, want builtin:coverage-v44", b.Model())
	}
	for _, hi := range []Evidence{a, z} {
		lo := map[bool]Evidence{true: z, false: a}[hi.ChunkID == a.ChunkID]
		if _, got := judge(scored(lo, 0.1), scored(hi, 0.9)); got != own {
			t.Errorf("v44, %s scored higher: accepted on %q, want the own BM25's %q", hi.ChunkID, got, own)
		}
	}
}
