package assessdev

import (
	"os"
	"strings"
	"testing"
)

// TestV33Gloss compares v32 with v33's reading of a definition as a
// phrase (Builtin.Genus) and of the defined word as the chunk writes it
// (Builtin.Spelled) off and on, see assess/gloss.go, on every
// development set but those SKIP_SETS names, first attempt and loop:
// on must refuse as many no-answer questions on every set, accept on a
// relevant chunk no less often in total and no smaller a share of the
// time (a question it no longer accepts on a page that is not its
// relevant one counts as right here: the replay's right is accepted). V33_SWITCHES ("genus", "spelled"; both when unset) turns
// on only those named. Without a thesaurus the two are the same
// assessor.
func TestV33Gloss(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	on := os.Getenv("V33_SWITCHES")
	genus, spelled := on == "" || strings.Contains(on, "genus"), on == "" || strings.Contains(on, "spelled")
	compareVersions(t, b, qs, "v32", "v33", func(set bool) { b.Genus, b.Spelled = set && genus, set && spelled }, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v32", "v33", o, n)
		t.Logf("%s total: v32 %s | v33 %s", way, a, z)
		if z.on < a.on || !z.keepsShare(a) {
			t.Errorf("%s: v33 %s accepts on a relevant chunk less often or a smaller share of the time than v32 %s", way, z, a)
		}
	})
}
