package assessdev

import (
	"os"
	"strings"
	"testing"
)

// withoutSets drops the questions of the sets SKIP_SETS names (a
// validation set's, so that a rule is not designed on it).
func withoutSets(qs []asked) []asked {
	skip := strings.Fields(strings.ReplaceAll(os.Getenv("SKIP_SETS"), ",", " "))
	var out []asked
	for _, a := range qs {
		keep := true
		for _, s := range skip {
			keep = keep && a.set != s
		}
		if keep {
			out = append(out, a)
		}
	}
	return out
}

// skipSets leaves the sets SKIP_SETS names out of sets, and returns what
// puts them back.
func skipSets() func() {
	all := sets
	sets = nil
	for _, s := range all {
		if !strings.Contains(","+os.Getenv("SKIP_SETS")+",", ","+s+",") {
			sets = append(sets, s)
		}
	}
	return func() { sets = all }
}

// TestV24 compares builtin:coverage-v23 (Builtin.Hyp off) with v24 (the
// coverage rules credit a question word's direct hypernyms and hyponyms
// as well, see assess/hyp.go) on every development set, first attempt
// and loop: v24 must refuse as many no-answer questions on every set, be
// right no less often in total (more often, with a thesaurus) and accept
// on a relevant chunk no smaller a share of the time. Without a thesaurus
// the two are the same assessor. SKIP_SETS leaves sets out (fresh20, the
// round's validation set, when a rule is designed).
func TestV24(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	keeps := keepsRefusalAndShare(t, "v23", "v24")
	compareVersions(t, b, qs, "v23", "v24", func(on bool) { b.Hyp = on; b.Alike = false }, func(way string, o, n map[string]*score, a, z score) {
		keeps(way, o, n, a, z)
		if b.Thesaurus != nil && z.right == a.right {
			t.Errorf("%s: v24 %s is not right more often than v23 %s", way, z, a)
		}
	})
}

// TestV25 compares builtin:coverage-v24 (Builtin.Alike off) with v25 (a
// kind's modifier read through its WordNet similar-to and also-see
// relatives, see assess/alike.go) on every development set, first attempt
// and loop: v25 must refuse as many no-answer questions on every set, be
// right more often with a thesaurus, and every question it accepts that
// v24 refused must be right (an answerable one, a relevant document among
// the hits). Not the share of acceptances on a relevant chunk: fresh16
// z80, a comparison v25 gets right, is accepted by the comparison reading
// on the warranty page joined with the X300 Pro's specifications (the
// answer cites the two specification pages), which lowers the share from
// 1001/1169 to 1004/1173 (docs/log/round-24-a24-wn.md). Without a
// thesaurus the two are the same assessor. SKIP_SETS leaves sets out
// (fresh22, the round's validation set).
func TestV25(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v24", "v25", func(on bool) { b.Alike = on }, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v24", "v25", o, n)
		t.Logf("%s total: v24 %s | v25 %s", way, a, z)
		if z.right-a.right != z.accepted-a.accepted || b.Thesaurus != nil && z.right == a.right || b.Thesaurus == nil && z != a {
			t.Errorf("%s: v25 %s against v24 %s: not right more often with a thesaurus, the same without, or accepts a question it is not right on", way, z, a)
		}
	})
}

// TestV27 compares builtin:coverage-v26 (Builtin.Class off) with v27 (a
// question word the asker's visible chunks write in a code's product name
// is held by a chunk naming the code, see assess/class.go) on every
// development set but those SKIP_SETS names, first attempt and loop: v27
// must refuse as many no-answer questions on every set, and in total be
// right no less often and accept on a relevant chunk no smaller a share of
// the time.
func TestV27(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v26", "v27", func(on bool) { b.Class = on }, keepsRefusalAndShare(t, "v26", "v27"))
}

// TestV28General compares v28 with its general reading off (Builtin.General) and on (a
// chunk naming no model code holds a question word some visible product
// name holds, see assess/general.go) on every development set but those
// SKIP_SETS names, first attempt and loop: v28 must refuse as many
// no-answer questions on every set and be right more often. Not the share
// of acceptances on a relevant chunk, which it lowers (first attempt
// 1120/1306 → 1129/1317 with fresh24 left out: three of its eleven new
// acceptances are on a page that is not the relevant one,
// docs/log/round-26-a26-ref.md); the share is logged.
func TestV28General(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v27", "v28", func(on bool) { b.General = on }, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v27", "v28", o, n)
		t.Logf("%s total: v27 %s (%.2f%% on a relevant chunk) | v28 %s (%.2f%%)", way, a, 100*float64(a.on)/float64(a.accepted), z, 100*float64(z.on)/float64(z.accepted))
		if z.right <= a.right {
			t.Errorf("%s: v28 %s is not right more often than v27 %s", way, z, a)
		}
	})
}

// TestV28Searches counts the Naming searches of the first attempt with
// builtin:coverage-v27 and v28 (the harness reads them unkept, without
// the worker's per-question memo: an upper bound on what the worker
// searches).
func TestV28Searches(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	for _, on := range []bool{false, true} {
		b.General = on
		namingSearches = 0
		judge(t, b, qs)
		t.Logf("General %v: %d Naming searches for %d questions", on, namingSearches, len(qs))
	}
}
