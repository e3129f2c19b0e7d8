package assess

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"
)

// TestCandidates checks the features Candidates reads of each chunk: one
// vector per retrieved chunk, FeatureNames long, finite, the same on a
// second call and whatever order the chunks arrive in (the assessor's own
// order), and the verdict Assess's: computing them changes nothing.
func TestCandidates(t *testing.T) {
	b, _ := newTestAssessor()
	ctx := context.Background()
	for _, q := range []string{
		"how many years is the X300 Pro motor covered for",
		"what does E12 mean on the X300 Pro",
		"how do I descale the X300 Pro",
		"vacuum blender warranty",
	} {
		req := Request{Question: q, Query: q, Evidence: hollinLike, Groups: []string{"public"}}
		want, err := b.Assess(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		res, cands, err := b.Candidates(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, want) {
			t.Errorf("%q: Candidates' verdict %+v, Assess's %+v", q, res, want)
		}
		if len(cands) != len(hollinLike) {
			t.Fatalf("%q: %d candidates for %d chunks", q, len(cands), len(hollinLike))
		}
		for _, c := range cands {
			if len(c.Features) != len(FeatureNames()) {
				t.Fatalf("%q: %s has %d features, want %d", q, c.ChunkID, len(c.Features), len(FeatureNames()))
			}
			for i, x := range c.Features {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Errorf("%q: %s: %s is %v", q, c.ChunkID, FeatureNames()[i], x)
				}
			}
		}
		_, again, _ := b.Candidates(ctx, req)
		rev := req
		rev.Evidence = slices.Clone(hollinLike)
		slices.Reverse(rev.Evidence)
		_, reordered, _ := b.Candidates(ctx, rev)
		if !reflect.DeepEqual(again, cands) || !reflect.DeepEqual(reordered, cands) {
			t.Errorf("%q: features differ between calls or orders:\n%v\n%v\n%v", q, cands, again, reordered)
		}
	}
}
