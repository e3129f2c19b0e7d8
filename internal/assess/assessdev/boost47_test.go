package assessdev

import (
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
)

// stumps is a boosted-stumps model (logistic loss, Newton leaf values,
// shrinkage): a chunk's score is the logistic function of bias plus, per
// stump, left or right by its feature's threshold.
type stumps struct {
	bias float64
	st   []stump
}

type stump struct {
	k           int
	cut         float64
	left, right float64 // added when x[k] <= cut, else
}

func (m *stumps) Score(x []float64) float64 {
	z := m.bias
	for _, s := range m.st {
		if x[s.k] <= s.cut {
			z += s.left
		} else {
			z += s.right
		}
	}
	return 1 / (1 + math.Exp(-z))
}

// quantileBins cuts each feature at up to bins quantiles of its values on
// rows (duplicates dropped) and gives each row's bin per feature: bin b
// holds x <= cuts[k][b] (and > cuts[k][b-1]).
func quantileBins(rows []row, bins int) (cuts [][]float64, idx [][]uint8) {
	d := len(assess.FeatureNames())
	if len(rows) > 0 {
		d = len(rows[0].x) // round 49's features appended (CROSS49)
	}
	n := len(rows)
	cuts, idx = make([][]float64, d), make([][]uint8, d)
	for k := range d {
		vals := make([]float64, n)
		for i, r := range rows {
			vals[i] = r.x[k]
		}
		sort.Float64s(vals)
		var cs []float64
		for b := 1; b < bins; b++ {
			cs = append(cs, vals[b*n/bins])
		}
		cs = slices.Compact(cs)
		cuts[k] = cs
		idx[k] = make([]uint8, n)
		for i, r := range rows {
			idx[k][i] = uint8(sort.SearchFloat64s(cs, r.x[k])) // first cut >= x
		}
	}
	return cuts, idx
}

// priorLogit is the log-odds of rows' labels (add-one smoothed): a
// boosted model's starting score.
func priorLogit(rows []row) float64 {
	pos := 0
	for _, r := range rows {
		if r.y {
			pos++
		}
	}
	p0 := (float64(pos) + 1) / (float64(len(rows)) + 2)
	return math.Log(p0 / (1 - p0))
}

// fitStumps boosts rounds stumps on rows, each feature cut at up to bins
// quantiles of its training values; deterministic.
func fitStumps(rows []row, rounds, bins int, shrink, lam float64) *stumps {
	n := len(rows)
	cuts, idx := quantileBins(rows, bins)
	m := &stumps{bias: priorLogit(rows)}
	f := make([]float64, n)
	for i := range f {
		f[i] = m.bias
	}
	g, h := make([]float64, n), make([]float64, n)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	for range rounds {
		gradients(rows, f, g, h)
		bk, bc, _, bl, br, _ := bestSplit(cuts, idx, g, h, all, lam)
		if bk < 0 {
			break
		}
		s := stump{k: bk, cut: cuts[bk][bc], left: shrink * bl, right: shrink * br}
		m.st = append(m.st, s)
		for i := range rows {
			if int(idx[bk][i]) <= bc {
				f[i] += s.left
			} else {
				f[i] += s.right
			}
		}
	}
	return m
}

// gradients sets g and h to the log loss's first and second derivatives
// at scores f for rows' labels.
func gradients(rows []row, f, g, h []float64) {
	for i, r := range rows {
		p := 1 / (1 + math.Exp(-f[i]))
		y := 0.0
		if r.y {
			y = 1
		}
		g[i], h[i] = p-y, p*(1-p)
	}
}

// bestSplit finds the best split of the rows in (binned by quantileBins,
// with gradients g and h, L2 weight lam): feature k (-1: none gains),
// bin c (left holds bins <= c), the gain, the Newton values of both sides
// and of the rows unsplit.
func bestSplit(cuts [][]float64, idx [][]uint8, g, h []float64, in []int, lam float64) (k, c int, gain, left, right, leaf float64) {
	var G, H float64
	for _, i := range in {
		G += g[i]
		H += h[i]
	}
	k = -1
	for f := range cuts {
		nb := len(cuts[f]) + 1
		gs, hs := make([]float64, nb), make([]float64, nb)
		for _, i := range in {
			b := idx[f][i]
			gs[b] += g[i]
			hs[b] += h[i]
		}
		var gl, hl float64
		for b := 0; b < nb-1; b++ {
			gl += gs[b]
			hl += hs[b]
			gr, hr := G-gl, H-hl
			if v := gl*gl/(hl+lam) + gr*gr/(hr+lam) - G*G/(H+lam); v > gain+1e-12 {
				gain, k, c = v, f, b
				left, right = -gl/(hl+lam), -gr/(hr+lam)
			}
		}
	}
	return k, c, gain, left, right, -G / (H + lam)
}

var guard = os.Getenv("GUARD") != ""

// guardOK: the chunk names every entity of the question, and the
// question asks about no thing the visible documents never name.
func guardOK(x []float64) bool {
	names := assess.FeatureNames()
	return x[slices.Index(names, "entity_share")] == 1 && x[slices.Index(names, "absent")] == 0
}

type scorer interface{ Score([]float64) float64 }

// TestBoostTrade47 compares, out of sample (each set but the validation
// set scored by the add model fitted on the other 45), the logistic add
// model and boosted stumps: right answers added at a given number of
// no-answer questions added, best-scored first, and per group at the
// thresholds chosen on the out-of-fold scores (TRADE).
func TestBoostTrade47(t *testing.T) {
	exs := cached47(t)
	rounds, _ := strconv.Atoi(os.Getenv("ROUNDS"))
	if rounds == 0 {
		rounds = 200
	}
	train := trainSets47()
	addRowsIn := func(in func(string) bool) []row {
		var rows []row
		for _, e := range exs {
			if in(e.Set) && !e.V21Doc {
				for i, c := range e.Cands {
					rows = append(rows, row{x: c.Features, y: e.Relevant[i]})
				}
			}
		}
		return rows
	}
	kinds := []string{"logistic", "stumps"}
	if os.Getenv("KINDS") != "" {
		kinds = strings.Split(os.Getenv("KINDS"), ",")
	}
	for _, kind := range kinds {
		var scs []scored
		for _, held := range train {
			in := func(s string) bool { return s != held && s != validation }
			if os.Getenv("INSAMPLE") != "" {
				in = func(s string) bool { return s != validation }
			}
			rows := addRowsIn(in)
			var m scorer
			if kind == "logistic" {
				m = fit(rows, 10)
			} else {
				m = fitStumps(rows, rounds, 16, 0.1, 1)
			}
			for i := range exs {
				e := &exs[i]
				if e.Set != held {
					continue
				}
				sc := scored{e: e, pick: -1}
				for j, c := range e.Cands {
					if guard && !guardOK(c.Features) {
						continue
					}
					if p := m.Score(c.Features); sc.pick < 0 || p > sc.pModel {
						sc.pick, sc.pModel = j, p
					}
				}
				scs = append(scs, sc)
			}
		}
		var adds []scored
		for _, sc := range scs {
			if !sc.e.V21Doc && sc.pick >= 0 {
				adds = append(adds, sc)
			}
		}
		sort.SliceStable(adds, func(i, j int) bool { return adds[i].pModel > adds[j].pModel })
		g, c, next := 0, 0, 0
		marks := []int{1, 2, 3, 5, 8, 10, 15, 20, 30, 40, 60}
		for i, a := range adds {
			if a.e.Answerable && a.e.Retrieved {
				g++
			}
			if !a.e.Answerable {
				c++
				if next < len(marks) && c == marks[next] {
					t.Logf("%s: at no-answer %d (rank %d, score %.3f): +%d right", kind, c, i+1, a.pModel, g-1+boolInt(a.e.Answerable))
					next++
				}
			}
		}
		base := v21Score(exs, func(s string) bool { return s != validation })
		ths := []float64{chooseAdd(scs, base)}
		for _, f := range strings.Split(os.Getenv("FIXED"), ",") {
			if x, err := strconv.ParseFloat(f, 64); err == nil {
				ths = append(ths, x)
			}
		}
		for _, add := range ths {
			for _, grp := range []string{"design", "confirm", "newest"} {
				var r, l score
				for _, sc := range scs {
					if slices.Contains(group47(sc.e.Set), grp) {
						a, on := addDecide(sc, add)
						l.count(sc.e, a, on)
						r.count(sc.e, sc.e.V21Doc, sc.e.V21On)
					}
				}
				t.Logf("%s at %.3f (trade 1/%d) %-7s rules %s | learned %s", kind, add, tradeRatio, grp, r, l)
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
