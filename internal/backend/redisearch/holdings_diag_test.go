package redisearch

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
)

// TestHoldingsOnBuilt measures Holdings on an index already built in a
// running server, for each query's analyzed terms (the assessor adds
// thesaurus words and entity terms; these are the question's own), at
// several bounds of maxPostings, alternated per query: Redis's time
// (INFO commandstats: FT.SEARCH and FT.AGGREGATE), the searches sent, and
// whether each bound finds the same held term sets as the first
// (Holdings is exact at any bound: the keys must agree).
//
//	ASSAY_HOLD_REDIS=host:port ASSAY_HOLD_NAME=index ASSAY_HOLD_QUERIES=queries.jsonl
//	[ASSAY_HOLD_EVERY=10] [ASSAY_HOLD_BOUNDS="4096 16384"] [ASSAY_HOLD_GROUPS=public]
func TestHoldingsOnBuilt(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "HOLD", "QUERIES", 10)
	bounds := []int{4096, 16384}
	var scorers []string // per bound: the postings' reads' scorer (BOUND:SCORER)
	if s := os.Getenv("ASSAY_HOLD_BOUNDS"); s != "" {
		bounds = nil
		for f := range strings.FieldsSeq(s) {
			var n int
			b, sc, _ := strings.Cut(f, ":")
			if _, err := fmt.Sscan(b, &n); err != nil {
				t.Fatalf("ASSAY_HOLD_BOUNDS %q: %v", f, err)
			}
			bounds = append(bounds, n)
			scorers = append(scorers, sc)
		}
	}
	for len(scorers) < len(bounds) {
		scorers = append(scorers, "")
	}
	defer func(old string) { postingsScorer = old }(postingsScorer)
	groups := []string{"public"}
	if s := os.Getenv("ASSAY_HOLD_GROUPS"); s != "" {
		groups = strings.Split(s, ",")
	}
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	queries := sampleQueries(t, qpath, every)
	v := ix.Visible(groups).(Vocabulary)
	defer func(old int) { maxPostings = old }(maxPostings)
	keys := func(m map[uint64]int) string {
		if m == nil {
			return "<nil>"
		}
		return fmt.Sprint(slices.Sorted(maps.Keys(m)))
	}
	// Warm the statistics caches.
	for _, q := range queries {
		ts := slices.Compact(slices.Sorted(slices.Values(ix.an.Terms(q))))
		v.Holdings(ctx, ts[:min(len(ts), backend.MaxHeld)], nil)
	}
	redis := make([][]float64, len(bounds))
	wall := make([][]float64, len(bounds))
	calls := make([]float64, len(bounds))
	reads := make([]float64, len(bounds)) // FT.SEARCH ms, summed
	same, cannot := make([]int, len(bounds)), make([]int, len(bounds))
	for qi, q := range queries {
		ts := slices.Compact(slices.Sorted(slices.Values(ix.an.Terms(q))))
		ts = ts[:min(len(ts), backend.MaxHeld)]
		got := make([]string, len(bounds))
		for j := range bounds {
			bi := (j + qi) % len(bounds)
			maxPostings, postingsScorer = bounds[bi], scorers[bi]
			_, r0 := redisUsec(t, ix, "FT.SEARCH")
			c0, u0 := redisUsec(t, ix, "FT.SEARCH", "FT.AGGREGATE")
			st := time.Now()
			h := v.Holdings(ctx, ts, nil)
			wall[bi] = append(wall[bi], float64(time.Since(st).Microseconds())/1000)
			c1, u1 := redisUsec(t, ix, "FT.SEARCH", "FT.AGGREGATE")
			_, r1 := redisUsec(t, ix, "FT.SEARCH")
			reads[bi] += (r1 - r0) / 1000
			redis[bi] = append(redis[bi], (u1-u0)/1000)
			calls[bi] += c1 - c0
			got[bi] = keys(h)
			if h == nil {
				cannot[bi]++
			}
		}
		for bi := range bounds {
			if got[bi] == got[0] {
				same[bi]++
			}
		}
	}
	p50 := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	mean := func(xs []float64) float64 {
		var s float64
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	t.Logf("%v, %d queries", groups, len(queries))
	for bi, b := range bounds {
		t.Logf("  maxPostings %6d %-9s: Redis p50 %6.2f mean %6.2f ms (FT.SEARCH reads %5.2f), wall p50 %6.2f ms, %5.1f searches a query; held sets as bound %d: %d/%d, cannot tell %d",
			b, scorers[bi], p50(redis[bi]), mean(redis[bi]), reads[bi]/float64(len(queries)), p50(wall[bi]), calls[bi]/float64(len(queries)), bounds[0], same[bi], len(queries), cannot[bi])
	}
}
