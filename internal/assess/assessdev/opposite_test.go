package assessdev

import "testing"

// TestOpposite replays the loop with Builtin.Opposite off and on.
func TestOpposite(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v59", "opposite", func(on bool) { b.Opposite = on })
}
