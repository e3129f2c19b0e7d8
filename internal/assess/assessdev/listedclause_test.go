package assessdev

import "testing"

// TestV55ListedClause (round 45, a45-list) compares builtin:coverage-v54
// (Builtin.ListedClause off) with v55 (a list question's closing clause of
// time or manner set aside, the enumeration looked for in the first two
// candidates; assess/listed.go) through the loop's attempts
// (compareOnDesign).
func TestV55ListedClause(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v54", "v55", func(on bool) { b.ListedClause = on })
}
