package assessdev

import "testing"

// TestV66Charged replays builtin:coverage-v66's Charged (a yes/no
// question naming money in its clause that asks is decided by a stated
// amount of money) against v63 through the loop: the design sets' changed
// verdicts, the design and confirm totals.
func TestV66Charged(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v63", "v66", func(on bool) { b.Charged = on })
}
