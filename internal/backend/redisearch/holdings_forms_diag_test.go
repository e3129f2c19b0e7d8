package redisearch

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
)

// TestHoldingsFormsOnBuilt measures, on an index already built in a
// running server, what each FT.AGGREGATE Holdings sends costs Redis's
// main thread (schedstat around each command, sent alone), by form: the
// rare terms' read, the sample, the level ("learning") checks and the
// last checks, and for the level checks whether they found a chunk. The
// term lists are those the assessor asked end to end, one JSON object a
// line ({"Terms": [...], "Filter": {...}}, as a diagnostic build logged
// them), each distinct list once; or, without LISTS, the analyzed terms
// of each QUERIES line. Each command is sent as OpenHoldings sent it and
// in the variants named below, alternated.
//
//	ASSAY_HFORM_REDIS=host:port ASSAY_HFORM_NAME=index ASSAY_HFORM_LISTS=held.jsonl
//	[ASSAY_HFORM_EVERY=1] [ASSAY_HFORM_ROUNDS=2]
func TestHoldingsFormsOnBuilt(t *testing.T) {
	addr, name, path, every := measureEnv(t, "HFORM", "LISTS", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	var lists []heldList
	for i, l := range heldLists(t, path) {
		if i%every == 0 {
			lists = append(lists, l)
		}
	}
	rec := &argsRecorder{}
	ix.rdb.AddHook(rec)
	type sent struct {
		form string
		args []any
	}
	var cmds []sent
	var calls int
	for _, l := range lists {
		v := ix.Visible(l.Filter.Groups).(Vocabulary)
		rec.on, rec.args = true, nil
		if _, err := v.OpenHoldings(ctx, l.Terms, l.Filter); err != nil {
			t.Fatal(err)
		}
		rec.on = false
		for _, a := range rec.args {
			if s, _ := a[0].(string); s != "FT.AGGREGATE" {
				continue
			}
			calls++
			cmds = append(cmds, sent{aggregateForm(a), a})
		}
	}
	t.Logf("%d lists, %d FT.AGGREGATE (%.2f a list)", len(lists), calls, float64(calls)/float64(len(lists)))
	cpu := schedstatReader(t, ix)
	type tally struct {
		n, found     int
		ms, msFound  float64
		variant      map[string]float64
		variantFound map[string]float64
	}
	tallies := map[string]*tally{}
	rounds := envInt(t, "ASSAY_HFORM_ROUNDS", 2)
	profile := os.Getenv("ASSAY_HFORM_PROFILE") != "" // FT.PROFILE's total time instead of schedstat
	for r := range rounds {
		for i, c := range cmds {
			forms := map[string][]any{"sent": c.args}
			for k, a := range aggregateVariants(c.form, c.args) {
				forms[k] = a
			}
			names := slices.Sorted(func(yield func(string) bool) {
				for k := range forms {
					if !yield(k) {
						return
					}
				}
			})
			if (i+r)%2 == 1 {
				slices.Reverse(names)
			}
			var found bool
			took := map[string]float64{}
			for _, k := range names {
				if profile {
					took[k] = profileMs(t, ix, forms[k])
					if k != "sent" {
						continue
					}
				}
				t0 := cpu()
				res, err := ix.rdb.Do(ctx, forms[k]...).Slice()
				d := cpu() - t0
				if err != nil {
					t.Fatalf("%v: %v", forms[k], err)
				}
				if !profile {
					took[k] = float64(d) / float64(time.Millisecond)
				}
				if k == "sent" {
					found = len(res) > 1
				}
			}
			if r != rounds-1 {
				continue
			}
			ta := tallies[c.form]
			if ta == nil {
				ta = &tally{variant: map[string]float64{}, variantFound: map[string]float64{}}
				tallies[c.form] = ta
			}
			ta.n++
			for k, ms := range took {
				ta.variant[k] += ms
				if found {
					ta.variantFound[k] += ms
				}
			}
			if found {
				ta.found++
			}
		}
	}
	n := float64(len(lists))
	for _, f := range slices.Sorted(func(yield func(string) bool) {
		for k := range tallies {
			if !yield(k) {
				return
			}
		}
	}) {
		ta := tallies[f]
		var parts []string
		ks := make([]string, 0, len(ta.variant))
		for k := range ta.variant {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			parts = append(parts, fmt.Sprintf("%s %.3f ms/list (found %.3f, none %.3f)", k, ta.variant[k]/n, ta.variantFound[k]/n, (ta.variant[k]-ta.variantFound[k])/n))
		}
		t.Logf("%-10s %.2f calls a list (%.2f found): %s", f, float64(ta.n)/n, float64(ta.found)/n, strings.Join(parts, "; "))
	}
}

// aggregateForm names what sent an FT.AGGREGATE of Holdings: "read"
// (rare or common terms' matched sets, every row), "sample"
// (sampleRows rows), "learn" (a level check reading its chunk's terms),
// "check" (LIMIT 0 1 without: last checks, and level checks that cannot
// learn).
func aggregateForm(args []any) string {
	s := fmt.Sprint(args...)
	one := slices.ContainsFunc(args, func(a any) bool { return a == "LIMIT" }) && limitOf(args) == 1
	switch {
	case one && strings.Contains(s, "matched_terms"):
		return "learn"
	case one:
		return "check"
	case limitOf(args) == sampleRows:
		return "sample"
	default:
		return "read"
	}
}

// limitOf is the row count of an FT.AGGREGATE's LIMIT.
func limitOf(args []any) int {
	for i, a := range args {
		if a == "LIMIT" && i+2 < len(args) {
			n, _ := args[i+2].(int)
			return n
		}
	}
	return -1
}

// aggregateVariants is the variants of an FT.AGGREGATE of form measured
// against it: a level check without its optional clauses and
// matched_terms (existence only), a read without matched_terms (the rows'
// iteration without their terms), a read counted in one row (GROUPBY 0).
func aggregateVariants(form string, args []any) map[string][]any {
	out := map[string][]any{}
	q, _ := args[2].(string)
	plain := func(q string) []any {
		a := []any{args[0], args[1], q, "VERBATIM"}
		i := slices.Index(args, any("LIMIT"))
		return append(a, args[i:]...)
	}
	switch form {
	case "learn":
		var kept []string
		for f := range strings.FieldsSeq(q) {
			if !strings.HasPrefix(f, "~") {
				kept = append(kept, f)
			}
		}
		out["plain"] = plain(strings.Join(kept, " "))
	case "read", "sample":
		out["norows"] = plain(q)
		out["count"] = []any{args[0], args[1], q, "VERBATIM", "GROUPBY", 0, "REDUCE", "COUNT", 0, "AS", "n", "TIMEOUT", noTimeout, "DIALECT", 2}
	}
	return out
}

// argsRecorder keeps the arguments of every command sent while on.
type argsRecorder struct {
	on    bool
	args  [][]any
	pipes int // round trips (a command alone or a pipeline)
}

func (r *argsRecorder) DialHook(next redis.DialHook) redis.DialHook { return next }

func (r *argsRecorder) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if r.on {
			r.pipes++
		}
		r.keep(cmd)
		return next(ctx, cmd)
	}
}

func (r *argsRecorder) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if r.on {
			r.pipes++
		}
		for _, cmd := range cmds {
			r.keep(cmd)
		}
		return next(ctx, cmds)
	}
}

func (r *argsRecorder) keep(cmd redis.Cmder) {
	if r.on {
		r.args = append(r.args, slices.Clone(cmd.Args()))
	}
}

// TestHoldingsBatchOnBuilt counts, on an index already built in a
// running server, the FT.AGGREGATEs OpenHoldings sends for the term
// lists the assessor asked end to end (as TestHoldingsFormsOnBuilt reads
// them) at several sizes of checkBatch, and checks that every size gives
// the same whole answer (Held.All) as the first.
//
//	ASSAY_HFORM_REDIS=host:port ASSAY_HFORM_NAME=index ASSAY_HFORM_LISTS=held.jsonl
//	[ASSAY_HFORM_BATCHES="64 16 8 4 1", each BATCH[:maxPostings[:0 (foresee off)[:0 (rareLast off)[:sampleRows]]]]]
//	[ASSAY_HFORM_PROFILE=1: FT.PROFILE's time of the commands sent]
func TestHoldingsBatchOnBuilt(t *testing.T) {
	addr, name, path, _ := measureEnv(t, "HFORM", "LISTS", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	lists := heldLists(t, path)
	batches := []int{64, 16, 8, 4, 1}
	var bounds []int    // maxPostings of each (BATCH:BOUND[:0, foresee off])
	var foresees []bool // foresee of each
	var lasts []bool    // rareLast of each
	var samples []int   // sampleRows of each
	if s := os.Getenv("ASSAY_HFORM_BATCHES"); s != "" {
		batches = nil
		for f := range strings.FieldsSeq(s) {
			what := "ASSAY_HFORM_BATCHES " + f
			bs, ps, _ := strings.Cut(f, ":")
			ps, fs, _ := strings.Cut(ps, ":")
			fs, ls, _ := strings.Cut(fs, ":")
			ls, ss, _ := strings.Cut(ls, ":")
			foresees = append(foresees, fs != "0")
			lasts = append(lasts, ls != "0")
			samples = append(samples, intOr(t, what, ss, sampleRows))
			b := intOr(t, what, bs, 0)
			if b < 1 {
				t.Fatalf("%s: a batch of %d", what, b)
			}
			batches = append(batches, b)
			bounds = append(bounds, intOr(t, what, ps, maxPostings))
		}
	}
	for len(bounds) < len(batches) {
		bounds = append(bounds, maxPostings)
		foresees = append(foresees, foresee)
		lasts = append(lasts, rareLast)
		samples = append(samples, sampleRows)
	}
	defer func(old int) { sampleRows = old }(sampleRows)
	defer func(old bool) { foresee = old }(foresee)
	defer func(old bool) { rareLast = old }(rareLast)
	defer func(old int) { maxPostings = old }(maxPostings)
	defer func(old int) { checkBatch = old }(checkBatch)
	rec := &argsRecorder{}
	ix.rdb.AddHook(rec)
	calls := make([]int, len(batches))
	rounds := make([]int, len(batches))
	profiled := make([]float64, len(batches)) // ms, FT.PROFILE's total time of the commands sent
	profile := os.Getenv("ASSAY_HFORM_PROFILE") != ""
	nils := make([]int, len(batches))         // lists it cannot tell
	nilCalls := make([]int, len(batches))     // FT.AGGREGATEs sent for those
	nilled := make([]int, len(batches))       // lists the first variant answers and this one cannot tell
	fallback := make([]float64, len(batches)) // ms: the first variant's, for those (a retry at its bound)
	fallCalls := make([]int, len(batches))
	for li, l := range lists {
		v := ix.Visible(l.Filter.Groups).(Vocabulary)
		answers := make([]map[uint64]int, len(batches))
		ms := make([]float64, len(batches))
		sentN := make([]int, len(batches))
		for k := range batches {
			bi := (k + li) % len(batches) // rotated: no variant always first
			b := batches[bi]
			checkBatch, maxPostings, foresee, rareLast, sampleRows = b, bounds[bi], foresees[bi], lasts[bi], samples[bi]
			rec.on, rec.args, rec.pipes = true, nil, 0
			h, err := v.OpenHoldings(ctx, l.Terms, l.Filter)
			rec.on = false
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range rec.args {
				if s, _ := a[0].(string); s == "FT.AGGREGATE" {
					sentN[bi]++
					if profile {
						ms[bi] += profileMs(t, ix, a)
					}
				}
			}
			rounds[bi] += rec.pipes
			if h == nil {
				nils[bi]++
				nilCalls[bi] += sentN[bi]
			}
			if h != nil {
				if answers[bi], err = h.All(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		for bi := range batches {
			calls[bi] += sentN[bi]
			profiled[bi] += ms[bi]
			first, all := answers[0], answers[bi]
			if first != nil && all == nil {
				nilled[bi]++
				fallback[bi] += ms[0]
				fallCalls[bi] += sentN[0]
				continue
			}
			if (first == nil) != (all == nil) || !slices.Equal(slices.Sorted(maps.Keys(first)), slices.Sorted(maps.Keys(all))) {
				t.Errorf("list %d %v: variant 0 answers %v, variant %d %v", li, l.Terms, first, bi, all)
			} else if bounds[bi] == bounds[0] && !maps.Equal(first, all) { // the same rare terms read: the same counts too
				t.Errorf("list %d %v: variant 0 counts %v, variant %d %v", li, l.Terms, first, bi, all)
			}
		}
	}
	n := float64(len(lists))
	for bi, b := range batches {
		t.Logf("sampleRows %d, maxPostings %d, foresee %v, rareLast %v, checkBatch %d: %.2f FT.AGGREGATE and %.2f round trips a list (%d lists); FT.PROFILE total %.3f ms a list; cannot tell where the first can: %d lists (retried at the first's bound: +%.2f FT.AGGREGATE, +%.3f ms a list); cannot tell %d lists (%d FT.AGGREGATE)", samples[bi], bounds[bi], foresees[bi], lasts[bi], b, float64(calls[bi])/n, float64(rounds[bi])/n, len(lists), profiled[bi]/n, nilled[bi], float64(fallCalls[bi])/n, fallback[bi]/n, nils[bi], nilCalls[bi])
	}
}

// heldList is one Holdings the assessor asked (a diagnostic build's log).
type heldList struct {
	Terms  []string
	Filter *backend.Filter
}

// heldLists reads the distinct term lists of a diagnostic build's log.
func heldLists(t *testing.T, path string) []heldList {
	t.Helper()
	var lists []heldList
	seen := map[string]bool{}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l heldList
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(l)
		if seen[string(b)] || l.Filter == nil {
			continue
		}
		seen[string(b)] = true
		lists = append(lists, l)
	}
	return lists
}

// profileMs sends an FT.AGGREGATE's args as FT.PROFILE … AGGREGATE QUERY
// and returns the engine's "Total profile time" (ms): the command's own
// time on Redis's thread, whatever other clients send meanwhile.
func profileMs(t *testing.T, ix *Index, args []any) float64 {
	t.Helper()
	p := append([]any{"FT.PROFILE", args[1], "AGGREGATE", "QUERY"}, args[2:]...)
	raw, err := ix.rdb.Do(context.Background(), p...).Slice()
	if err != nil {
		t.Fatalf("%v: %v", p, err)
	}
	var find func(v any) (float64, bool)
	find = func(v any) (float64, bool) {
		xs, ok := v.([]any)
		if !ok {
			return 0, false
		}
		for i, x := range xs {
			if s, _ := x.(string); s == "Total profile time" && i+1 < len(xs) {
				var ms float64
				fmt.Sscan(fmt.Sprint(xs[i+1]), &ms)
				return ms, true
			}
			if ms, ok := find(x); ok {
				return ms, true
			}
		}
		return 0, false
	}
	ms, ok := find(raw[len(raw)-1])
	if !ok {
		t.Fatalf("FT.PROFILE: no total time in %v", raw[len(raw)-1])
	}
	return ms
}
