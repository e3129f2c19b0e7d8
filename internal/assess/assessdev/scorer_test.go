package assessdev

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
)

// example is one development question's first attempt as the chunk
// scorer sees it: each chunk's features, whether it may be accepted and
// whether it is a relevant document's, and v10's verdict.
type example struct {
	a        asked
	feats    []assess.ChunkFeatures
	relevant []bool
	v10      bool   // v10 accepts
	v10On    string // the document v10 accepted on
}

// examples judges every question with builtin:coverage-v10 (the scorer
// off), recording the scorer's features.
func examples(t *testing.T, b *assess.Builtin, qs []asked) []example {
	t.Helper()
	var last []assess.ChunkFeatures
	b.Observe = func(fs []assess.ChunkFeatures) { last = fs }
	defer func() { b.Observe = nil }()
	scorer := b.Scorer
	b.Scorer = false
	defer func() { b.Scorer = scorer }()
	var out []example
	for _, a := range qs {
		last = nil
		r, err := b.Assess(context.Background(), a.req)
		if err != nil {
			t.Fatal(err)
		}
		e := example{a: a, feats: last, v10: r.Assessment.Sufficient}
		if e.v10 && len(r.Accepted) > 0 {
			e.v10On = a.chunkDoc[r.Accepted[0]]
		}
		for _, f := range last {
			e.relevant = append(e.relevant, a.answerable && slices.Contains(a.q.Relevant, a.chunkDoc[f.ChunkID]))
		}
		out = append(out, e)
	}
	return out
}

// questionLabels (ASSESSDEV_FIT=question) labels every chunk of a
// question by whether accepting the question is right (it is answerable
// and a relevant document was retrieved) instead of by the chunk's own
// document: the decision the scorer makes. Measured; not what is frozen.
var questionLabels = os.Getenv("ASSESSDEV_FIT") == "question"

// fit fits a logistic regression (intercept first) on the eligible chunks
// of the examples whose set is not held, by full-batch gradient descent
// with a small L2 penalty; deterministic.
func fit(exs []example, held string) []float64 {
	var xs [][]float64
	var ys []float64
	for _, e := range exs {
		if e.a.set == held || e.v10 {
			continue // the scorer decides only what v10 refuses
		}
		for i, f := range e.feats {
			if f.Eligible {
				xs = append(xs, f.X)
				y := e.relevant[i]
				if questionLabels {
					y = e.a.answerable && e.a.retrieved
				}
				ys = append(ys, map[bool]float64{true: 1, false: 0}[y])
			}
		}
	}
	if len(xs) == 0 {
		return nil
	}
	n := len(xs[0]) + 1
	w := make([]float64, n)
	g := make([]float64, n)
	const rate, l2, steps = 0.5, 1e-3, 3000
	for range steps {
		clear(g)
		for k, x := range xs {
			d := assess.Probability(w, x) - ys[k]
			g[0] += d
			for i, v := range x {
				g[i+1] += d * v
			}
		}
		for i := range w {
			reg := 0.0
			if i > 0 {
				reg = l2 * w[i]
			}
			w[i] -= rate * (g[i]/float64(len(xs)) + reg)
		}
	}
	return w
}

// decide scores the examples of set (all sets when "") with v10 plus the
// scorer at weights w and threshold th: a question v10 refuses is
// accepted on its eligible chunk of highest probability when that reaches
// th.
func decide(exs []example, set string, w []float64, th float64) map[string]*score {
	out := map[string]*score{}
	for _, e := range exs {
		if set != "" && e.a.set != set {
			continue
		}
		sc := out[e.a.set]
		if sc == nil {
			sc = &score{}
			out[e.a.set] = sc
		}
		ok, on := e.v10, e.v10On
		if !ok && w != nil {
			best := -1.0
			for _, f := range e.feats {
				if p := assess.Probability(w, f.X); f.Eligible && p >= th && p > best {
					best, ok, on = p, true, e.a.chunkDoc[f.ChunkID]
				}
			}
		}
		if e.a.answerable {
			sc.answerable++
			if ok && e.a.retrieved {
				sc.right++
			}
		} else {
			sc.noAnswer++
			if !ok {
				sc.refused++
			}
		}
		if ok {
			sc.accepted++
			if slices.Contains(e.a.q.Relevant, on) {
				sc.on++
			}
		}
	}
	return out
}

// thresholds are the scorer thresholds a fold chooses among.
var thresholds = []float64{0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2}

// chooseThreshold picks, on every set but held, the threshold with the
// most right answers on which no set's no-answer refusal falls below
// v10's and the share of acceptances on a relevant chunk does not fall
// below v10's; ties go to the higher threshold. Nil weights when none
// qualifies.
func chooseThreshold(exs []example, held string, w []float64) (float64, bool) {
	base := decide(exs, "", nil, 0)
	pick, pickRight := 0.0, -1
	for _, th := range thresholds {
		res := decide(exs, "", w, th)
		right, ok := 0, true
		var on, acc, bon, bacc int
		for _, s := range sets {
			if s == held {
				continue
			}
			right += res[s].right
			ok = ok && res[s].refused >= base[s].refused
			on, acc, bon, bacc = on+res[s].on, acc+res[s].accepted, bon+base[s].on, bacc+base[s].accepted
		}
		ok = ok && float64(on)*float64(bacc) >= float64(bon)*float64(acc)
		if ok && right > pickRight {
			pick, pickRight = th, right
		}
	}
	return pick, pickRight >= 0
}

// TestFitScorer fits builtin:coverage-v11's chunk scorer (a logistic
// regression over assess.ChunkFeatures, see internal/assess/scorer.go):
// first leave-one-set-out — weights and threshold fitted on all sets but
// one, scored on the one left out, against v10 — then on all sets, the
// weights and threshold it prints being the ones frozen in
// scorerWeights and scorerThreshold.
func TestFitScorer(t *testing.T) {
	b, qs := collect(t)
	exs := examples(t, b, qs)
	base := decide(exs, "", nil, 0)
	var t10, t11 score
	for _, held := range sets {
		w := fit(exs, held)
		th, ok := chooseThreshold(exs, held, w)
		if !ok {
			t.Logf("left out %-8s no threshold keeps the training sets' refusal and precision: v11 is v10 there: %s", held, base[held])
			t10.add(base[held])
			t11.add(base[held])
			continue
		}
		r := decide(exs, held, w, th)[held]
		t.Logf("left out %-8s threshold %.2f: v10 %s | v11 %s", held, th, base[held], r)
		t10.add(base[held])
		t11.add(r)
	}
	t.Logf("leave-one-set-out total: v10 %s | v11 %s", t10, t11)
	w := fit(exs, "")
	var ws []string
	for i, v := range w {
		w[i] = math.Round(v*1e4) / 1e4 // as frozen in scorerWeights
		ws = append(ws, fmt.Sprintf("%.4f", w[i]))
	}
	th, ok := chooseThreshold(exs, "", w)
	t.Logf("all sets: features %s", strings.Join(assess.FeatureNames(), ", "))
	t.Logf("all sets: weights {%s}, threshold %.2f (qualifies %v); in-sample, not a claim: %v", strings.Join(ws, ", "), th, ok, decide(exs, "", w, th))
	if p := os.Getenv("ASSESSDEV_FEATURES"); p != "" {
		var lines []string
		for _, e := range exs {
			for i, f := range e.feats {
				lines = append(lines, fmt.Sprintf("%s\t%s\t%d\t%v\t%v\t%v\t%v\t%v", e.a.set, e.a.id, i, e.a.answerable, e.relevant[i], f.Eligible, e.v10, f.X))
			}
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
