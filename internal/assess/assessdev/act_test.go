package assessdev

import (
	"os"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
)

// TestV34Act compares builtin:coverage-v33 with Act (assess/action.go)
// off and on, on every development set but those SKIP_SETS names, first
// attempt and loop: on must refuse as many no-answer questions on every
// set and accept on a relevant chunk no smaller a share of the time.
func TestV34Act(t *testing.T) {
	b, qs := collect(t)
	b.Frame, b.Kind, b.Tagged = false, false, false // v34 (Frame: TestV35Frame; Kind: TestV36Kind)
	compareActs(t, qs, "v33", "v33+act", func(set bool) { b.Act = set }, b)
}

// TestV36Kind compares builtin:coverage-v35 (v34 and Frame) with Kind
// (assess/kind.go) off and on, as TestV34Act compares v33 and v34.
func TestV36Kind(t *testing.T) {
	b, qs := collect(t)
	b.Tagged = false // v35 and v36 (Tagged: TestV37Tagged)
	compareActs(t, qs, "v35", "v36", func(set bool) { b.Kind = set }, b)
}

// compareActs is TestV34Act's and TestV36Kind's comparison of older and
// newer (set(false), set(true)) on every development set but those
// SKIP_SETS names.
func compareActs(t *testing.T, qs []asked, older, newer string, set func(bool), b *assess.Builtin) {
	t.Helper()
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, older, newer, set, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, older, newer, o, n)
		t.Logf("%s total: %s %s | %s %s", way, older, a, newer, z)
		if !z.keepsShare(a) {
			t.Errorf("%s: %s %s accepts on a relevant chunk a smaller share of the time than %s %s", way, newer, z, older, a)
		}
	})
}

// TestV34ActDump logs, with the default assessor (Act and, since v35 and
// v36, Frame and Kind on), each question the loop accepts
// without a relevant chunk (a no-answer question or another page), on
// every development set but those SKIP_SETS names.
func TestV34ActDump(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	b.Act = true
	_, lines := judgeLoop(t, b, qs)
	for _, l := range lines {
		if strings.Contains(strings.SplitN(l, "\n", 2)[0], "no-answer question accepted") || strings.Contains(l, "(not relevant)") {
			t.Log(strings.ReplaceAll(l, "\n", " |"))
		}
	}
}

// TestV34ActOne judges the questions ACT_IDS names (set:id, comma
// separated) with the default assessor (Act and, since v36, Kind on),
// first attempt, and logs each verdict.
func TestV34ActOne(t *testing.T) {
	b, qs := collect(t)
	b.Act = true
	logPicked(t, b, qs)
}

// logPicked judges the questions ACT_IDS names (set:id, comma separated)
// through the loop with b and logs each verdict.
func logPicked(t *testing.T, b *assess.Builtin, qs []asked) {
	t.Helper()
	var pick []asked
	for _, a := range qs {
		if strings.Contains(","+os.Getenv("ACT_IDS")+",", ","+a.set+":"+a.id+",") {
			pick = append(pick, a)
		}
	}
	_, lines := judgeLoop(t, b, pick)
	for _, l := range lines {
		t.Log(strings.ReplaceAll(l, "\n", " |"))
	}
}

// compareOnDesign judges every development question but the validation
// set's through the loop with set(false), then set(true), and
// logs each design set's changed verdicts and the design and confirm
// groups' totals (the confirm sets' per-set totals, none of their
// questions: round 44's set discipline).
func compareOnDesign(t *testing.T, b *assess.Builtin, qs []asked, older, newer string, set func(on bool)) {
	t.Helper()
	design := map[string]bool{}
	for _, s := range designSets() {
		design[s] = true
	}
	var pick []asked
	for _, a := range qs {
		if a.set != validation {
			pick = append(pick, a)
		}
	}
	set(false)
	o, base := judgeLoop(t, b, pick)
	set(true)
	n, lines := judgeLoop(t, b, pick)
	for i := range lines {
		if design[pick[i].set] && strings.SplitN(lines[i], "\n", 2)[0] != strings.SplitN(base[i], "\n", 2)[0] {
			t.Logf("%s changes %s", newer, strings.ReplaceAll(lines[i], "\n", " |"))
		}
	}
	var od, nd, oc, nc score
	for _, s := range sets {
		switch {
		case s == validation:
		case design[s]:
			od.add(o[s])
			nd.add(n[s])
		default:
			oc.add(o[s])
			nc.add(n[s])
			t.Logf("confirm %-8s %s %s | %s %s", s, older, o[s], newer, n[s])
		}
	}
	t.Logf("design  %s %s | %s %s", older, od, newer, nd)
	t.Logf("confirm %s %s | %s %s", older, oc, newer, nc)
}
