package assessdev

import "testing"

// TestV37Tagged compares builtin:coverage-v36 with v37 (Builtin.Tagged:
// Frame reads a word of the clause that asks as a verb only where the
// part-of-speech tagger tags it one; see assess/frame.go) on every
// development set but those SKIP_SETS names, first attempt and loop: it
// logs each set's scores and each changed verdict, and fails when v37
// refuses fewer no-answer questions on a set or is right less often in
// total. The share accepted on a relevant chunk is logged, not checked:
// on the design sets v37 is one lower (fresh10 t04, "get the smart
// kettle ready to connect": v35 read the adjective "ready" as a verb and
// left it out, which moved the acceptance to the relevant page; the
// tagger reads an adjective, as v34 did; docs/log/round-34-a34-frame.md).
func TestV37Tagged(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v36", "v37", func(on bool) { b.Tagged = on }, keepsRefusalAndRight(t, "v36", "v37"))
}

// keepsRefusalAndRight is TestV32Defined's and TestV37Tagged's check:
// newer refuses no fewer no-answer questions on any set and in total is
// right no less often.
func keepsRefusalAndRight(t *testing.T, older, newer string) func(way string, o, n map[string]*score, a, z score) {
	return func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, older, newer, o, n)
		t.Logf("%s total: %s %s | %s %s", way, older, a, newer, z)
		if z.right < a.right {
			t.Errorf("%s: %s %s is right less often than %s %s", way, newer, z, older, a)
		}
	}
}
