package assessdev

import (
	"os"
	"testing"
)

// TestV56Covered (round 46, a46-yesno) compares builtin:coverage-v55
// (Builtin.Covered off) with v56 (a yes/no question of warranty cover
// decided by a chunk's statement of what the cover takes in or leaves
// out; assess/covered.go) through the loop's attempts (compareOnDesign).
func TestV56Covered(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v55", "v56", func(on bool) { b.Covered = on })
}

// TestV56One is TestV34ActOne with Covered as COVERED says ("0" off).
func TestV56One(t *testing.T) {
	b, qs := collect(t)
	b.Covered = os.Getenv("COVERED") != "0"
	logPicked(t, b, qs)
}
