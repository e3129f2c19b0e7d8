package assessdev

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
)

// BenchmarkLearnedCost (rv47) times one pass of Assess (the first
// attempt's judgement) over the first attempts of the design sets (or
// BENCH_SETS=set,set) by builtin:coverage-v61 (Learned off),
// builtin:coverage-v62 (Learned on: every assessment records the
// features, the add reads them when the rules refuse) and v61 through
// Candidates (the rules' verdict with the features: what recording alone
// costs), and builtin:coverage-v65 (Learned and Veto on: the features
// read on the rules' accepts too; round 48, a48-veto). v61 and v62 here
// are the default with Veto off. One op is the whole pass.
//
//	ASSESSDEV=1 ASSESSDEV_THESAURUS=/usr/share/wordnet go test ./internal/assess/assessdev -run '^$' -bench 'BenchmarkLearnedCost' -benchtime 5x
func BenchmarkLearnedCost(b *testing.B) {
	base, qs := collect(b)
	in := slices.Clone(sets[:slices.Index(sets, "fresh14")]) // the design sets
	if v := os.Getenv("BENCH_SETS"); v != "" {
		in = strings.Split(v, ",")
	}
	qs = slices.DeleteFunc(qs, func(a asked) bool { return !slices.Contains(in, a.set) })
	ctx := context.Background()
	for _, c := range []struct {
		name          string
		learned, veto bool
		cands         bool
	}{{"v61", false, false, false}, {"v62", true, false, false}, {"v61-candidates", false, false, true}, {"v65", true, true, false}} {
		b.Run(c.name, func(b *testing.B) {
			a := *base
			a.Learned, a.Veto = c.learned, c.veto
			refused := 0
			for range b.N {
				refused = 0
				for _, q := range qs {
					var res assess.Result
					var err error
					if c.cands {
						res, _, err = a.Candidates(ctx, q.req)
					} else {
						res, err = a.Assess(ctx, q.req)
					}
					if err != nil {
						b.Fatal(err)
					}
					if !res.Assessment.Sufficient {
						refused++
					}
				}
			}
			b.ReportMetric(float64(len(qs)), "questions")
			b.ReportMetric(float64(refused), "refused")
		})
	}
}
