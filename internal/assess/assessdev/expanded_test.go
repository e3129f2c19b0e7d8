package assessdev

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
)

// designSets are the sets whose questions and traces may be read (round
// 37's rule): hollin, heldout, fresh and fresh2 … fresh13.
func designSets() []string { return sets[:slices.Index(sets, "fresh13")+1] }

// expandedFirst is qs with each question's first attempt searched as the
// worker searches it with loop.expand (expandedFound).
func expandedFirst(t *testing.T, b *assess.Builtin, qs []asked) []asked {
	t.Helper()
	out := make([]asked, len(qs))
	for i, a := range qs {
		if _, added := b.Expand(a.req.Query, a.req.Groups); len(added) == 0 {
			out[i] = a
			continue
		}
		found := expandedFound(t, b, retrieval.Request{Query: a.req.Query, Groups: a.req.Groups, K: a.req.K})
		a.req.Evidence = found.Evidence
		a.docs, a.chunkDoc, a.retrieved = nil, map[string]string{}, false
		for _, c := range found.Chunks {
			a.docs = append(a.docs, c.DocID)
			a.chunkDoc[c.ID] = c.DocID
			a.retrieved = a.retrieved || slices.Contains(a.q.Relevant, c.DocID)
		}
		out[i] = a
	}
	return out
}

// searches counts, for TestMerged, the requests expandedFound searched
// whose query Expand added to (expanded) and the second searches a merge
// ran for them (extra).
var searches struct{ expanded, extra int }

// expandedFound is req searched as the worker searches it with
// loop.expand (live.Index.Search): as sent when Expand adds nothing,
// Expand's query alone with ExpandMerge 0, otherwise both, merged by
// MergeExpanded.
func expandedFound(t *testing.T, b *assess.Builtin, req retrieval.Request) devsets.Found {
	t.Helper()
	q, added := b.Expand(req.Query, req.Groups)
	searches.expanded += min(len(added), 1)
	if len(added) == 0 {
		return devsets.Search(t, devDirect, req)
	}
	ex := req
	ex.Query = q
	found := devsets.Search(t, devDirect, ex)
	if b.ExpandMerge == 0 {
		return found
	}
	plain := devsets.Search(t, devDirect, req)
	searches.extra++
	byID := map[string]int{}
	for i, c := range found.Chunks {
		byID[c.ID] = i
	}
	merged := plain
	merged.Result.Hits = b.MergeExpanded(req.K, plain.Result.Hits, found.Result.Hits)
	for _, h := range merged.Result.Hits[len(plain.Result.Hits):] {
		i := byID[h.ChunkID]
		merged.Chunks = append(slices.Clip(merged.Chunks), found.Chunks[i])
		merged.Evidence = append(slices.Clip(merged.Evidence), found.Evidence[i])
	}
	return merged
}

// TestExpanded compares, loop and first attempt, v38 as the worker runs
// it without loop.expand, with loop.expand (the search expanded, the
// assessor judging as before: round 36's a36-topk) and with loop.expand
// and Builtin.Expanded (the assessor crediting the relatives the search
// added), on the design sets; the other development sets' totals only
// (DESIGN_ONLY=1 leaves them out). It needs the thesaurus. It fails when
// crediting refuses fewer no-answer questions on a design set than the
// plain v38.
func TestExpanded(t *testing.T) {
	b, qs := collect(t)
	if b.Thesaurus == nil {
		t.Skip("set ASSESSDEV_THESAURUS (without a thesaurus nothing is expanded)")
	}
	all := sets
	t.Cleanup(func() { sets = all; expandSearch = nil })
	design, other := designAndOther(qs)
	expand := func(t *testing.T, req retrieval.Request) devsets.Found { return expandedFound(t, b, req) }
	for part := range parts(all, design, other) {
		eqs := expandedFirst(t, b, part.qs)
		for _, way := range ways {
			b.Expanded, b.ExpandedSearch, expandSearch = 0, false, nil
			base, baseLines := way.judge(t, b, part.qs)
			expandSearch = expand
			se, seLines := way.judge(t, b, eqs)
			if part.lines {
				logChanges(t, way.name+": expand", seLines, baseLines)
			}
			total := fmt.Sprintf("v38 %s | expand %s", training(base, ""), training(se, ""))
			for _, bits := range expandBits() {
				b.Expanded, b.ExpandedSearch = bits, true
				cr, crLines := way.judge(t, b, eqs)
				b.Expanded, b.ExpandedSearch = 0, false
				if part.lines {
					logChanges(t, fmt.Sprintf("%s: +expanded%d (against expand)", way.name, bits), crLines, seLines)
					for _, s := range sets {
						t.Logf("%s %-8s v38 %s | expand %s | +expanded%d %s", way.name, s, base[s], se[s], bits, cr[s])
					}
					refusesNoFewer(t, way.name, "v38", fmt.Sprintf("+expanded%d", bits), base, cr)
				}
				total += fmt.Sprintf(" | +expanded%d %s", bits, training(cr, ""))
			}
			expandSearch = nil
			t.Logf("%s %s total: %s", part.name, way.name, total)
		}
	}
}

// expandBits are the Builtin.Expanded values TestExpanded measures
// (EXPANDED_BITS; 1 by default).
func expandBits() []int { return envInts("EXPANDED_BITS", 1) }

// envInts is the comma-separated integers environment variable name
// holds, or def when it holds none.
func envInts(name string, def ...int) []int {
	var out []int
	for _, f := range strings.Split(os.Getenv(name), ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return def
	}
	return out
}

// part is one of the question groups TestExpanded and TestMerged judge:
// the design sets (lines: each question's change logged) or the other
// development sets (totals only).
type part struct {
	name  string
	qs    []asked
	lines bool
}

// parts are design and, unless DESIGN_ONLY is set, other; each sets sets
// to the sets of all its questions come from when its turn comes (range
// over a func), and sets is given back when the loop ends.
func parts(all []string, design, other []asked) func(yield func(part) bool) {
	return func(yield func(part) bool) {
		saved := sets
		defer func() { sets = saved }()
		for _, p := range []part{{"design", design, true}, {"other", other, false}} {
			if !p.lines && os.Getenv("DESIGN_ONLY") != "" {
				continue
			}
			sets = nil
			for _, s := range all {
				if slices.ContainsFunc(p.qs, func(a asked) bool { return a.set == s }) {
					sets = append(sets, s)
				}
			}
			if !yield(p) {
				return
			}
		}
	}
}

// designAndOther splits qs into the design sets' questions and the other
// development sets' but the validation set (totals only, end to end).
func designAndOther(qs []asked) (design, other []asked) {
	designs := designSets()
	for _, a := range qs {
		if slices.Contains(designs, a.set) {
			design = append(design, a)
		} else if a.set != validation {
			other = append(other, a)
		}
	}
	return design, other
}
