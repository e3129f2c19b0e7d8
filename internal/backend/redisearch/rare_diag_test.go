package redisearch

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
)

// TestRareRuleAgreement measures, on an index already built in a running
// server, the BM25 leg with rare-term candidates (rare.go) under several
// split rules against the exact form (every term read): top-10 and
// top-100 agreement of SearchText's hits and SearchText's time, per
// caller, rules alternated per query (docs/log/performance-scale.md, "RediSearch:
// rare terms match, common terms only score").
//
//	ASSAY_RARE_REDIS=host:port ASSAY_RARE_NAME=index ASSAY_RARE_QUERIES=queries.jsonl
//	[ASSAY_RARE_EVERY=1] [ASSAY_RARE_RULES="0.01:0.3:4:1000:2 0.01:0.3:4:1000:1"]
//	(dfShare:massShare:minTerms:minDF:deeper[:oSHARE[:kN]][:u]; oSHARE, kN: rareRule.OptShare,
//	OptKeep; u: common terms left out)
//	[ASSAY_RARE_CALLERS=all,public,team-07]
//
// Besides SearchText's time it reports Redis's own time per search
// (INFO commandstats, FT.SEARCH and HMGET usec before and after each
// search: the server must serve nobody else meanwhile).
func TestRareRuleAgreement(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "RARE", "QUERIES", 1)
	k := 100
	rules := []rareRule{{}}
	refOF := 0 // ASSAY_RARE_REFOF: compare with the exact form at this over-fetch factor instead
	if s := os.Getenv("ASSAY_RARE_REFOF"); s != "" {
		fmt.Sscan(s, &refOF)
	}
	spec := os.Getenv("ASSAY_RARE_RULES")
	if spec == "" {
		spec = "0.05:0.5:4:1000:1 0.05:0.5:4:1000:2"
	}
	rules = append(rules, parseRareRules(t, "ASSAY_RARE_RULES", spec)...)
	all := scaleGroups()
	callers := map[string][]string{"all": all, "public": {"public"}, "team-07": {"team-07"}}
	names := []string{"all", "public", "team-07"}
	if s := os.Getenv("ASSAY_RARE_CALLERS"); s != "" {
		names = strings.Split(s, ",")
	}
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	queries := sampleQueries(t, qpath, every)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	pct := func(xs []float64, p float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		if len(s) == 0 {
			return math.NaN()
		}
		return s[min(len(s)-1, int(p*float64(len(s))))]
	}
	agree := hitAgreement
	for _, cn := range names {
		groups := callers[cn]
		if groups == nil {
			groups = []string{cn}
		}
		f := backend.Filter{Groups: groups}
		// Warm the statistics caches (visible dfs, lengths) once.
		for _, q := range queries {
			if _, err := ix.SearchText(ctx, q, f, k); err != nil {
				t.Fatal(err)
			}
		}
		times := make([][]float64, len(rules))
		rtimes := make([][]float64, len(rules)) // Redis's ms per search
		a10 := make([][]float64, len(rules))
		a100 := make([][]float64, len(rules))
		split := make([]int, len(rules))
		var worst []string
		for qi, q := range queries {
			got := make([][]backend.Hit, len(rules))
			for j := range rules {
				ri := (j + qi) % len(rules) // alternate which form runs first
				ix.rare = rules[ri]
				_, u0 := redisUsec(t, ix, "FT.SEARCH", "hmget")
				start := time.Now()
				hits, err := ix.SearchText(ctx, q, f, k)
				took := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				times[ri] = append(times[ri], ms(took))
				_, u1 := redisUsec(t, ix, "FT.SEARCH", "hmget")
				rtimes[ri] = append(rtimes[ri], (u1-u0)/1000)
				got[ri] = hits
			}
			exact := got[0]
			if refOF > 0 {
				// The reference: the exact form read refOF times deeper.
				ix.rare = rareRule{}
				old := overFetch
				overFetch = refOF
				ref, err := ix.SearchText(ctx, q, f, k)
				overFetch = old
				if err != nil {
					t.Fatal(err)
				}
				exact = ref
				a10[0] = append(a10[0], agree(exact, got[0], 10))
				a100[0] = append(a100[0], agree(exact, got[0], 100))
			}
			for ri := 1; ri < len(rules); ri++ {
				a10[ri] = append(a10[ri], agree(exact, got[ri], 10))
				a100[ri] = append(a100[ri], agree(exact, got[ri], 100))
				if a10[ri][len(a10[ri])-1] < 1 && ri == 1 && os.Getenv("ASSAY_RARE_VERBOSE") != "" {
					worst = append(worst, fmt.Sprintf("%.1f %q", a10[ri][len(a10[ri])-1], q))
				}
			}
			// How many queries each rule splits.
			qt, v, err := ix.weigh(ctx, ix.an.Terms(q), groups)
			if err != nil {
				t.Fatal(err)
			}
			for ri, r := range rules {
				if r.split(qt.vdf, qt.mass, v.s.n) != nil {
					split[ri]++
				}
			}
		}
		ix.rare = rareRule{}
		mean := func(xs []float64) float64 {
			var s float64
			for _, x := range xs {
				s += x
			}
			return s / float64(len(xs))
		}
		min := func(xs []float64) float64 { return slices.Min(xs) }
		t.Logf("%s: %d queries", cn, len(queries))
		for ri, r := range rules {
			if ri == 0 && refOF == 0 {
				t.Logf("  %-24s SearchText p50 %6.2f p99 %6.2f ms  Redis mean %6.2f p50 %6.2f ms", r, pct(times[ri], 0.5), pct(times[ri], 0.99), mean(rtimes[ri]), pct(rtimes[ri], 0.5))
				continue
			}
			t.Logf("  %-24s SearchText p50 %6.2f p99 %6.2f ms  Redis mean %6.2f p50 %6.2f ms  split %3d  top-10 agreement mean %.4f (min %.1f)  top-100 mean %.4f",
				r, pct(times[ri], 0.5), pct(times[ri], 0.99), mean(rtimes[ri]), pct(rtimes[ri], 0.5), split[ri], mean(a10[ri]), min(a10[ri]), mean(a100[ri]))
		}
		if os.Getenv("ASSAY_RARE_VERBOSE") != "" {
			for _, w := range worst {
				t.Logf("    below 1 (first rule): %s", w)
			}
		}
	}
}

// hitAgreement is the share of ref's first n hits that are among got's
// first n (1 when ref is empty).
func hitAgreement(ref, got []backend.Hit, n int) float64 {
	n = min(n, len(ref))
	if n == 0 {
		return 1
	}
	in := map[string]bool{}
	for _, h := range got[:min(n, len(got))] {
		in[h.ChunkID] = true
	}
	c := 0
	for _, h := range ref[:n] {
		if in[h.ChunkID] {
			c++
		}
	}
	return float64(c) / float64(n)
}

// redisUsec is how many calls of the commands cmds Redis has served so
// far and the microseconds it spent in them (INFO commandstats; module
// commands as registered, FT.SEARCH, others in lower case).
func redisUsec(t *testing.T, ix *Index, cmds ...string) (calls, usec float64) {
	t.Helper()
	info, err := ix.rdb.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !slices.Contains(cmds, strings.TrimPrefix(name, "cmdstat_")) {
			continue
		}
		for kv := range strings.SplitSeq(rest, ",") {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.ParseFloat(v, 64)
			switch k {
			case "calls":
				calls += n
			case "usec":
				usec += n
			}
		}
	}
	return calls, usec
}

// TestRareRuleWork counts, on an index already built in a running server,
// the work RediSearch does for each claim's split query under the
// shipped rule and under the rule with every optional clause on every
// branch (OptShare 0): the reading operations of every iterator and the
// total time FT.PROFILE reports, per caller. The counts do not depend on
// the machine's load, unlike the times.
//
//	ASSAY_WORK_REDIS=host:port ASSAY_WORK_NAME=index ASSAY_WORK_QUERIES=queries.jsonl [ASSAY_WORK_EVERY=10]
func TestRareRuleWork(t *testing.T) {
	addr, name, qpath, every := measureEnv(t, "WORK", "QUERIES", 10)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	queries := sampleQueries(t, qpath, every)
	all := scaleGroups()
	every0 := defaultRare
	every0.OptShare, every0.OptKeep = 0, 0
	rules := []rareRule{every0, defaultRare}
	// reads sums the integers that follow "Number of reading operations"
	// anywhere in an FT.PROFILE reply; total is "Total profile time".
	var reads func(v any) int64
	reads = func(v any) int64 {
		xs, ok := v.([]any)
		if !ok {
			return 0
		}
		var n int64
		for i, x := range xs {
			if s, ok := x.(string); ok && s == "Number of reading operations" && i+1 < len(xs) {
				if c, ok := xs[i+1].(int64); ok {
					n += c
				}
			}
			n += reads(x)
		}
		return n
	}
	var total func(v any) float64
	total = func(v any) float64 {
		xs, ok := v.([]any)
		if !ok {
			return 0
		}
		for i, x := range xs {
			if s, ok := x.(string); ok && s == "Total profile time" && i+1 < len(xs) {
				f, _ := strconv.ParseFloat(fmt.Sprint(xs[i+1]), 64)
				return f
			}
			if f := total(x); f > 0 {
				return f
			}
		}
		return 0
	}
	for _, c := range []struct {
		name   string
		groups []string
	}{{"all", all}, {"public", []string{"public"}}, {"team-07", []string{"team-07"}}} {
		f := backend.Filter{Groups: c.groups}
		sumReads := make([]int64, len(rules))
		sumMS := make([]float64, len(rules))
		n := 0
		for qi, q := range queries {
			qt, v, err := ix.weigh(ctx, ix.an.Terms(q), c.groups)
			if err != nil {
				t.Fatal(err)
			}
			common := defaultRare.split(qt.vdf, qt.mass, v.s.n)
			if common == nil {
				continue
			}
			n++
			filter := filterQuery(f, !v.s.all)
			depth := defaultRare.splitDepth(candidateDepth(100))
			for j := range rules {
				ri := (j + qi) % len(rules)
				query := rules[ri].query(qt.terms, qt.weights, qt.mass, qt.vdf, v.s.n, common, filter)
				raw, err := ix.rdb.Do(ctx, "FT.PROFILE", ix.vn, "SEARCH", "QUERY", query, "NOCONTENT", "VERBATIM", "WITHSCORES",
					"SCORER", "BM25STD", "LIMIT", 0, depth+tieMargin, "DIALECT", 2).Slice()
				if err != nil {
					t.Fatal(err)
				}
				sumReads[ri] += reads(raw[len(raw)-1])
				sumMS[ri] += total(raw[len(raw)-1])
			}
		}
		for ri, r := range rules {
			t.Logf("%-8s %-50s %d split claims: reading operations mean %9.0f, FT.PROFILE total mean %7.2f ms",
				c.name, r, n, float64(sumReads[ri])/float64(max(n, 1)), sumMS[ri]/float64(max(n, 1)))
		}
	}
}

// parseRareRules reads split rules, space-separated, each
// dfShare:massShare:minTerms:minDF:deeper[:oSHARE[:kN]][:u] (oSHARE, kN:
// rareRule.OptShare, OptKeep; u: common terms left out); env names the
// setting in errors.
func parseRareRules(t *testing.T, env, spec string) []rareRule {
	t.Helper()
	var rules []rareRule
	for _, f := range strings.Fields(spec) {
		r := rareRule{On: true}
		f, r.Unscored = strings.CutSuffix(f, ":u") // the common terms left out of the query
		if i := strings.Index(f, ":k"); i >= 0 {   // with :o, the heaviest common terms' clauses kept on the other branches
			if _, err := fmt.Sscan(f[i+2:], &r.OptKeep); err != nil {
				t.Fatalf("%s %q: %v", env, f, err)
			}
			f = f[:i]
		}
		if i := strings.Index(f, ":o"); i >= 0 { // optional clauses on the rarest branches only
			if _, err := fmt.Sscan(f[i+2:], &r.OptShare); err != nil {
				t.Fatalf("%s %q: %v", env, f, err)
			}
			f = f[:i]
		}
		if _, err := fmt.Sscanf(strings.ReplaceAll(f, ":", " "), "%g %g %d %d %g", &r.DFShare, &r.MassShare, &r.MinTerms, &r.MinDF, &r.Deeper); err != nil {
			t.Fatalf("%s %q: %v", env, f, err)
		}
		rules = append(rules, r)
	}
	return rules
}
