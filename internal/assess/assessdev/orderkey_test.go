package assessdev

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestOrderKeys (round 41, a41-order) replays the loop as TestAblate does
// with the default assessor and with Builtin.Order set to each of
// ORDER_KEYS (comma separated ints), and logs the design, confirm and
// newest groups' totals against the default; ORDER_OUT receives the
// design sets' questions whose verdict line differs (confirm and
// validation questions are never written).
func TestOrderKeys(t *testing.T) {
	b, qs := collect(t)
	keep := *b
	t.Cleanup(func() { *b = keep; expandSearch = nil })
	expanding := b.Thesaurus != nil
	if expanding {
		b.ExpandedSearch = true
		expandSearch = func(t *testing.T, req retrieval.Request) devsets.Found { return expandedFound(t, b, req) }
		qs = expandedFirst(t, b, qs)
	}
	design := designSets()
	groups := ablationGroups()
	sum := func(res map[string]*score, names []string) score {
		var s score
		for _, n := range names {
			if r := res[n]; r != nil {
				s.add(r)
			}
		}
		return s
	}
	designLines := func(lines []string) map[string]string {
		out := map[string]string{}
		for _, l := range lines {
			set, rest, _ := strings.Cut(l, " ")
			id, _, _ := strings.Cut(rest, ":")
			if slices.Contains(design, set) {
				out[set+" "+id] = l
			}
		}
		return out
	}
	base, baseLines := judgeLoop(t, b, qs)
	bl := designLines(baseLines)
	var out []string
	for _, ks := range strings.Split(os.Getenv("ORDER_KEYS"), ",") {
		k, err := strconv.Atoi(strings.TrimSpace(ks))
		if err != nil {
			t.Fatal(err)
		}
		b.Order = k
		res, lines := judgeLoop(t, b, qs)
		model := b.Model()
		*b = keep
		if expanding {
			b.ExpandedSearch = true
		}
		var d []string
		for _, g := range groups {
			s, s0 := sum(res, g.sets), sum(base, g.sets)
			d = append(d, fmt.Sprintf("%s on %d%+d right %d%+d refused %d%+d accepted %d%+d", g.name, s.on, s.on-s0.on, s.right, s.right-s0.right, s.refused, s.refused-s0.refused, s.accepted, s.accepted-s0.accepted))
		}
		t.Logf("order %d (%s): %s", k, model, strings.Join(d, " | "))
		nl := designLines(lines)
		var keys []string
		for key := range nl {
			if nl[key] != bl[key] {
				keys = append(keys, key)
			}
		}
		slices.Sort(keys)
		for _, key := range keys {
			out = append(out, fmt.Sprintf("== order %d %s\nBASE %s\nNEW  %s", k, key, bl[key], nl[key]))
		}
	}
	if p := os.Getenv("ORDER_OUT"); p != "" {
		os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644)
	}
}
