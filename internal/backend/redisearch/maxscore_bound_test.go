package redisearch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

// fakeStats are term statistics made up for TestMaxScoreBoundHolds.
type fakeStats struct {
	n   int
	df  map[string]int
	avg float64
}

func (f fakeStats) DocFreq(t string) int { return f.df[t] }
func (f fakeStats) Len() int             { return f.n }
func (f fakeStats) AvgLen() float64      { return f.avg }

// TestMaxScoreBoundHolds: for random queries, plans, cuts and term-frequency
// caps, no chunk the essential read cannot have returned (every essential
// term held at most cut/weight times, every term at most its max tf, any
// length) scores above maxScoreBound: every such chunk up to 40 tokens is
// scored exactly and compared.
func TestMaxScoreBoundHolds(t *testing.T) { testMaxScoreBound(t, false) }

// TestMaxScoreBoundHoldsWithImpacts: the same with (tf, length)
// frontiers for most terms (impact.go): only chunks that lie under their
// terms' frontiers could exist, and none of them may score above the
// bound. Fails if the bound takes a frontier point at a length above the
// interval's low end, drops a point, or counts a term not held at a
// length in coord there as held elsewhere.
func TestMaxScoreBoundHoldsWithImpacts(t *testing.T) { testMaxScoreBound(t, true) }

func testMaxScoreBound(t *testing.T, withImpacts bool) {
	rng := rand.New(rand.NewPCG(20, 1))
	params := []backend.BM25{{K1: 10, B: 0.4}, {K1: 1.2, B: 0.75}, {K1: 0.9, B: 0.4}, {K1: 1.2, B: 0}, {K1: 2, B: 1}}
	trials := 400
	if withImpacts {
		trials = 1500
	}
	for trial := range trials {
		p := params[trial%len(params)]
		st := fakeStats{n: 1000, df: map[string]int{}, avg: []float64{0, 3, 12, 150}[rng.IntN(4)]}
		nt := 1 + rng.IntN(3)
		var query []string
		for i := range nt {
			term := fmt.Sprintf("t%d", i)
			st.df[term] = 1 + rng.IntN(900)
			for range 1 + rng.IntN(2) {
				query = append(query, term)
			}
		}
		if rng.IntN(2) == 0 {
			query = append(query, "hidden") // no visible chunk holds it
		}
		q := backend.NewBM25Query(st, p, query)
		mult := map[string]int{}
		for _, term := range query {
			mult[term]++
		}
		var uniq []string
		var vis []int
		for i := range nt {
			term := fmt.Sprintf("t%d", i)
			uniq, vis = append(uniq, term), append(vis, st.df[term])
		}
		old, oldMin := maxScoreShare, maxScoreMinDF
		maxScoreShare, maxScoreMinDF = rng.Float64()*0.9, 0
		plan, ok := maxScorePlan(q, uniq, mult, vis, st.n)
		maxScoreShare, maxScoreMinDF = old, oldMin
		if !ok {
			continue
		}
		cut := 0.0
		if rng.IntN(3) > 0 {
			cut = rng.Float64() * 3 * plan[len(plan)-1].weight
		}
		maxTF := map[string]int{}
		for _, term := range uniq {
			if rng.IntN(2) == 0 {
				maxTF[term] = rng.IntN(6)
			}
		}
		var imp map[string]frontier
		if withImpacts {
			imp = map[string]frontier{}
			for _, term := range uniq {
				if rng.IntN(4) > 0 {
					var f frontier
					for range 1 + rng.IntN(4) {
						tf := 1 + rng.IntN(6)
						f = f.add(tf, tf+rng.IntN(41-tf))
					}
					imp[term] = f
				}
			}
		}
		bound := maxScoreBound(q, p, st.avg, plan, cut, maxTF, imp)
		// Every chunk of length ℓ ≤ 40 that could have stayed unread.
		caps := make([]int, len(plan))
		for i, mt := range plan {
			c := 40
			if mt.essential {
				c = min(c, int(cut/mt.weight))
			}
			if m, ok := maxTF[mt.term]; ok {
				c = min(c, m)
			}
			caps[i] = c
		}
		tf := make([]int, len(plan))
		var walk func(i, used int)
		walk = func(i, used int) {
			if i == len(plan) {
				if used == 0 {
					return
				}
			lengths:
				for l := used; l <= 40; l++ {
					for k, mt := range plan {
						if f, ok := imp[mt.term]; ok && tf[k] > 0 && !slices.ContainsFunc(f, func(p tfLen) bool { return p.tf >= tf[k] && p.n <= l }) {
							continue lengths // no chunk of the index is like this one
						}
					}
					var sum float64
					matched := 0
					for j, pos := range query {
						for k, mt := range plan {
							if mt.term == pos && tf[k] > 0 {
								sum += q.Clause(j, tf[k], float64(l))
								matched++
							}
						}
					}
					if s := q.Score(sum, matched); s > bound*(1+1e-12) {
						t.Fatalf("trial %d: chunk of length %d with tf %v scores %v above the bound %v (plan %+v, cut %v, max tf %v)", trial, l, tf, s, bound, plan, cut, maxTF)
					}
				}
				return
			}
			for f := 0; f <= caps[i] && used+f <= 40; f++ {
				tf[i] = f
				walk(i+1, used+f)
			}
			tf[i] = 0
		}
		walk(0, 0)
	}
}
