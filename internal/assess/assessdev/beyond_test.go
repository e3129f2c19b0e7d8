package assessdev

import (
	"os"
	"strconv"
	"testing"
)

// TestBeyond compares the default assessor with its thesaurus tries
// reading only the first chunk (KinRank 0) and the chunks down to rank
// BEYOND_RANK (2 when unset; see assess/beyond.go) on every development
// set but those SKIP_SETS names, first attempt and loop: the wider reading
// must refuse as many no-answer questions on every set and be right no
// less often in total. Without a thesaurus the two are the same assessor.
func TestBeyond(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	rank := 2
	if s := os.Getenv("BEYOND_RANK"); s != "" {
		var err error
		if rank, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	newer := "kinrank" + strconv.Itoa(rank)
	compareVersions(t, b, qs, "v32", newer, func(on bool) {
		b.KinRank = 0
		if on {
			b.KinRank = rank
		}
	}, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v32", newer, o, n)
		t.Logf("%s total: v32 %s | %s %s", way, a, newer, z)
		if z.right < a.right {
			t.Errorf("%s: %s %s is right less often than v32 %s", way, newer, z, a)
		}
	})
}
