package live

import (
	"context"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestInFlightAcrossRebuildRediSearch: a request whose check passed on
// build 1 (current) is still running when a RediSearch rebuild moves the
// pointer (d narrowed to staff); it finishes on build 1, as it began,
// without a retry: its search returns on build 1 (the version it was
// given, d found as build 1 has it) and a chunk it had not read yet
// reads build 1's. The build after that drops build 1: a request still on
// it then retries once on the newest. Before round 49 the rebuild dropped
// build 1 at once: the search failed there and retried on build 2, the
// chunk read failed ("no chunk").
func TestInFlightAcrossRebuildRediSearch(t *testing.T) {
	n := redisNarrowing(t)
	ctx := context.Background()
	l := openLive(t, n.cfg)
	g, err := l.current(ctx) // the request in flight, checked on build 1
	if err != nil {
		t.Fatal(err)
	}
	n.rebuild("staff")
	cs, err := g.ix.Chunks(ctx, []string{"d#0"})
	if err != nil || !cs[0].VisibleTo(public) {
		t.Errorf("the request begun on build 1 read d#0 = %+v, %v after the rebuild; want build 1's public d#0", cs, err)
	}
	g2, res, err := l.search(ctx, g, retrieval.Request{Query: "partner rates", Groups: public, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if g2 != g {
		t.Errorf("the search begun on build 1 retried on %s; want it finished on build 1, %s", g2.ix.Version(), g.ix.Version())
	}
	if !slices.ContainsFunc(res.Hits, func(h retrieval.Hit) bool { return h.DocID == "d" }) {
		t.Errorf("the search begun on build 1 (d public) did not find d: %+v", res.Hits)
	}
	if saw, err := sawD(t, l); err != nil || saw {
		t.Errorf("a public search begun after the rebuild finds d: %v, %v; want false, no error", saw, err)
	}

	// The next build drops build 1: a request still on it retries once.
	n.rebuild("staff")
	g3, res, err := l.search(ctx, g2, retrieval.Request{Query: "partner rates", Groups: public, K: 5})
	if err != nil {
		t.Fatalf("a search on build 1 after build 3 dropped it: %v; want a retry on build 3", err)
	}
	if g3 == g2 || slices.ContainsFunc(res.Hits, func(h retrieval.Hit) bool { return h.DocID == "d" }) {
		t.Errorf("a search on build 1 after build 3 dropped it ended on %s with %+v; want build 3, no d", g3.ix.Version(), res.Hits)
	}
	g3.release()
}

// TestAssessRerunsAfterTwoBuildsRediSearch (round 49, gw49b): an
// assessment whose check rode with its first command (found current)
// and whose version two builds then dropped under it is not answered from
// that version's missing statistics: its reads find the version gone
// (unavailable, stale), its check then says stale, and run runs it again,
// once, on the newest version, which answers. Before, the check still
// said current: the assessment failed (an FT read of the dropped index)
// or judged on counts of 0.
func TestAssessRerunsAfterTwoBuildsRediSearch(t *testing.T) {
	n := redisNarrowing(t)
	ctx := context.Background()
	l := openLive(t, n.cfg)
	q := "how long are kettles covered"
	ev := []assess.Evidence{{ChunkID: "k#0", Title: "Kettles", Text: "Kettles are covered for two years.", Score: 1}}
	req := assess.Request{Question: q, Query: q, Groups: public, K: 5, Evidence: ev}
	var on []string
	var res assess.Result
	err := l.run(ctx, func(ctx context.Context, g *generation) (*generation, error) {
		on = append(on, g.ix.Version())
		if len(on) == 1 {
			if _, err := g.ix.Chunks(ctx, []string{"d#0"}); err != nil { // the check rides: current
				t.Fatal(err)
			}
			n.rebuild("public")
			n.rebuild("public") // drops the version g reads
		}
		var err error
		res, err = g.assessor.Assess(ctx, req)
		return g, err
	})
	if err != nil {
		t.Fatalf("an assessment whose version two builds dropped: %v; want it run again on the newest", err)
	}
	if len(on) != 2 || on[1] == on[0] || on[1] != l.Version() {
		t.Errorf("the assessment ran on %q; want its first version, then once the newest (%s)", on, l.Version())
	}
	if !res.Assessment.Sufficient {
		t.Errorf("the assessment run again on the newest version = %+v; want sufficient (k#0 answers it)", res.Assessment)
	}
}
