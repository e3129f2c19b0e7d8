package assessdev

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestLinksMeasure measures, on the first attempt with the default
// assessor (v24), which WordNet relations beyond v24's would credit a
// question word the first chunk lacks, in two groups: A answerable,
// refused, that chunk a relevant document's; N no-answer, refused. Per
// relation (assess's linkCandidates, and "forms"): the rows the chunk
// would then suffice for (fit with v24's credit and the relation's),
// and the lacked words it credits, with the words, in each group.
// SKIP_SETS leaves sets out (fresh22, the round's validation set).
func TestLinksMeasure(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	fits := map[string]map[string][]string{} // relation → group → rows
	words := map[string]map[string][]string{}
	rows := map[string]int{}
	for _, a := range qs {
		res, l, ok := lackOf(t, b, a)
		if !ok || res.Assessment.Sufficient && res.Assessment.Score >= threshold {
			continue
		}
		g := "N"
		if a.answerable {
			if !slices.Contains(a.q.Relevant, a.chunkDoc[l.ChunkID]) {
				continue
			}
			g = "A"
		}
		rows[g]++
		for name, fit := range l.LinkFit {
			if fits[name] == nil {
				fits[name], words[name] = map[string][]string{}, map[string][]string{}
			}
			if fit && !l.BaseFit {
				fits[name][g] = append(fits[name][g], a.set+" "+a.id)
			}
		}
		for _, x := range l.Terms {
			for name, ws := range x.Links {
				words[name][g] = append(words[name][g], fmt.Sprintf("%s %s %q→%s", a.set, a.id, x.Word, strings.Join(ws, "/")))
			}
		}
	}
	t.Logf("rows: A %d, N %d", rows["A"], rows["N"])
	var names []string
	for n := range fits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-10s fit A %3d N %3d | words A %3d N %3d", n, len(fits[n]["A"]), len(fits[n]["N"]), len(words[n]["A"]), len(words[n]["N"]))
	}
	for _, n := range names {
		for _, g := range []string{"A", "N"} {
			t.Logf("%s %s fit: %s", n, g, strings.Join(fits[n][g], ", "))
			t.Logf("%s %s words: %s", n, g, strings.Join(words[n][g], "; "))
		}
	}
}
