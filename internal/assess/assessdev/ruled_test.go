package assessdev

import (
	"os"
	"testing"
)

// TestV52Ruled (round 45, a45-yesno) compares builtin:coverage-v51
// (Builtin.Ruled off) with v52 (a yes/no question decided by a rule a
// retrieved chunk states about the question's thing; assess/ruled.go)
// through the loop's attempts (compareOnDesign); Measured (v53) and
// Situated (v54) are off.
func TestV52Ruled(t *testing.T) {
	b, qs := collect(t)
	b.Measured, b.Situated = false, false
	compareOnDesign(t, b, qs, "v51", "v52", func(on bool) { b.Ruled = on })
}

// TestV52One is TestV34ActOne with Ruled as RULED says ("0" off).
func TestV52One(t *testing.T) {
	b, qs := collect(t)
	b.Ruled = os.Getenv("RULED") != "0"
	logPicked(t, b, qs)
}
