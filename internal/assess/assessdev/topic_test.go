package assessdev

import (
	"os"
	"strings"
	"testing"
)

// TestV33Topic compares v33 with the focus reading's KnownAsk and
// FocusTopic (assess/topic.go) and Compound (assess/compound.go) off and
// on (V33_TOPIC names those turned on: "knownask", "focustopic",
// "compound"; the first two when unset) on every development set
// but those SKIP_SETS names, first attempt and loop: on must refuse as
// many no-answer questions on every set and accept on a relevant chunk
// no smaller a share of the time.
func TestV33Topic(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	on := os.Getenv("V33_TOPIC")
	known, topic, compound := on == "" || strings.Contains(on, "knownask"), on == "" || strings.Contains(on, "focustopic"), strings.Contains(on, "compound")
	compareVersions(t, b, qs, "v33", "v33+topic", func(set bool) { b.KnownAsk, b.FocusTopic, b.Compound = set && known, set && topic, set && compound }, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v33", "v33+topic", o, n)
		t.Logf("%s total: v33 %s | v33+topic %s", way, a, z)
		if !z.keepsShare(a) {
			t.Errorf("%s: v33+topic %s accepts on a relevant chunk a smaller share of the time than v33 %s", way, z, a)
		}
	})
}
