package assessdev

import (
	"os"
	"strings"
	"testing"
)

// TestCmp44One judges the questions ACT_IDS names (set:id, comma
// separated) through the loop with the default assessor, Builtin.Sides,
// SidesMeasure and Listed each on only when CMP44_SIDES, CMP44_MEASURE
// and CMP44_LIST are set (without them it is v49 without v47's three
// switches, not the default), and logs each verdict.
func TestCmp44One(t *testing.T) {
	b, qs := collect(t)
	b.Sides = os.Getenv("CMP44_SIDES") != ""
	b.SidesMeasure = os.Getenv("CMP44_MEASURE") != ""
	b.Listed = os.Getenv("CMP44_LIST") != ""
	logPicked(t, b, qs)
}

// TestCmp44Totals runs every development question through the loop
// (judgeLoop) with the default assessor, Builtin.Sides, SidesMeasure and
// Listed each on only when CMP44_SIDES, CMP44_MEASURE and CMP44_LIST are
// set (as TestCmp44One), logs the design and confirm totals and writes every verdict to
// CMP44_OUT.
func TestCmp44Totals(t *testing.T) {
	b, qs := collect(t)
	b.Sides = os.Getenv("CMP44_SIDES") != ""
	b.SidesMeasure = os.Getenv("CMP44_MEASURE") != ""
	b.Listed = os.Getenv("CMP44_LIST") != ""
	res, lines := judgeLoop(t, b, qs)
	var design, confirm score
	for i, s := range sets {
		switch {
		case i <= 14:
			design.add(res[s])
		case s != validation:
			confirm.add(res[s])
		}
		t.Logf("%-8s %s", s, res[s])
	}
	t.Logf("design %s", design)
	t.Logf("confirm %s", confirm)
	if p := os.Getenv("CMP44_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
