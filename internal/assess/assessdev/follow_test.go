package assessdev

import "testing"

// TestV57Follow compares builtin:coverage-v55 with Follow (assess/parts.go)
// off and on, on the design sets (changed verdicts) and the confirm sets
// (totals only): compareOnDesign.
func TestV57Follow(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v55", "v57", func(on bool) { b.Follow = on })
}
