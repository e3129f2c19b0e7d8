package assessdev

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
)

// A learned veto on the rules' accepts (round 48, a48-veto): when the
// rules accept a chunk, refuse if a model scores it below a threshold.
// The examples are round 47's (TestLearnedExamples47, cached in
// ASSESSDEV_EXAMPLES); the models are fitted by fit (learned_test.go).
//
//   - "add": the add model (gatedRows: every chunk of the questions the
//     rules refuse, as learned_table.go is fitted), scoring the accepted
//     chunk with its rules-accept features 0 (as the add scores);
//   - "acc": a model fitted on the accepted chunks (vetoRows), labelled 1
//     when the question is answerable and the chunk's document relevant;
//   - "accq": the same, labelled 1 when the question is answerable (what
//     the trade counts: a right answer needs a relevant document retrieved,
//     not accepted on).

// vetoRows are the accepted chunk of every first attempt of the sets in
// in that the rules accept on a chunk; answerable labels by the question
// alone.
func vetoRows(exs []example, in func(string) bool, answerable bool) []row {
	var rows []row
	for _, e := range exs {
		if in(e.Set) && e.V21Doc && e.V21 >= 0 {
			y := e.Relevant[e.V21]
			if answerable {
				y = e.Answerable && e.Retrieved
			}
			rows = append(rows, row{x: e.Cands[e.V21].Features, y: y})
		}
	}
	return rows
}

// vetoModel fits the kind's model on the sets in in.
func vetoModel(exs []example, in func(string) bool, kind string, lam float64) func([]float64) float64 {
	switch kind {
	case "add":
		m := fit(gatedRows(exs, in), lam)
		ra, rany := featureAt("rules_accept"), featureAt("rules_accept_any")
		return func(x []float64) float64 {
			x = slices.Clone(x)
			x[ra], x[rany] = 0, 0
			return m.Score(x)
		}
	case "acc", "accq":
		m := fit(vetoRows(exs, in, kind == "accq"), lam)
		return m.Score
	case "accb": // boosted stumps (boost47_test.go), labelled as accq
		m := fitStumps(vetoRows(exs, in, true), 200, 16, 0.1, 1)
		return m.Score
	case "all": // every chunk of every first attempt (trainRows), as round 19's one model
		var rows []row
		for _, e := range exs {
			if in(e.Set) {
				for i, c := range e.Cands {
					rows = append(rows, row{x: c.Features, y: e.Relevant[i]})
				}
			}
		}
		m := fit(rows, lam)
		return m.Score
	}
	panic("veto model " + kind)
}

// vetoScored is a first attempt the rules accept on a chunk, with the
// veto model's score of that chunk.
type vetoScored struct {
	e *example
	p float64
}

// vetoScore scores the accepted chunks of the sets in keep by m.
func vetoScore(m func([]float64) float64, exs []example, keep func(string) bool) []vetoScored {
	var out []vetoScored
	for i := range exs {
		e := &exs[i]
		if keep(e.Set) && e.V21Doc && e.V21 >= 0 {
			out = append(out, vetoScored{e, m(e.Cands[e.V21].Features)})
		}
	}
	return out
}

// vetoTally is the rules' verdicts on the sets in keep with the accepts
// scored below veto (in vs) refused.
func vetoTally(exs []example, keep func(string) bool, vs []vetoScored, veto float64) score {
	vetoed := map[*example]bool{}
	for _, v := range vs {
		if v.p < veto {
			vetoed[v.e] = true
		}
	}
	var s score
	for i := range exs {
		e := &exs[i]
		if !keep(e.Set) {
			continue
		}
		if vetoed[e] {
			s.count(e, false, false)
		} else {
			s.count(e, e.V21Doc, e.V21On)
		}
	}
	return s
}

// vetoTrade is the veto's trade against the rules: refusals gained, right
// answers lost.
func vetoTrade(got, base score) (gain, loss int) {
	return got.refused - base.refused, base.right - got.right
}

// vetoRatio (VETOTRADE, default 3): the chooser's trade — the refusals
// gained at least this many times the right answers lost (the keep rule
// asks 2 on confirm, 1 on design; 3 leaves a margin out of sample).
var vetoRatio = func() float64 {
	if v, err := strconv.ParseFloat(os.Getenv("VETOTRADE"), 64); err == nil {
		return v
	}
	return 3
}()

// chooseVeto picks the veto threshold with the most refusals gained on
// the training examples (vs, the rules' base) while they are at least
// vetoRatio times the right answers lost, the lower threshold winning
// ties; 0 (no veto) when none gains.
func chooseVeto(vs []vetoScored) float64 {
	best, bestGain := 0.0, 0
	// a threshold just above each score vetoes it and every lower one
	sorted := slices.Clone(vs)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].p < sorted[j].p })
	gain, loss := 0, 0
	for i, v := range sorted {
		if !v.e.Answerable {
			gain++
		} else if v.e.Retrieved {
			loss++
		}
		if i+1 < len(sorted) && sorted[i+1].p == v.p {
			continue
		}
		if gain > bestGain && float64(gain) >= vetoRatio*float64(loss) {
			best, bestGain = v.p+1e-12, gain
		}
	}
	return best
}

func featureAt(name string) int {
	if i := slices.Index(assess.FeatureNames(), name); i >= 0 {
		return i
	}
	panic(name)
}

// group48 names the report groups a set counts in (the brief's: design,
// confirm, and the newest confirm sets fresh43–45).
func group48(s string) []string { return groupFrom(s, envOr("NEWEST", "fresh43")) }

// TestVetoLOSO48 scores each development set but the validation set by
// the veto fitted on the other 46 (threshold chosen on those, in sample,
// under VETOTRADE), per group, against the rules. The validation set is
// not scored. VETO=add,acc,accq,accb,all picks the models; FIXED=t,t…
// adds fixed thresholds.
func TestVetoLOSO48(t *testing.T) {
	exs := cached47(t)
	train := trainSets47()
	kinds := strings.Split(envOr("VETO", "add,acc,accq"), ",")
	var fixed []float64
	for _, f := range strings.Split(os.Getenv("FIXED"), ",") {
		if x, err := strconv.ParseFloat(f, 64); err == nil {
			fixed = append(fixed, x)
		}
	}
	groups := []string{"design", "confirm", "newest"}
	for _, kind := range kinds {
		type variant struct {
			name   string
			rules  map[string]*score
			vetoed map[string]*score
		}
		vars := []*variant{{name: "chosen"}}
		for _, f := range fixed {
			vars = append(vars, &variant{name: fmt.Sprintf("fixed %.2f", f)})
		}
		for _, v := range vars {
			v.rules, v.vetoed = map[string]*score{}, map[string]*score{}
			for _, g := range groups {
				v.rules[g], v.vetoed[g] = &score{}, &score{}
			}
		}
		var chosen []string
		for _, held := range train {
			in := func(s string) bool { return s != held && s != validation }
			m := vetoModel(exs, in, kind, lambda)
			th := chooseVeto(vetoScore(m, exs, in))
			chosen = append(chosen, fmt.Sprintf("%.3f", th))
			only := func(s string) bool { return s == held }
			vs := vetoScore(m, exs, only)
			base := v21Score(exs, only)
			for k, v := range vars {
				veto := th
				if k > 0 {
					veto = fixed[k-1]
				}
				got := vetoTally(exs, only, vs, veto)
				for _, g := range group48(held) {
					v.vetoed[g].add(&got)
					v.rules[g].add(&base)
				}
			}
		}
		t.Logf("%s: thresholds %v", kind, chosen)
		for _, v := range vars {
			for _, g := range groups {
				gain, loss := vetoTrade(*v.vetoed[g], *v.rules[g])
				t.Logf("%s %s %-7s rules %s | vetoed %s  (refusal +%d, right -%d)", kind, v.name, g, v.rules[g], v.vetoed[g], gain, loss)
			}
		}
	}
}

// TestVetoTrade48 logs the out-of-sample trade of vetoing the rules'
// accepts, lowest-scored first (each set but the validation set scored by
// the veto fitted on the other 46), per group.
func TestVetoTrade48(t *testing.T) {
	exs := cached47(t)
	for _, kind := range strings.Split(envOr("VETO", "add,acc,accq"), ",") {
		var vs []vetoScored
		for _, held := range trainSets47() {
			m := vetoModel(exs, func(s string) bool { return s != held && s != validation }, kind, lambda)
			vs = append(vs, vetoScore(m, exs, func(s string) bool { return s == held })...)
		}
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].p < vs[j].p })
		gain, loss := map[string]int{}, map[string]int{}
		for i, v := range vs {
			g := group48(v.e.Set)[0]
			if !v.e.Answerable {
				gain[g]++
			} else if v.e.Retrieved {
				loss[g]++
			}
			if i < 30 || (i+1)%10 == 0 && i < 200 {
				t.Logf("%s veto %4d (score %.3f): design +%d/-%d, confirm +%d/-%d", kind, i+1, v.p, gain["design"], loss["design"], gain["confirm"], loss["confirm"])
			}
		}
	}
}

func envOr(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}

// TestVetoAUC48 logs, over the first attempts the rules accept on a chunk
// (every set but the validation set), how well each feature alone and
// each model's out-of-fold score rank the no-answer questions below the
// answerable ones with a relevant document retrieved (the area under the
// curve: 0.5 is chance; the veto needs the no-answer ones at the bottom).
func TestVetoAUC48(t *testing.T) {
	exs := cached47(t)
	in := func(s string) bool { return s != validation }
	auc := func(vs []vetoScored) (float64, int, int) {
		var neg, pos []float64 // no-answer, right
		for _, v := range vs {
			switch {
			case !v.e.Answerable:
				neg = append(neg, v.p)
			case v.e.Retrieved:
				pos = append(pos, v.p)
			}
		}
		sort.Float64s(pos)
		var sum float64
		for _, n := range neg {
			lo := sort.SearchFloat64s(pos, n)
			hi := sort.Search(len(pos), func(i int) bool { return pos[i] > n })
			sum += float64(len(pos)-hi) + 0.5*float64(hi-lo)
		}
		return sum / float64(len(neg)*len(pos)), len(neg), len(pos)
	}
	for k, n := range assess.FeatureNames() {
		a, neg, pos := auc(vetoScore(func(x []float64) float64 { return x[k] }, exs, in))
		t.Logf("feature %-28s AUC %.3f (%d no-answer, %d right)", n, max(a, 1-a), neg, pos)
	}
	for _, kind := range strings.Split(envOr("VETO", "acc,accq,accb,all"), ",") {
		var vs []vetoScored
		for _, held := range trainSets47() {
			m := vetoModel(exs, func(s string) bool { return s != held && s != validation }, kind, lambda)
			vs = append(vs, vetoScore(m, exs, func(s string) bool { return s == held })...)
		}
		a, _, _ := auc(vs)
		t.Logf("model %s out of fold: AUC %.3f", kind, a)
	}
}

// TestVetoReasons48 writes (VETO_REASONS=file) the rules' reason of each
// first attempt they accept, one JSON line per question (set, id,
// answerable, retrieved, reason), to group the accepts by the reading
// that made them (the reason names it, as the asker reads it).
func TestVetoReasons48(t *testing.T) {
	p := os.Getenv("VETO_REASONS")
	if p == "" {
		t.Skip("set VETO_REASONS")
	}
	b, qs := collect(t)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, a := range qs {
		if a.set == validation {
			continue
		}
		res, _, err := b.Candidates(context.Background(), a.req)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Assessment.Sufficient || res.Assessment.Score < threshold {
			continue
		}
		line, _ := json.Marshal(map[string]any{"set": a.set, "id": a.id, "answerable": a.answerable, "retrieved": a.retrieved, "reason": res.Assessment.Reason})
		fmt.Fprintf(f, "%s\n", line)
	}
}

// TestVetoTable48 writes internal/assess/veto_table.go (with
// ASSESSDEV_WRITE=1): the veto of builtin:coverage-v65, boosted stumps
// (200 rounds, 16 quantile cuts, shrinkage 0.1: fitStumps) fitted on the
// chunk the rules accept of every first attempt of the development sets
// but the validation set, labelled 1 when the question is answerable and a
// relevant document was retrieved ("accb"), and its threshold, chosen on
// the same sets as in each fold of TestVetoLOSO48 (the most refusals
// gained with at least VETOTRADE, 3, per right answer lost):
//
//	ASSESSDEV=1 ASSESSDEV_HOLDINGS=1 ASSESSDEV_THESAURUS=/usr/share/wordnet ASSESSDEV_EXAMPLES=/tmp/ex.json go test ./internal/assess/assessdev -run 'TestLearnedExamples47$'
//	ASSESSDEV=1 ASSESSDEV_EXAMPLES=/tmp/ex.json ASSESSDEV_WRITE=1 go test ./internal/assess/assessdev -run 'TestVetoTable48$' -v
func TestVetoTable48(t *testing.T) {
	exs := cached47(t)
	in := func(s string) bool { return s != validation }
	m := fitStumps(vetoRows(exs, in, true), 200, 16, 0.1, 1)
	vs := vetoScore(m.Score, exs, in)
	th := chooseVeto(vs)
	base := v21Score(exs, in)
	got := vetoTally(exs, in, vs, th)
	gain, loss := vetoTrade(got, base)
	t.Logf("veto below %.4f (trade %g): rules %s | vetoed %s (refusal +%d, right -%d, in sample)", th, vetoRatio, base, got, gain, loss)
	if os.Getenv("ASSESSDEV_WRITE") == "" {
		return
	}
	var b strings.Builder
	b.WriteString("// Code generated by TestVetoTable48 (internal/assess/assessdev/veto48_test.go); DO NOT EDIT.\n\npackage assess\n\n")
	b.WriteString("// vetoBelow is the score below which builtin:coverage-v65 refuses the\n// chunk the rules accept.\n")
	fmt.Fprintf(&b, "const vetoBelow = %s\n\n", strconv.FormatFloat(th, 'g', -1, 64))
	b.WriteString("// vetoBias and vetoStumps are the boosted stumps' (raw features,\n// featureNames' order): a stump adds left when the feature is at most cut,\n// right otherwise.\n")
	fmt.Fprintf(&b, "const vetoBias = %s\n\nvar vetoStumps = [...]vetoStump{\n", strconv.FormatFloat(m.bias, 'g', -1, 64))
	names := assess.FeatureNames()
	for _, s := range m.st {
		fmt.Fprintf(&b, "\t{%d, %s, %s, %s}, // %s\n", s.k, strconv.FormatFloat(s.cut, 'g', -1, 64), strconv.FormatFloat(s.left, 'g', -1, 64), strconv.FormatFloat(s.right, 'g', -1, 64), names[s.k])
	}
	b.WriteString("}\n")
	writeGo(t, "../veto_table.go", b.String())
}

// TestVetoReplay48 replays every first attempt (all sets but the
// validation set) with the default assessor, Veto on, against the rules'
// verdict (Candidates: Veto and Learned off), and logs what the veto
// changed: the in-sample counterpart of TestVetoTable48's tally, through
// Assess.
func TestVetoReplay48(t *testing.T) {
	if os.Getenv("VETO_REPLAY") == "" {
		t.Skip("set VETO_REPLAY=1")
	}
	b, qs := collect(t)
	if !b.Veto {
		t.Fatal("the default has no Veto")
	}
	gain, loss, other := map[string]int{}, map[string]int{}, map[string]int{}
	for _, a := range qs {
		if a.set == validation {
			continue
		}
		rules, _, err := b.Candidates(context.Background(), a.req)
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.Assess(context.Background(), a.req)
		if err != nil {
			t.Fatal(err)
		}
		if !rules.Assessment.Sufficient || res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, "the rules accepted") {
			continue
		}
		g := group48(a.set)[0]
		switch {
		case !a.answerable:
			gain[g]++
		case a.retrieved:
			loss[g]++
		default:
			other[g]++
		}
		if g == "design" {
			t.Logf("vetoed %s %s (answerable %v): %s", a.set, a.id, a.answerable, res.Assessment.Reason)
		}
	}
	t.Logf("vetoed: refusal gained %v, right lost %v, answerable not retrieved %v", gain, loss, other)
}
