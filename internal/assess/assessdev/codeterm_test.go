package assessdev

import (
	"os"
	"strconv"
	"testing"
)

// TestCodeTerm compares builtin:coverage-v37 with Builtin.CodeTerm set
// (v28's general reading tells a page naming no product by its single
// terms, not by the runs of terms its mentions hold, with the bits'
// conditions; see assess/codeterm.go; off in every named model, round 35)
// on every development set but those SKIP_SETS names, first attempt and
// loop: it logs each set's scores and each changed verdict, and fails
// when CodeTerm refuses fewer no-answer questions on a set, is right less
// often in total or accepts on a relevant chunk a smaller share of the
// time. A35_CODETERM sets the bits (15 by default: all four).
func TestCodeTerm(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	bits := 15
	if s := os.Getenv("A35_CODETERM"); s != "" {
		var err error
		if bits, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	compareVersions(t, b, qs, "v37", "codeterm", func(on bool) {
		b.CodeTerm = 0
		if on {
			b.CodeTerm = bits
		}
	}, keepsRefusalAndShare(t, "v37", "codeterm"))
}
