package assessdev

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
)

// TestAccDump (round 39, a39-acc) lists the design sets' answerable
// questions whose first attempt is accepted on a chunk of no relevant
// document while a relevant one is among the hits, with each chunk judged
// alone and its features.
func TestAccDump(t *testing.T) {
	b, qs := collect(t)
	design, _ := designAndOther(qs)
	names := assess.FeatureNames()
	want := []string{"coverage", "has_key", "typed", "fit", "missing_known", "focus_coverage", "wide_coverage", "title_coverage", "bm25_share"}
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	ctx := context.Background()
	var out []string
	n := 0
	for _, a := range design {
		if !a.answerable || !a.retrieved {
			continue
		}
		r, cands, err := b.Candidates(ctx, a.req)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Assessment.Sufficient || len(r.Accepted) == 0 {
			continue
		}
		on := a.chunkDoc[r.Accepted[0]]
		if slices.Contains(a.q.Relevant, on) && os.Getenv("ACC_ALL") == "" {
			continue
		}
		n++
		out = append(out, fmt.Sprintf("== %s %s %q on %s; relevant %v\n   reason: %s", a.set, a.id, a.q.Question, on, a.q.Relevant, r.Assessment.Reason))
		for _, c := range cands {
			one := a.req
			for _, e := range a.req.Evidence {
				if e.ChunkID == c.ChunkID {
					one.Evidence = []assess.Evidence{e}
				}
			}
			ra, err := b.Assess(ctx, one)
			if err != nil {
				t.Fatal(err)
			}
			var f []string
			for _, w := range want {
				f = append(f, fmt.Sprintf("%s=%.2f", w, c.Features[idx[w]]))
			}
			mark := " "
			if slices.Contains(a.q.Relevant, a.chunkDoc[c.ChunkID]) {
				mark = "*"
			}
			out = append(out, fmt.Sprintf("  %s %-22s %s\n      alone: %v %.2f %s", mark, a.chunkDoc[c.ChunkID], strings.Join(f, " "), ra.Assessment.Sufficient, ra.Assessment.Score, ra.Assessment.Reason))
		}
	}
	t.Logf("%d questions", n)
	if p := os.Getenv("ACC_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
