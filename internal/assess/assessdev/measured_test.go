package assessdev

import (
	"os"
	"testing"
)

// TestV54Measured (round 45, a45-val) compares builtin:coverage-v51
// (Builtin.Measured off) with v54 (a value question's measure words
// credited by a stated value of the kind asked; assess/measured.go)
// through the loop's attempts (compareOnDesign).
func TestV54Measured(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v51", "v54", func(on bool) { b.Measured = on })
}

// TestV54One is TestV34ActOne with Measured as MEASURED says ("0" off).
func TestV54One(t *testing.T) {
	b, qs := collect(t)
	b.Measured = os.Getenv("MEASURED") != "0"
	logPicked(t, b, qs)
}
