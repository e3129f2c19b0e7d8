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
// Each bound may name the scorer of the postings' reads (BOUND:SCORER)
// and the price of an existence check in postings (BOUND:SCORER:CHECK,
// checkPostings; 0 never reads the common terms instead), and how the
// terms' sets are read (BOUND:SCORER:CHECK:MATCHED, matchedTerms: 1 one
// FT.AGGREGATE with matched_terms(), 0 a search a term) and how many
// chunks' common terms it samples before checking
// (BOUND:SCORER:CHECK:MATCHED:SAMPLE, sampleRows).
//
//	ASSAY_HOLD_REDIS=host:port ASSAY_HOLD_NAME=index ASSAY_HOLD_QUERIES=queries.jsonl
//	[ASSAY_HOLD_EVERY=10] [ASSAY_HOLD_BOUNDS="4096 16384"] [ASSAY_HOLD_GROUPS=public]
func TestHoldingsOnBuilt(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "HOLD", "QUERIES", 10)
	bounds := []int{4096, 16384}
	var scorers []string // per bound: the postings' reads' scorer (BOUND:SCORER)
	var checks []int     // per bound: checkPostings
	var ways []bool      // per bound: matchedTerms
	var samples []int    // per bound: sampleRows
	if s := os.Getenv("ASSAY_HOLD_BOUNDS"); s != "" {
		bounds = nil
		for f := range strings.FieldsSeq(s) {
			what := "ASSAY_HOLD_BOUNDS " + f
			b, rest, _ := strings.Cut(f, ":")
			sc, rest, _ := strings.Cut(rest, ":")
			cs, rest, _ := strings.Cut(rest, ":")
			ms, ss, _ := strings.Cut(rest, ":")
			if b == "" {
				t.Fatalf("%s: no bound", what)
			}
			samples = append(samples, intOr(t, what, ss, sampleRows))
			bounds = append(bounds, intOr(t, what, b, 0))
			ways = append(ways, ms == "" && matchedTerms || ms == "1")
			scorers = append(scorers, sc)
			checks = append(checks, intOr(t, what, cs, checkPostings))
		}
	}
	for len(scorers) < len(bounds) {
		scorers = append(scorers, "")
	}
	for len(checks) < len(bounds) {
		checks = append(checks, checkPostings)
	}
	for len(ways) < len(bounds) {
		ways = append(ways, matchedTerms)
	}
	for len(samples) < len(bounds) {
		samples = append(samples, sampleRows)
	}
	defer func(old int) { sampleRows = old }(sampleRows)
	defer func(old bool) { matchedTerms = old }(matchedTerms)
	defer func(old string) { postingsScorer = old }(postingsScorer)
	defer func(old int) { checkPostings = old }(checkPostings)
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
		_, _ = v.Holdings(ctx, ts[:min(len(ts), backend.MaxHeld)], nil) // warming
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
			maxPostings, postingsScorer, checkPostings, matchedTerms, sampleRows = bounds[bi], scorers[bi], checks[bi], ways[bi], samples[bi]
			_, r0 := redisUsec(t, ix, "FT.SEARCH")
			c0, u0 := redisUsec(t, ix, "FT.SEARCH", "FT.AGGREGATE")
			st := time.Now()
			h, err := v.Holdings(ctx, ts, nil)
			if err != nil {
				t.Fatal(err)
			}
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
		t.Logf("  maxPostings %6d %-9s check %4d matched %-5v sample %4d: Redis p50 %6.2f mean %6.2f ms (FT.SEARCH reads %5.2f), wall p50 %6.2f ms, %5.1f searches a query; held sets as bound %d: %d/%d, cannot tell %d",
			b, scorers[bi], checks[bi], ways[bi], samples[bi], p50(redis[bi]), mean(redis[bi]), reads[bi]/float64(len(queries)), p50(wall[bi]), calls[bi]/float64(len(queries)), bounds[0], same[bi], len(queries), cannot[bi])
	}
}

// TestHoldingsReadSwitch records, on an index already built in a running
// server, for each query's terms (as TestHoldingsOnBuilt), what Holdings
// costs Redis when it only checks (checkPostings 0) and when it reads its
// common terms' postings at the first check (whenever they are at most
// maxCommonPostings): the checks sent, the common terms' visible
// document frequencies added (what the read costs), and the time of
// FT.AGGREGATE and FT.SEARCH, the two alternated per query; a TSV line a
// query (ASSAY_HOLD_OUT), from which a rule for checkPostings can be
// chosen. The held sets must agree.
//
//	ASSAY_HOLD_REDIS=host:port ASSAY_HOLD_NAME=index ASSAY_HOLD_QUERIES=queries.jsonl ASSAY_HOLD_OUT=file
//	[ASSAY_HOLD_EVERY=1] [ASSAY_HOLD_GROUPS=public]
func TestHoldingsReadSwitch(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "HOLD", "QUERIES", 1)
	out := os.Getenv("ASSAY_HOLD_OUT")
	if out == "" {
		t.Skip("SKIPPED: set ASSAY_HOLD_OUT")
	}
	groups := []string{"public"}
	if s := os.Getenv("ASSAY_HOLD_GROUPS"); s != "" {
		groups = strings.Split(s, ",")
	}
	defer func(old int) { checkPostings = old }(checkPostings)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	queries := sampleQueries(t, qpath, every)
	v := ix.Visible(groups).(Vocabulary)
	keys := func(m map[uint64]int) string {
		if m == nil {
			return "<nil>"
		}
		return fmt.Sprint(slices.Sorted(maps.Keys(m)))
	}
	termsOfQuery := func(q string) []string {
		ts := slices.Compact(slices.Sorted(slices.Values(ix.an.Terms(q))))
		return ts[:min(len(ts), backend.MaxHeld)]
	}
	for _, q := range queries { // warm the statistics caches
		_, _ = v.Holdings(ctx, termsOfQuery(q), nil) // warming
	}
	var b strings.Builder
	b.WriteString("query\tterms\tcommon_terms\tcost\tchecks\tagg_ms_check\tsearch_ms_check\tagg_ms_read\tsearch_ms_read\tsame\n")
	for qi, q := range queries {
		ts := termsOfQuery(q)
		dfs, err := ix.docFreqs(ctx, v.s, ts)
		if err != nil {
			t.Fatal(err)
		}
		// The split Holdings makes (rarest first while they add up to at most maxPostings).
		order := make([]int, len(ts))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return dfs[a] - dfs[b] })
		sum, cost, ncommon, rareDone := 0, 0, 0, false
		for _, i := range order {
			switch {
			case dfs[i] == 0:
			case !rareDone && sum+dfs[i] <= maxPostings:
				sum += dfs[i]
			default:
				rareDone = true
				cost += dfs[i]
				ncommon++
			}
		}
		var agg, search [2]float64
		var checks float64
		var got [2]string
		for j := range 2 {
			mode := (j + qi) % 2 // 0: checks only, 1: read at the first check
			checkPostings = 0
			if mode == 1 {
				checkPostings = 1 << 30
			}
			ac0, au0 := redisUsec(t, ix, "FT.AGGREGATE")
			_, su0 := redisUsec(t, ix, "FT.SEARCH")
			h, err := v.Holdings(ctx, ts, nil)
			if err != nil {
				t.Fatal(err)
			}
			got[mode] = keys(h)
			ac1, au1 := redisUsec(t, ix, "FT.AGGREGATE")
			_, su1 := redisUsec(t, ix, "FT.SEARCH")
			agg[mode], search[mode] = (au1-au0)/1000, (su1-su0)/1000
			if mode == 0 {
				checks = ac1 - ac0
			}
		}
		fmt.Fprintf(&b, "%d\t%d\t%d\t%d\t%.0f\t%.3f\t%.3f\t%.3f\t%.3f\t%v\n", qi, len(ts), ncommon, cost, checks, agg[0], search[0], agg[1], search[1], got[0] == got[1])
		if got[0] != got[1] {
			t.Errorf("query %d: held sets differ: checked %s, read %s", qi, got[0], got[1])
		}
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHoldingsLearnOnBuilt measures, on an index already built in a
// running server, for each query's analyzed terms (as TestHoldingsOnBuilt),
// Holdings with and without learning the common terms of the chunks its
// checks find (learnMasks), alternated per query: the answers must be
// the same, set for set and count for count; it reports Redis's time
// (INFO commandstats: FT.SEARCH and FT.AGGREGATE) and the commands sent.
//
//	ASSAY_HOLD_REDIS=host:port ASSAY_HOLD_NAME=index ASSAY_HOLD_QUERIES=queries.jsonl
//	[ASSAY_HOLD_EVERY=1] [ASSAY_HOLD_GROUPS=public] [ASSAY_HOLD_BATCH=checkBatch with learning]
func TestHoldingsLearnOnBuilt(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "HOLD", "QUERIES", 1)
	groups := []string{"public"}
	if s := os.Getenv("ASSAY_HOLD_GROUPS"); s != "" {
		groups = strings.Split(s, ",")
	}
	defer func(old bool) { learnMasks = old }(learnMasks)
	defer func(old int) { checkBatch = old }(checkBatch)
	base, learning := checkBatch, checkBatch // checkBatch without and with learning
	if s := os.Getenv("ASSAY_HOLD_BATCH"); s != "" {
		if _, err := fmt.Sscan(s, &learning); err != nil || learning < 1 {
			t.Fatalf("ASSAY_HOLD_BATCH: want a count ≥ 1, got %q", s)
		}
	}
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	queries := sampleQueries(t, qpath, every)
	v := ix.Visible(groups).(Vocabulary)
	termsOf := func(q string) []string {
		ts := slices.Compact(slices.Sorted(slices.Values(ix.an.Terms(q))))
		return ts[:min(len(ts), backend.MaxHeld)]
	}
	for _, q := range queries { // warm the statistics caches
		_, _ = v.Holdings(ctx, termsOf(q), nil) // warming
	}
	var redisMs, calls [2]float64
	differ := 0
	for qi, q := range queries {
		var got [2]map[uint64]int
		for j := range 2 {
			on := (j+qi)%2 == 1
			learnMasks, checkBatch = on, base
			if on {
				checkBatch = learning
			}
			c0, u0 := redisUsec(t, ix, "FT.SEARCH", "FT.AGGREGATE")
			h, err := v.Holdings(ctx, termsOf(q), nil)
			if err != nil {
				t.Fatal(err)
			}
			c1, u1 := redisUsec(t, ix, "FT.SEARCH", "FT.AGGREGATE")
			k := 0
			if on {
				k = 1
			}
			got[k] = h
			redisMs[k] += (u1 - u0) / 1000
			calls[k] += c1 - c0
		}
		if (got[0] == nil) != (got[1] == nil) || !maps.Equal(got[0], got[1]) {
			differ++
			t.Errorf("query %d %q: without learning %v, with %v", qi, q, got[0], got[1])
		}
	}
	n := float64(len(queries))
	t.Logf("%v, %d queries, %d answers differ; without learning (checkBatch %d): Redis %.3f ms and %.1f commands a query; with (checkBatch %d): %.3f ms and %.1f", groups, len(queries), differ, base, redisMs[0]/n, calls[0]/n, learning, redisMs[1]/n, calls[1]/n)
}
