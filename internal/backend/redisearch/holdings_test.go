package redisearch_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// searchCounter counts the FT.SEARCH and FT.AGGREGATE commands a client sends, alone or
// in pipelines.
type searchCounter struct{ n atomic.Int64 }

func (c *searchCounter) DialHook(next redis.DialHook) redis.DialHook {
	return eachCommand(c.count).DialHook(next)
}

func (c *searchCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return eachCommand(c.count).ProcessHook(next)
}

func (c *searchCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return eachCommand(c.count).ProcessPipelineHook(next)
}

// eachCommand is a redis.Hook that shows the function each command a
// client sends, alone or in a pipeline, before it is sent.
type eachCommand func(redis.Cmder)

func (eachCommand) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) { return next(ctx, network, addr) }
}

func (f eachCommand) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		f(cmd)
		return next(ctx, cmd)
	}
}

func (f eachCommand) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			f(cmd)
		}
		return next(ctx, cmds)
	}
}

func (c *searchCounter) count(cmd redis.Cmder) {
	if strings.EqualFold(cmd.Name(), "ft.search") || strings.EqualFold(cmd.Name(), "ft.aggregate") {
		c.n.Add(1)
	}
}

// heldSets is the keys of a Holdings answer, sorted: the term sets the
// chunks hold (what the assessor reads); "<nil>" when it cannot tell.
func heldSets(m map[uint64]int) string {
	if m == nil {
		return "<nil>"
	}
	return fmt.Sprint(slices.Sorted(maps.Keys(m)))
}

// coOccurring is a corpus where k rare terms all occur together in 5
// chunks that also hold the common terms "kettle" and "water", which 40
// more chunks hold without them (20 of those hold "kettle" alone): 2^k
// combinations of terms are held together.
func coOccurring(k int) (chunks []corpus.Chunk, terms []string) {
	var rare []string
	for i := range k {
		rare = append(rare, fmt.Sprintf("q%cq", 'a'+i)) // no stemmer changes these
	}
	add := func(id, text string) {
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "t", Text: text, Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	for i := range 5 {
		add(fmt.Sprintf("r%d", i), strings.Join(rare, " ")+" kettle water")
	}
	for i := range 40 {
		text := "kettle water"
		if i%2 == 0 {
			text = "kettle"
		}
		add(fmt.Sprintf("c%d", i), text)
	}
	// A staff chunk, so the public caller is a restricted one.
	chunks = append(chunks, corpus.Chunk{ID: "s#0", DocID: "s", Title: "t", Text: "kettle " + strings.Join(rare, " "), Status: corpus.Current, Authority: 1, ACL: []string{"staff"}})
	return chunks, append(rare, "kettl", "water")
}

// TestHoldingsSearchesDoNotGrowWithCombinations: when a question's rare
// terms occur together, Holdings reads them instead of asking about
// their 2^k combinations: the searches it sends grow by one per term, not
// with the combinations (here: one per rare term, one per common term for
// the chunks holding it and a rare one, and for the 2 common terms among
// the other chunks: 3 existence checks of their combinations and 2 of
// which the chunks hold alone), and the term sets stay exact.
func TestHoldingsSearchesDoNotGrowWithCombinations(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	for _, k := range []int{4, 8, 12} {
		rdb := srv.Client(t) // a client of its own, counted from the Holdings below
		chunks, terms := coOccurring(k)
		ix := buildOpen(t, rdb, redistest.Name("combos"), chunks, redisearch.BuildOptions{})
		v := ix.Visible([]string{"public"})
		want := held(t, v, ctx, terms, nil) // every term read: 5k+40+25 postings ≤ 4096
		old := redisearch.SetMaxPostings(5 * k)
		c := &searchCounter{}
		rdb.AddHook(c)
		got := held(t, v, ctx, terms, nil)
		n := c.n.Load()
		redisearch.SetMaxPostings(old)
		all := uint64(1<<(k+2) - 1)
		exact := map[uint64]int{all: 5, 1 << k: 20, 1<<k | 1<<(k+1): 20}
		max := int64(k + 2 + 5)
		if heldSets(got) != heldSets(want) || heldSets(got) != heldSets(exact) || got[all] != 5 {
			t.Errorf("k=%d: Holdings read and checked %v, read %v; want the sets of %v (5 chunks holding every term)", k, got, want, exact)
		}
		if n > max {
			t.Errorf("k=%d rare terms held together: Holdings sent %d searches, want at most %d", k, n, max)
		}
		t.Logf("k=%d rare terms held together: %d searches", k, n)
	}
}

// BenchmarkHoldings measures Holdings for an anonymous (public) caller
// over the content terms of each SciFact test question, on SciFact with
// team ACLs (ASSAY_SCIFACT=1) or on a bench-scale corpus
// (ASSAY_HOLDINGS_DIR=.../data/50000; ASSAY_HOLDINGS_MAX_POSTINGS sets
// the read bound): FT.SEARCH and FT.AGGREGATE commands, Redis CPU ms and
// "cannot tell" answers per question, each question asked once an
// iteration, its document frequencies cached first (the assessor asks
// those first). The counting path it once compared with is in history
// (docs/log/performance-scale.md).
//
//	ASSAY_TEST_REDISEARCH=../shared/redisearch ASSAY_HOLDINGS_DIR=/tmp/x/data/50000 \
//	  go test ./internal/backend/redisearch/ -run '^$' -bench Holdings -benchtime 1x
func BenchmarkHoldings(b *testing.B) {
	var chunks []corpus.Chunk
	qdir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir := os.Getenv("ASSAY_HOLDINGS_DIR"); dir != "" {
		docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		ch, _ := chunk.New(chunk.Default())
		chunks, qdir = ch.SplitAll(docs), dir
	} else {
		chunks = scifactChunks(b)
	}
	if n, err := strconv.Atoi(os.Getenv("ASSAY_HOLDINGS_MAX_POSTINGS")); err == nil {
		defer redisearch.SetMaxPostings(redisearch.SetMaxPostings(n))
	}
	ctx := context.Background()
	ds, err := eval.LoadBEIR(qdir, eval.SplitTest)
	if err != nil {
		b.Fatal(err)
	}
	srv := redistest.Start(b)
	rdb := srv.Client(b)
	c := &searchCounter{}
	rdb.AddHook(c)
	name := redistest.Name("benchheld")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{}); err != nil {
		b.Fatal(err)
	}
	an := terms.New()
	var questions [][]string
	for _, q := range ds.Queries {
		questions = append(questions, an.Content(q.Text))
	}
	cpu := func() float64 {
		info, err := rdb.Info(ctx, "cpu").Result()
		if err != nil {
			b.Fatal(err)
		}
		var sum float64
		for _, l := range strings.Split(info, "\n") {
			var x float64
			if k, val, ok := strings.Cut(strings.TrimSpace(l), ":"); ok && (k == "used_cpu_sys" || k == "used_cpu_user") {
				fmt.Sscan(val, &x)
				sum += x
			}
		}
		return sum * 1000
	}
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		b.Fatal(err)
	}
	v := ix.Visible([]string{"public"})
	for _, q := range questions {
		for _, t := range q {
			v.DocFreq(t)
		}
	}
	c.n.Store(0)
	cannot, asked := 0, 0
	cpu0 := cpu()
	for b.Loop() {
		for _, q := range questions {
			asked++
			if held(b, v, ctx, q, nil) == nil {
				cannot++
			}
		}
	}
	b.ReportMetric(float64(c.n.Load())/float64(asked), "searches/question")
	b.ReportMetric((cpu()-cpu0)/float64(asked), "redis-cpu-ms/question")
	b.ReportMetric(float64(cannot)/float64(asked), "cannot-tell/question")
}

// TestHoldingsSetsOnGeneratedCorpora: on generated corpora whose chunks
// hold random subsets of a few terms (so that most combinations are held
// by some chunk, many only together with others), for callers of one
// group and of several, with and without a filter, and at read bounds
// that make every term rare, every term common, or some of each, the
// term sets Holdings reports (postings read, existence checked) are
// those a chunk-by-chunk count gives: a combination wrongly taken for
// some chunk's exact set (or missed) fails.
func TestHoldingsSetsOnGeneratedCorpora(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	for _, seed := range []uint64{3, 11} {
		chunks := overlappingACLs(seed, 400)
		ix := buildOpen(t, rdb, redistest.Name("heldgen"), chunks, redisearch.BuildOptions{})
		an := terms.New()
		r := rand.New(rand.NewPCG(seed, 2))
		vocab := strings.Fields("kettl water descal motor warranti pump filter valv brook street calder rate hour ledger north region quoxil nosuchterm")
		for range 12 {
			var ts []string
			for _, i := range r.Perm(len(vocab))[:3+r.IntN(6)] {
				ts = append(ts, vocab[i])
			}
			for _, groups := range [][]string{{"public"}, {"team-a", "team-b"}, {"public", "staff", "team-c"}} {
				for _, f := range []*backend.Filter{nil, {Statuses: []corpus.Status{corpus.Current}}} {
					want := heldByCount(an, chunks, groups, ts) // what every chunk holds, counted here: the answer
					for _, bound := range []int{0, 30, 4096} {
						old := redisearch.SetMaxPostings(bound)
						checked := held(t, ix.Visible(groups), ctx, ts, f)
						redisearch.SetMaxPostings(old)
						if heldSets(checked) != heldSets(want) {
							t.Errorf("seed %d, groups %v, terms %v, filter %v, bound %d: checked %v, want the sets of %v", seed, groups, ts, f, bound, checked, want)
						}
					}
				}
			}
		}
	}
}

// heldByCount counts, chunk by chunk, the chunks visible to groups by
// which of ts they hold (bit i: ts[i]), leaving out those holding none:
// what Holdings must report the sets of.
func heldByCount(an *terms.Analyzer, chunks []corpus.Chunk, groups, ts []string) map[uint64]int {
	want := map[uint64]int{}
	for i := range chunks {
		c := &chunks[i]
		if !corpus.Visible(c.ACL, groups) {
			continue
		}
		have := an.Set(c.Title + " " + c.Text)
		var m uint64
		for j, term := range ts {
			if have[term] {
				m |= 1 << j
			}
		}
		if m != 0 {
			want[m]++
		}
	}
	return want
}

// aggregateRecorder keeps the queries of the FT.AGGREGATE commands a
// client sends, alone or in pipelines.
type aggregateRecorder struct {
	searchCounter
	mu      sync.Mutex
	queries []string
}

func (c *aggregateRecorder) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if args := cmd.Args(); len(args) > 2 && strings.EqualFold(cmd.Name(), "ft.aggregate") {
				c.mu.Lock()
				c.queries = append(c.queries, fmt.Sprint(args[2]))
				c.mu.Unlock()
			}
		}
		return next(ctx, cmds)
	}
}

// count runs run with the recorder emptied and returns its result and the
// FT.AGGREGATE commands it sent.
func (c *aggregateRecorder) count(run func() map[uint64]int) (map[uint64]int, int) {
	c.mu.Lock()
	c.queries = nil
	c.mu.Unlock()
	got := run()
	c.mu.Lock()
	defer c.mu.Unlock()
	return got, len(c.queries)
}

// TestHoldingsSkipsChecksItsCountsAnswer: a common term more visible
// chunks hold than hold any rare term is held by a chunk holding no rare
// term, so Holdings sends no existence check of it alone; the held sets
// stay exact; and with a filter beyond the groups (the counts no longer
// bound the filtered chunks) the checks are sent.
func TestHoldingsSkipsChecksItsCountsAnswer(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	rdb := srv.Client(t)
	chunks, ts := coOccurring(4) // 4 rare terms in 5 chunks (Σ df 20); kettl in 45 public chunks, water in 25
	ix := buildOpen(t, rdb, redistest.Name("surely"), chunks, redisearch.BuildOptions{})
	v := ix.Visible([]string{"public"})
	old := redisearch.SetMaxPostings(20)
	defer redisearch.SetMaxPostings(old)
	// The checks, not the common terms' postings read instead of them
	// (TestHoldingsReadsCommonTermsWhenChecksCostMore).
	defer redisearch.SetCheckPostings(redisearch.SetCheckPostings(0))
	alone := func(qs []string) (n int) {
		for _, q := range qs {
			q = optionalClause.ReplaceAllString(q, "") // the terms a found chunk is read for (learnMasks)
			// The one-term checks (the rare terms left out), not the
			// later ones leaving out the other common term too.
			if strings.HasPrefix(q, "@content:(kettl) ") && !strings.Contains(q, "water") ||
				strings.HasPrefix(q, "@content:(water) ") && !strings.Contains(q, "kettl") {
				n++
			}
		}
		return n
	}
	exact := map[uint64]int{1<<6 - 1: 5, 1 << 4: 20, 1<<4 | 1<<5: 20}
	for _, f := range []*backend.Filter{nil, {Statuses: []corpus.Status{corpus.Current}}} {
		c := &aggregateRecorder{}
		rdb.AddHook(c)
		got := held(t, v, ctx, ts, f)
		qs := slices.Clone(c.queries)
		c.mu.Lock()
		c.queries = nil
		c.mu.Unlock()
		if heldSets(got) != heldSets(exact) {
			t.Errorf("filter %v: Holdings %v, want the sets of %v", f, got, exact)
		}
		switch n := alone(qs); {
		case f == nil && n != 0:
			t.Errorf("no filter: %d existence checks of a common term alone sent, want 0 (its visible count answers them): %q", n, qs)
		case f != nil && n != 2:
			t.Errorf("filter %v: %d existence checks of a common term alone, want 2 (the counts do not bound the filtered chunks): %q", f, n, qs)
		}
	}
}

// optionalClause is an optional clause of a check's query (learnMasks).
var optionalClause = regexp.MustCompile(` ~@content:\S+`)

// searchRecorder records the arguments of every FT.SEARCH sent.
type searchRecorder struct {
	searchCounter
	mu   sync.Mutex
	args [][]any
}

func (c *searchRecorder) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if strings.EqualFold(cmd.Name(), "ft.search") {
				c.mu.Lock()
				c.args = append(c.args, cmd.Args())
				c.mu.Unlock()
			}
		}
		return next(ctx, cmds)
	}
}

// TestHoldingsReadsPostingsUnscored: Holdings reads postings without
// scoring them (SCORER DOCSCORE: only which chunks match counts), and its
// answers, counts included, are those of reads scored by the engine's
// default.
func TestHoldingsReadsPostingsUnscored(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	// The searches' way of reading (matched_terms() reads with one
	// FT.AGGREGATE, which scores nothing; term lists naming a filter tag
	// value still read this way).
	defer redisearch.SetMatchedTerms(redisearch.SetMatchedTerms(false))
	chunks := overlappingACLs(5, 400)
	ix := buildOpen(t, rdb, redistest.Name("unscored"), chunks, redisearch.BuildOptions{})
	rec := &searchRecorder{}
	rdb.AddHook(rec)
	vocab := strings.Fields("kettl water descal motor warranti pump filter valv brook street calder rate hour ledger north region")
	r := rand.New(rand.NewPCG(5, 7))
	reads := 0
	for range 12 {
		var ts []string
		for _, i := range r.Perm(len(vocab))[:3+r.IntN(6)] {
			ts = append(ts, vocab[i])
		}
		for _, groups := range [][]string{{"public"}, {"team-a", "team-b"}} {
			v := ix.Visible(groups)
			rec.mu.Lock()
			rec.args = nil
			rec.mu.Unlock()
			got := held(t, v, ctx, ts, nil)
			rec.mu.Lock()
			sent := rec.args
			rec.mu.Unlock()
			for _, a := range sent {
				if !postingsRead(a) {
					continue // a count (LIMIT 0 0): the statistics
				}
				reads++
				if s := fmt.Sprint(a); !strings.Contains(s, "SCORER DOCSCORE") {
					t.Errorf("terms %v: a postings read without SCORER DOCSCORE: %s", ts, s)
				}
			}
			old := redisearch.SetPostingsScorer("")
			scored := held(t, v, ctx, ts, nil)
			redisearch.SetPostingsScorer(old)
			if !maps.Equal(got, scored) {
				t.Errorf("groups %v, terms %v: unscored reads give %v, scored %v", groups, ts, got, scored)
			}
		}
	}
	if reads == 0 {
		t.Fatal("no postings were read: the test checks nothing")
	}
}

// postingsRead reports whether FT.SEARCH arguments ask for matches
// (LIMIT 0 n, n > 0), not only their count.
func postingsRead(args []any) bool {
	for i, a := range args {
		if s, ok := a.(string); ok && s == "LIMIT" && i+2 < len(args) {
			return fmt.Sprint(args[i+2]) != "0"
		}
	}
	return false
}

// TestHoldingsReadsCommonTermsWhenChecksCostMore: when a question's
// common terms are held together in many combinations, Holdings reads
// their postings instead of sending the checks (here: every term common,
// the checks priced so that it reads at the first), and its answers are
// those of checking every combination and of a chunk-by-chunk count, for
// callers of one group and several, with and without a filter; with a
// bound on the checks low enough that checking cannot tell, reading
// cannot either (the same nil), so the assessor's answers do not depend
// on which was cheaper.
func TestHoldingsReadsCommonTermsWhenChecksCostMore(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	chunks := overlappingACLs(13, 400)
	ix := buildOpen(t, rdb, redistest.Name("heldread"), chunks, redisearch.BuildOptions{})
	counter := &aggregateRecorder{}
	rdb.AddHook(counter)
	an := terms.New()
	r := rand.New(rand.NewPCG(13, 3))
	vocab := strings.Fields("kettl water descal motor warranti pump filter valv brook street calder rate hour ledger north region quoxil")
	defer redisearch.SetCheckPostings(redisearch.SetCheckPostings(0))
	defer redisearch.SetMaxPostings(redisearch.SetMaxPostings(0))
	checks := counter.count
	var checked, cannot int
	for range 10 {
		var ts []string
		for _, i := range r.Perm(len(vocab))[:4+r.IntN(6)] {
			ts = append(ts, vocab[i])
		}
		for _, groups := range [][]string{{"public"}, {"team-a", "team-b"}, {"public", "staff", "team-c"}} {
			for _, f := range []*backend.Filter{nil, {Statuses: []corpus.Status{corpus.Current}}} {
				want := heldByCount(an, chunks, groups, ts)
				for _, bound := range []int{1024, 4} {
					old := redisearch.SetMaxHoldingCounts(bound)
					v := ix.Visible(groups)
					redisearch.SetCheckPostings(0)
					byChecks, n := checks(func() map[uint64]int { return held(t, v, ctx, ts, f) })
					redisearch.SetCheckPostings(1 << 20)
					byReads, m := checks(func() map[uint64]int { return held(t, v, ctx, ts, f) })
					redisearch.SetMaxHoldingCounts(old)
					checked += n
					if byChecks == nil {
						cannot++
					}
					if heldSets(byReads) != heldSets(byChecks) {
						t.Errorf("groups %v, terms %v, filter %v, bound %d: read %v, checked %v", groups, ts, f, bound, heldSets(byReads), heldSets(byChecks))
					}
					if bound == 1024 && heldSets(byChecks) != heldSets(want) {
						t.Errorf("groups %v, terms %v, filter %v: checked %v, want the sets of %v", groups, ts, f, byChecks, want)
					}
					if m != 0 {
						t.Errorf("groups %v, terms %v, filter %v, bound %d: %d existence checks sent with reads cheaper than any, want 0", groups, ts, f, bound, m)
					}
				}
			}
		}
	}
	if checked == 0 || cannot == 0 {
		t.Fatalf("%d checks sent, %d answers that cannot tell: the test compares nothing", checked, cannot)
	}
}

// held is v.Holdings, failing the test on an error.
func held(tb testing.TB, v backend.Vocabulary, ctx context.Context, ts []string, f *backend.Filter) map[uint64]int {
	tb.Helper()
	h, err := v.Holdings(ctx, ts, f)
	if err != nil {
		tb.Fatalf("Holdings(%q): %v", ts, err)
	}
	return h
}

// TestHoldingsFailsWhenRedisFails: a Redis that stops answering makes
// Holdings an error (typed unavailable), never an answer: not nil
// ("cannot tell", which the assessor reads as "a chunk may exist") and
// not an empty or partial map (which it would read as "no visible chunk
// holds these words"). Every way Holdings asks is covered: the rare
// terms' postings (4096), existence checks (0), both (2), and the
// common terms' postings read instead of checks.
func TestHoldingsFailsWhenRedisFails(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	name := redistest.Name("heldfail")
	chunks, sum := hollinChunks(t)
	buildOpen(t, srv.Client(t), name, chunks, redisearch.BuildOptions{Checksum: sum})
	terms := []string{"warranti", "motor", "year", "x200"}
	for _, bound := range []int{4096, 0, 2} {
		for _, check := range []int{0, 1 << 20} {
			t.Run(fmt.Sprintf("postings=%d,check=%d", bound, check), func(t *testing.T) {
				defer redisearch.SetMaxPostings(redisearch.SetMaxPostings(bound))
				defer redisearch.SetCheckPostings(redisearch.SetCheckPostings(check))
				rdb := srv.Client(t)
				ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
				if err != nil {
					t.Fatal(err)
				}
				v := ix.Visible([]string{"public"})
				if got := held(t, v, ctx, terms, nil); len(got) == 0 {
					t.Fatalf("Holdings(%q) = %v before the failure, want some sets", terms, got)
				}
				rdb.Close() // every later command fails; the visible statistics stay cached
				for _, ts := range [][]string{terms, {"warranti", "nosuchterm"}} {
					got, err := v.Holdings(ctx, ts, nil)
					if err == nil || got != nil {
						t.Errorf("Holdings(%q) with Redis gone = %v, %v; want nil and an error", ts, got, err)
					} else if !errs.Is(errs.Unavailable, err) {
						t.Errorf("Holdings(%q) with Redis gone: %v, want it typed unavailable", ts, err)
					}
				}
			})
		}
	}
}

// TestHoldingsStopsWhenTheNextLevelCannotFit: a level's existence checks
// go in batches, and once the sets held among those answered already make
// the next level too large for maxHoldingCounts, Holdings cannot tell
// without the rest: 20 chunks all holding 10 common words hold every
// combination, so with a bound of 100 the 45 pairs (the words alone need
// no check) are followed by 120 triples, past the bound. Checked in
// batches of 8 in colex order, the pairs of the first 8 words (28, so 32
// sent) already give 56 triples of them and 6 more: 55 + 62 > 100, nil
// after 32 checks instead of 45. And on random term lists over
// overlapping ACLs, at bounds that can and cannot tell, with and without
// a filter, the answers are those of the whole level at once, with no
// more checks sent.
func TestHoldingsStopsWhenTheNextLevelCannotFit(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	defer redisearch.SetCheckPostings(redisearch.SetCheckPostings(0)) // checks, not the common terms' postings
	defer redisearch.SetMaxPostings(redisearch.SetMaxPostings(0))     // every term common
	defer redisearch.SetSampleRows(redisearch.SetSampleRows(0))       // no sample answers checks first
	defer redisearch.SetLearnMasks(redisearch.SetLearnMasks(false))   // nor a chunk a check found
	counter := &aggregateRecorder{}
	rdb.AddHook(counter)
	checks := counter.count

	words, dense := denseChunks(10, 20)
	ix := buildOpen(t, rdb, redistest.Name("heldbatch"), dense, redisearch.BuildOptions{})
	v := ix.Visible([]string{"public"})
	full, _ := checks(func() map[uint64]int { return held(t, v, ctx, words, nil) })
	if want := map[uint64]int{1<<10 - 1: 1}; heldSets(full) != heldSets(want) {
		t.Fatalf("bound 1024: %v, want every chunk's one set %v", full, want)
	}
	defer redisearch.SetMaxHoldingCounts(redisearch.SetMaxHoldingCounts(100))
	old := redisearch.SetCheckBatch(1 << 20)
	atOnce, n := checks(func() map[uint64]int { return held(t, v, ctx, words, nil) })
	redisearch.SetCheckBatch(8)
	batched, m := checks(func() map[uint64]int { return held(t, v, ctx, words, nil) })
	redisearch.SetCheckBatch(old)
	if atOnce != nil || batched != nil {
		t.Fatalf("bound 100: %v at once, %v in batches; want nil (cannot tell)", atOnce, batched)
	}
	if n != 45 || m != 32 {
		t.Errorf("bound 100: %d checks at once (want 45), %d in batches of 8 (want 32)", n, m)
	}

	chunks := overlappingACLs(17, 400)
	ix = buildOpen(t, rdb, redistest.Name("heldbatch2"), chunks, redisearch.BuildOptions{})
	r := rand.New(rand.NewPCG(17, 5))
	vocab := strings.Fields("kettl water descal motor warranti pump filter valv brook street calder rate hour ledger north region quoxil")
	var cannot, saved int
	for range 12 {
		var ts []string
		for _, i := range r.Perm(len(vocab))[:5+r.IntN(8)] {
			ts = append(ts, vocab[i])
		}
		for _, groups := range [][]string{{"public"}, {"team-a", "team-b"}} {
			for _, f := range []*backend.Filter{nil, {Statuses: []corpus.Status{corpus.Current}}} {
				for _, bound := range []int{1024, 60, 16} {
					redisearch.SetMaxHoldingCounts(bound)
					v := ix.Visible(groups)
					redisearch.SetCheckBatch(1 << 20)
					want, n := checks(func() map[uint64]int { return held(t, v, ctx, ts, f) })
					redisearch.SetCheckBatch(4)
					got, m := checks(func() map[uint64]int { return held(t, v, ctx, ts, f) })
					redisearch.SetCheckBatch(old)
					if heldSets(got) != heldSets(want) {
						t.Errorf("groups %v, terms %v, filter %v, bound %d: %v in batches, %v at once", groups, ts, f, bound, heldSets(got), heldSets(want))
					}
					if m > n {
						t.Errorf("groups %v, terms %v, filter %v, bound %d: %d checks in batches, more than %d at once", groups, ts, f, bound, m, n)
					}
					if want == nil {
						cannot++
						saved += n - m
					}
				}
			}
		}
	}
	if cannot == 0 {
		t.Fatalf("no answer that cannot tell: the test compares nothing")
	}
	t.Logf("%d answers that cannot tell, %d checks fewer in batches of 4", cannot, saved)
}

// denseChunks returns n words no stemmer changes and chunks public
// chunks each holding all of them.
func denseChunks(n, chunks int) (words []string, out []corpus.Chunk) {
	for i := range n {
		words = append(words, fmt.Sprintf("q%cq", 'a'+i))
	}
	for i := range chunks {
		out = append(out, corpus.Chunk{ID: fmt.Sprintf("d%d#0", i), DocID: fmt.Sprintf("d%d", i), Title: "t", Text: strings.Join(words, " "), Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	return words, out
}
