package assessdev

import (
	"os"
	"testing"
)

// TestV49Matter (round 44, a44-mat; then against v45 as TestV47Matter)
// compares builtin:coverage-v48 (Builtin.Matter off) with v49 (a material
// question expects a material, a speed question's motion verb, moving
// part and top-of-range phrase are frame; assess/matter.go) through the
// loop's attempts (compareOnDesign).
func TestV49Matter(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v48", "v49", func(on bool) { b.Matter = on })
}

// TestV49One is TestV34ActOne with Matter as MATTER says ("0" off).
func TestV49One(t *testing.T) {
	b, qs := collect(t)
	b.Matter = os.Getenv("MATTER") != "0"
	logPicked(t, b, qs)
}
