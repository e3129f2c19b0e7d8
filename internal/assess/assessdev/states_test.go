package assessdev

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/citation"
)

// round20Validation was round 20's validation set, when TestStatesMeasure
// was written: left out of every measurement a rule is designed on.
const round20Validation = "fresh18"

// TestStatesMeasure measures (round 20: docs/log/round-20-a20-accept.md),
// before any rule, whether a sentence of a
// chunk states what the question asks (assess's stateSignals, features
// states_* and pred_*): for the first chunk (in the assessor's order) of
// answerable questions v21 refuses although that chunk is a relevant
// document's, against the first chunk of no-answer questions (refused and
// accepted by v21), and of answerable questions v21 accepts on a relevant
// chunk. The validation set is left out.
func TestStatesMeasure(t *testing.T) {
	b, qs := collect(t)
	b.States, b.Kin = false, false // the groups are v21's verdicts
	exs, _ := examples(t, b, qs, false)
	names := assess.FeatureNames()
	idx := func(n string) int { return slices.Index(names, n) }
	fe := idx("focus_entities")
	sigs := []string{"states_sentence", "states_window", "states_window_title", "pred_sentence", "pred_window", "pred_window_title",
		"states_known_window_title", "states_key_sentence", "states_related_window_title", "typed_sentence_coverage", "typed_focus"}
	type group struct {
		name string
		in   func(e example) bool
	}
	groups := []group{
		{"A: answerable, refused, first chunk relevant", func(e example) bool { return e.Answerable && !e.V21Doc && len(e.Relevant) > 0 && e.Relevant[0] }},
		{"N: no-answer, refused", func(e example) bool { return !e.Answerable && !e.V21Doc }},
		{"NA: no-answer, accepted", func(e example) bool { return !e.Answerable && e.V21Doc }},
		{"R: answerable, accepted on relevant", func(e example) bool { return e.Answerable && e.V21On }},
	}
	var dump strings.Builder
	for _, g := range groups {
		var n int
		count := map[string][3]int{} // all held, >= 0.7, entities named and all held
		byType := map[string][2]int{}
		for i, e := range exs {
			if e.Set == round20Validation || !g.in(e) || len(e.Cands) == 0 {
				continue
			}
			n++
			x := e.Cands[0].Features
			typ := typeOf(x, names)
			bt := byType[typ]
			bt[0]++
			for _, s := range sigs {
				v := x[idx(s)]
				c := count[s]
				if v >= 0.999 {
					c[0]++
				}
				if v >= 0.7 {
					c[1]++
				}
				if v >= 0.999 && x[fe] == 1 {
					c[2]++
				}
				count[s] = c
			}
			if x[idx("states_window")] >= 0.999 && x[fe] == 1 {
				bt[1]++
			}
			byType[typ] = bt
			if g.name[0] == 'A' || g.name[0] == 'N' {
				a := qs[i]
				fmt.Fprintf(&dump, "%s %s %s [%s] %q\n", g.name[:2], e.Set, e.ID, typ, a.req.Question)
				for _, s := range sigs {
					fmt.Fprintf(&dump, "  %s=%.2f", s, x[idx(s)])
				}
				fmt.Fprintf(&dump, " fe=%v\n  %q: %s\n", x[fe], a.req.Evidence[0].Title, firstSentences(a.req.Evidence[0].Text))
			}
		}
		t.Logf("%s: %d", g.name, n)
		for _, s := range sigs {
			c := count[s]
			t.Logf("  %-20s all %3d (%4.1f%%)  >=0.7 %3d (%4.1f%%)  all+entities %3d (%4.1f%%)", s, c[0], pct(c[0], n), c[1], pct(c[1], n), c[2], pct(c[2], n))
		}
		var ts []string
		for k := range byType {
			ts = append(ts, k)
		}
		sort.Strings(ts)
		for _, k := range ts {
			t.Logf("    type %-10s %3d, states_window all+entities %3d", k, byType[k][0], byType[k][1])
		}
	}
	// The sweep: per signal and threshold, how many first chunks naming the
	// focus entities reach it in each group.
	for _, s := range sigs {
		for _, th := range []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.999} {
			line := fmt.Sprintf("%-28s >=%.2f", s, th)
			for _, g := range groups {
				n := 0
				for _, e := range exs {
					if e.Set == round20Validation || !g.in(e) || len(e.Cands) == 0 {
						continue
					}
					if x := e.Cands[0].Features; x[idx(s)] >= th && x[fe] == 1 {
						n++
					}
				}
				line += fmt.Sprintf("  %s %3d", g.name[:2], n)
			}
			t.Log(line)
		}
	}
	// The sweep per coarse type, first two groups.
	for _, typ := range []string{"descr", "numeric", "other", "procedure", "yesno"} {
		for _, s := range []string{"states_window_title", "states_known_window_title", "states_related_window_title"} {
			for _, th := range []float64{0.5, 0.6, 0.7, 0.8, 0.999} {
				line := fmt.Sprintf("%-9s %-28s >=%.2f", typ, s, th)
				for _, g := range groups[:3] {
					n := 0
					for _, e := range exs {
						if e.Set == round20Validation || !g.in(e) || len(e.Cands) == 0 {
							continue
						}
						if x := e.Cands[0].Features; typeOf(x, names) == typ && x[idx(s)] >= th && x[fe] == 1 {
							n++
						}
					}
					line += fmt.Sprintf("  %s %3d", g.name[:2], n)
				}
				t.Log(line)
			}
		}
	}
	// The hypothesis: among first chunks whose words cover the clause that
	// asks (focus coverage at least 0.7, its entities named), does a
	// sentence state it (states_window_title all held) in the answerable
	// group and not in the no-answer one?
	fc := idx("focus_coverage")
	for _, g := range groups {
		var covered, states, typed int
		for _, e := range exs {
			if e.Set == round20Validation || !g.in(e) || len(e.Cands) == 0 {
				continue
			}
			x := e.Cands[0].Features
			if x[fc] < 0.7 || x[fe] != 1 {
				continue
			}
			covered++
			if x[idx("states_window_title")] >= 0.999 {
				states++
			}
			if x[idx("typed")] == 1 {
				typed++
			}
		}
		t.Logf("%s: first chunk covers the clause that asks %d; of them typed %d, a sentence states it %d", g.name, covered, typed, states)
	}
	if p := os.Getenv("ASSESSDEV_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(dump.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

// typeOf names the question's coarse expected type from its features.
func typeOf(x []float64, names []string) string {
	f := func(n string) bool { return x[slices.Index(names, n)] == 1 }
	switch {
	case f("yesno"):
		return "yesno"
	case f("procedure"):
		return "procedure"
	case f("numeric"):
		return "numeric"
	case f("other_typed"):
		return "other"
	}
	return "descr"
}

func firstSentences(text string) string {
	ss := citation.Sentences(text)
	return strings.Join(ss[:min(4, len(ss))], " | ")
}
