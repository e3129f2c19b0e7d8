package assessdev

import (
	"os"
	"testing"
)

// TestV53Measured (round 45, a45-val) compares builtin:coverage-v52
// (Builtin.Measured off) with v53 (a value question's measure words
// credited by a stated value of the kind asked; assess/measured.go)
// through the loop's attempts (compareOnDesign); Situated (v54) is off.
func TestV53Measured(t *testing.T) {
	b, qs := collect(t)
	b.Situated = false
	compareOnDesign(t, b, qs, "v52", "v53", func(on bool) { b.Measured = on })
}

// TestV53One is TestV34ActOne with Measured as MEASURED says ("0" off).
func TestV53One(t *testing.T) {
	b, qs := collect(t)
	b.Measured = os.Getenv("MEASURED") != "0"
	logPicked(t, b, qs)
}
