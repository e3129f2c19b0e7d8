package assessdev

import "testing"

// TestV37Tagged compares builtin:coverage-v36 with v37 (Builtin.Tagged:
// Frame reads a word of the clause that asks as a verb only where the
// part-of-speech tagger tags it one; see assess/frame.go) on every
// development set but those SKIP_SETS names, first attempt and loop: it
// logs each set's scores and each changed verdict, and fails when v37
// refuses fewer no-answer questions on a set, is right less often in
// total or accepts on a relevant chunk a smaller share of the time.
func TestV37Tagged(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v36", "v37", func(on bool) { b.Tagged = on }, keepsRefusalAndShare(t, "v36", "v37"))
}
