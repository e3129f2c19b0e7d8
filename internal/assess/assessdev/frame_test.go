package assessdev

import "testing"

// TestV35Frame compares the default with Builtin.Frame (the words of the
// clause that asks which only qualify the asking, left out for a chunk
// holding an answer of the expected type; see assess/frame.go) on every
// development set but those SKIP_SETS names, first attempt and loop: it
// logs each set's scores and each changed verdict, and fails when Frame
// refuses fewer no-answer questions on a set, is right less often in
// total or accepts on a relevant chunk a smaller share of the time.
func TestV35Frame(t *testing.T) {
	b, qs := collect(t)
	b.Kind, b.Tagged = false, false // v34 and v35 (Kind: TestV36Kind)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v34", "v34+frame", func(on bool) { b.Frame = on }, keepsRefusalAndShare(t, "v34", "v34+frame"))
}
