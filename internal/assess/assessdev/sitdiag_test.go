package assessdev

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestSitDiag logs, for the questions ACT_IDS names, the first attempt's
// verdict and every retrieved chunk judged alone.
func TestSitDiag(t *testing.T) {
	b, qs := collect(t)
	ctx := context.Background()
	for _, a := range qs {
		if !strings.Contains(","+os.Getenv("ACT_IDS")+",", ","+a.set+":"+a.id+",") {
			continue
		}
		r, err := b.Assess(ctx, a.req)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s:%s %q rel=%v\n  ALL acc=%v %v %.3f %s", a.set, a.id, a.q.Question, a.q.Relevant, r.Accepted, r.Assessment.Sufficient, r.Assessment.Score, r.Assessment.Reason)
		for i, e := range a.req.Evidence {
			one := a.req
			one.Evidence = a.req.Evidence[i : i+1]
			o, err := b.Assess(ctx, one)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("  %d %s %v %.3f %s", i, e.ChunkID, o.Assessment.Sufficient, o.Assessment.Score, o.Assessment.Reason)
		}
	}
}
