package assessdev

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
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
	compareVersions(t, b, qs, "kinrank0", newer, func(on bool) {
		b.KinRank = 0
		if on {
			b.KinRank = rank
		}
	}, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "kinrank0", newer, o, n)
		t.Logf("%s total: kinrank0 %s | %s %s", way, a, newer, z)
		if z.right < a.right {
			t.Errorf("%s: %s %s is right less often than kinrank0 %s", way, newer, z, a)
		}
	})
}

// TestAsmMeasure measures, on the first attempt with the default
// assessor, two readings of the first chunk (in the assessor's order) for
// the answerable questions it refuses although that chunk is a relevant
// document's (A) against the no-answer questions it refuses (N) and those
// it accepts (NA), by coarse expected type, on every development set but
// those SKIP_SETS names: a sentence holding an answer of the expected type
// holds, with its neighbours and the title, most of the question's or the
// clause that asks's weight (states_*, typed_sentence_coverage), and the
// IDF-weighted coverage of the clause that asks (focus_coverage,
// typed_focus), each with every focus entity named (focus_entities).
// Round 31 (docs/log/round-31-a31-asm.md).
func TestAsmMeasure(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	exs, _ := examples(t, b, qs, false)
	names := assess.FeatureNames()
	idx := func(n string) int { return slices.Index(names, n) }
	fe := idx("focus_entities")
	groups := []struct {
		name string
		in   func(e example) bool
	}{
		{"A", func(e example) bool { return e.Answerable && !e.V21Doc && len(e.Relevant) > 0 && e.Relevant[0] }},
		{"N", func(e example) bool { return !e.Answerable && !e.V21Doc }},
		{"NA", func(e example) bool { return !e.Answerable && e.V21Doc }},
	}
	for _, g := range groups {
		n := 0
		for _, e := range exs {
			if g.in(e) && len(e.Cands) > 0 {
				n++
			}
		}
		t.Logf("group %s: %d", g.name, n)
	}
	sigs := []string{"states_window_title", "states_known_window_title", "states_related_window_title", "typed_sentence_coverage", "focus_coverage", "typed_focus", "typed_coverage"}
	for _, typ := range []string{"all", "descr", "numeric", "other", "procedure", "yesno"} {
		for _, s := range sigs {
			for _, th := range []float64{0.5, 0.6, 0.7, 0.8, 0.999} {
				line := fmt.Sprintf("%-9s %-28s >=%.2f", typ, s, th)
				for _, g := range groups {
					n := 0
					for _, e := range exs {
						if !g.in(e) || len(e.Cands) == 0 {
							continue
						}
						x := e.Cands[0].Features
						if (typ == "all" || typeOf(x, names) == typ) && x[idx(s)] >= th && x[fe] == 1 && x[idx("typed")] == 1 {
							n++
						}
					}
					line += fmt.Sprintf("  %s %3d", g.name, n)
				}
				t.Log(line)
			}
		}
	}
	if p := os.Getenv("ASSESSDEV_OUT"); p != "" {
		var dump strings.Builder
		for i, e := range exs {
			for _, g := range groups {
				if g.in(e) && len(e.Cands) > 0 {
					x := e.Cands[0].Features
					fmt.Fprintf(&dump, "%s %s %s [%s] %q", g.name, e.Set, e.ID, typeOf(x, names), qs[i].req.Question)
					for _, s := range append(sigs, "typed", "focus_entities", "coverage") {
						fmt.Fprintf(&dump, " %s=%.2f", s, x[idx(s)])
					}
					dump.WriteString("\n")
				}
			}
		}
		if err := os.WriteFile(p, []byte(dump.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
