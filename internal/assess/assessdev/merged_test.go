package assessdev

import (
	"fmt"
	"testing"

	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestMerged compares, loop and first attempt, the default assessor as
// the worker runs it without loop.expand, with loop.expand searching the
// expanded query alone (ExpandMerge 0), and with the plain hits first and
// at most MERGE_N (comma separated; 1,2,5 by default) chunks only the
// expanded query found below them, each with the Builtin.Expanded values
// EXPANDED_BITS names (0,1 by default), on the design sets (per-question
// changes against the plain search) and, unless DESIGN_ONLY is set, the
// confirm sets' totals (the validation set left out). It needs
// the thesaurus. It fails when a merge refuses fewer no-answer questions
// on a design set than the plain search.
func TestMerged(t *testing.T) {
	b, qs := collect(t)
	if b.Thesaurus == nil {
		t.Skip("set ASSESSDEV_THESAURUS (without a thesaurus nothing is expanded)")
	}
	all := sets
	t.Cleanup(func() { sets = all; expandSearch = nil; b.ExpandMerge, b.Expanded, b.ExpandedSearch = 0, 0, false })
	design, other := designAndOther(qs)
	bits := envInts("EXPANDED_BITS", 0, 1)
	expand := func(t *testing.T, req retrieval.Request) devsets.Found { return expandedFound(t, b, req) }
	for part := range parts(all, design, other) {
		for _, way := range ways {
			b.ExpandMerge, b.Expanded, b.ExpandedSearch, expandSearch = 0, 0, false, nil
			base, baseLines := way.judge(t, b, part.qs)
			total := fmt.Sprintf("plain %s", training(base, ""))
			for _, n := range envInts("MERGE_N", 1, 2, 5) {
				for _, bit := range bits {
					b.ExpandMerge, b.Expanded, b.ExpandedSearch = n, bit, true
					expandSearch = expand
					searches.expanded, searches.extra = 0, 0
					sc, lines := way.judge(t, b, expandedFirst(t, b, part.qs))
					expandSearch = nil
					name := fmt.Sprintf("merge%d+expanded%d", n, bit)
					t.Logf("%s %s %s: %d questions, %d searches expanded (first attempts and the loop's), %d second searches", part.name, way.name, name, len(part.qs), searches.expanded, searches.extra)
					if part.lines {
						logChanges(t, way.name+": "+name+" (against plain)", lines, baseLines)
						for _, s := range sets {
							t.Logf("%s %-8s plain %s | %s %s", way.name, s, base[s], name, sc[s])
						}
						refusesNoFewer(t, way.name, "plain", name, base, sc)
					}
					total += fmt.Sprintf(" | %s %s", name, training(sc, ""))
				}
			}
			b.ExpandMerge, b.Expanded, b.ExpandedSearch = 0, 0, false
			t.Logf("%s %s total: %s", part.name, way.name, total)
		}
	}
}
