package assessdev

import (
	"os"
	"strings"
	"testing"
)

// TestV32Decider compares the default with the readings of whom and what
// a deciding expression is said of (Builtin.Subject, Instead, Unnamed,
// Purpose; see assess/decider.go) on every development set but those
// SKIP_SETS names, first attempt and loop. V32_RULES (a list of
// "subject", "instead", "unnamed", "purpose") turns on only those it
// names; all four when unset. It logs each set's scores and each changed
// verdict, and fails when the readings refuse fewer no-answer questions
// on a set.
func TestV32Decider(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	rules := os.Getenv("V32_RULES")
	on := func(name string) bool { return rules == "" || strings.Contains(rules, name) }
	compareVersions(t, b, qs, "v31", "v32", func(set bool) {
		b.Subject = set && on("subject")
		b.Instead = set && on("instead")
		b.Unnamed = set && on("unnamed")
		b.Purpose = set && on("purpose")
	}, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v31", "v32", o, n)
		t.Logf("%s total: v31 %s | v32 %s", way, a, z)
	})
}
