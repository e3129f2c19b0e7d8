package assessdev

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestOrderDev judges every development question's first attempt with
// its retrieved chunks in twelve random orders (seeded) and fails when a
// verdict or score changes (builtin:coverage-v18's own order), or the
// reason, the accepted chunk or the rewrite proposals do; with
// ASSESSDEV_V17=1 it counts v17's changes instead. ASSESSDEV_OUT
// receives each changed question with both orders' reasons.
func TestOrderDev(t *testing.T) {
	b, qs := collect(t)
	v17 := os.Getenv("ASSESSDEV_V17") != ""
	b.OwnOrder = !v17
	rng := rand.New(rand.NewPCG(1, 2))
	var lines []string
	changed, worded := 0, 0
	for _, a := range qs {
		base, err := b.Assess(context.Background(), a.req)
		if err != nil {
			t.Fatal(err)
		}
		bv := base.Assessment.Sufficient && base.Assessment.Score >= threshold
		for range 12 {
			req := a.req
			req.Evidence = slices.Clone(a.req.Evidence)
			rng.Shuffle(len(req.Evidence), func(i, j int) { req.Evidence[i], req.Evidence[j] = req.Evidence[j], req.Evidence[i] })
			r, err := b.Assess(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			v := r.Assessment.Sufficient && r.Assessment.Score >= threshold
			if v == bv && r.Assessment.Score == base.Assessment.Score &&
				(r.Assessment.Reason != base.Assessment.Reason || !slices.Equal(r.Accepted, base.Accepted) || !slices.Equal(r.ProposalList(), base.ProposalList())) {
				worded++ // the same verdict, told or rested otherwise
				lines = append(lines, a.set+" "+a.id+" (reason or accepted chunk): "+base.Assessment.Reason+" | "+r.Assessment.Reason)
			}
			if v != bv || r.Assessment.Score != base.Assessment.Score {
				changed++
				var order []string
				for _, e := range req.Evidence {
					order = append(order, a.chunkDoc[e.ChunkID])
				}
				lines = append(lines, a.set+" "+a.id+": "+a.q.Question+"\n  base "+strings.Join(a.docs, " ")+" -> "+base.Assessment.Reason+"\n  perm "+strings.Join(order, " ")+" -> "+r.Assessment.Reason)
				break
			}
		}
	}
	t.Logf("%s: %d of %d questions change with the order of their evidence; %d shuffles change only the reason, the accepted chunk or the rewrite proposals", b.Model(), changed, len(qs), worded)
	if (changed > 0 || worded > 0) && !v17 {
		t.Errorf("%d questions judged by the order of their evidence, %d shuffles told otherwise", changed, worded)
	}
	if p := os.Getenv("ASSESSDEV_OUT"); p != "" {
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	}
}
