package assessdev

import (
	"testing"
)

// TestV48Places compares builtin:coverage-v47 (Builtin.Places 0) with v48
// (Places 3: a place name read through the words WordNet defines by its
// kind, and a yes/no question's model code credited to a page naming no
// code; assess/places.go) on every development set but those SKIP_SETS
// names, first attempt and loop, and logs each changed verdict and each
// set's scores. Round 44 (a44-yesno, then against v45 as TestV47Places) read the design sets' lines and the
// other sets' totals.
func TestV48Places(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	keep := b.Places
	defer func() { b.Places = keep }()
	compareVersions(t, b, qs, "v47", "v48", func(on bool) {
		b.Places = 0
		if on {
			b.Places = keep
		}
	}, func(way string, o, n map[string]*score, a, z score) {
		t.Logf("%s total: v47 %s | v48 %s", way, a, z)
	})
}
