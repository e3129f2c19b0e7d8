package assessdev

import (
	"os"
	"strconv"
	"testing"
)

// TestAlone compares the default assessor with Builtin.Alone set (when
// the judgement of all the evidence refuses, the chunks below the first
// down to a rank are each judged alone; see assess/alone.go; round 36) on
// every development set but those SKIP_SETS names, first attempt and
// loop: it logs each set's scores and each changed verdict, and fails
// when Alone refuses fewer no-answer questions on a set, is right less
// often in total or accepts on a relevant chunk a smaller share of the
// time. A36_ALONE sets the switch's value (497 by default: builtin:coverage-v40's,
// rank 1 with every guard; round 37).
func TestAlone(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	v := 497
	if s := os.Getenv("A36_ALONE"); s != "" {
		var err error
		if v, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	b.Gate, b.ExpandMerge = false, 0 // v38 against v40 (Alone alone)
	compareVersions(t, b, qs, "v38", "alone", func(on bool) {
		b.Alone = 0
		if on {
			b.Alone = v
		}
	}, keepsRefusalAndShare(t, "v38", "alone"))
}
