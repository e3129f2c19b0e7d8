package assessdev

import "testing"

// TestV29Circumstances compares v29 with its circumstance reading
// (Builtin.Circumstances, "+circumstances", off in every named model) off
// and on (an adverbial clause inside the parts of
// the question that ask weighs as the scene does, see
// assess/circumstances.go) on every development set but those SKIP_SETS
// names, first attempt and loop: the reading must refuse as many
// no-answer questions on every set, be right more often, and accept on a
// relevant chunk no smaller a share of the time.
func TestV29Circumstances(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v29", "v29+circumstances", func(on bool) { b.Circumstances = on }, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v29", "v29+circumstances", o, n)
		t.Logf("%s total: v29 %s (%.2f%% on a relevant chunk) | +circumstances %s (%.2f%%)", way, a, 100*float64(a.on)/float64(a.accepted), z, 100*float64(z.on)/float64(z.accepted))
		if z.right <= a.right || !z.keepsShare(a) {
			t.Errorf("%s: +circumstances %s is not right more often than v29 %s, or on a relevant chunk less often", way, z, a)
		}
	})
}
