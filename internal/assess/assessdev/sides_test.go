package assessdev

import "testing"

// TestV34Sides compares the default with Builtin.Sides (a comparison
// judged on each named thing's own chunk holding its value, see
// assess/sides.go) on every development set but those SKIP_SETS names,
// first attempt and loop: it logs each set's scores and each changed
// verdict, and fails when Sides refuses fewer no-answer questions on a
// set, is right less often in total or accepts on a relevant chunk a
// smaller share of the time.
func TestV34Sides(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v33", "v34", func(on bool) { b.Sides = on }, keepsRefusalAndShare(t, "v33", "v34"))
}
