package redisearch_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// searchCounter counts the FT.SEARCH commands a client sends, alone or
// in pipelines.
type searchCounter struct{ n atomic.Int64 }

func (c *searchCounter) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) { return next(ctx, network, addr) }
}

func (c *searchCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.count(cmd)
		return next(ctx, cmd)
	}
}

func (c *searchCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			c.count(cmd)
		}
		return next(ctx, cmds)
	}
}

func (c *searchCounter) count(cmd redis.Cmder) {
	if strings.EqualFold(cmd.Name(), "ft.search") {
		c.n.Add(1)
	}
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
// terms occur together, Holdings reads them instead of counting their
// 2^k combinations: the searches it sends grow by one per term, not with
// the combinations (here: one per rare term, one per common term for the
// chunks holding it and a rare one, and the 3 combinations of the 2
// common terms among the other chunks), and the counts stay exact.
func TestHoldingsSearchesDoNotGrowWithCombinations(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	for _, k := range []int{4, 8, 12} {
		rdb := srv.Client(t) // a client of its own, counted from the Holdings below
		chunks, terms := coOccurring(k)
		ix := buildOpen(t, rdb, redistest.Name("combos"), chunks, redisearch.BuildOptions{})
		v := ix.Visible([]string{"public"})
		want := v.Holdings(ctx, terms, nil) // every term read: 5k+40+25 postings ≤ 4096
		old := redisearch.SetMaxPostings(5 * k)
		c := &searchCounter{}
		rdb.AddHook(c)
		got := v.Holdings(ctx, terms, nil)
		n := c.n.Load()
		redisearch.SetMaxPostings(old)
		all := uint64(1<<(k+2) - 1)
		exact := map[uint64]int{all: 5, 1 << k: 20, 1<<k | 1<<(k+1): 20}
		if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(got) != fmt.Sprint(exact) {
			t.Errorf("k=%d: Holdings read and counted %v, read %v; want %v", k, got, want, exact)
		}
		if max := int64(k + 2 + 3); n > max {
			t.Errorf("k=%d rare terms held together: Holdings sent %d FT.SEARCH, want at most %d (one per term and the 3 combinations of the common ones)", k, n, max)
		}
		t.Logf("k=%d rare terms held together: %d FT.SEARCH", k, n)
		// Asked again (another question with the same common words): the
		// common terms' counts are kept, only the reads are sent.
		redisearch.SetMaxPostings(5 * k)
		again := v.Holdings(ctx, terms, nil)
		redisearch.SetMaxPostings(old)
		if m := c.n.Load() - n; fmt.Sprint(again) != fmt.Sprint(exact) || m != int64(k+2) {
			t.Errorf("k=%d, asked again: %v in %d FT.SEARCH; want %v in %d (the common terms' counts kept)", k, again, m, exact, k+2)
		}
	}
}

// BenchmarkHoldings measures Holdings for an anonymous (public) caller
// over the content terms of each SciFact test question, on SciFact with
// team ACLs (ASSAY_SCIFACT=1) or on a bench-scale corpus
// (ASSAY_HOLDINGS_DIR=.../data/50000; ASSAY_HOLDINGS_MAX_POSTINGS sets
// the read bound): FT.SEARCH commands and Redis CPU
// ms per question, and whether the answers differ from what Holdings
// answered before it read the rare terms.
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
	before := map[int]string{} // question → what "before" answered, when it could tell
	// before: every term read while their postings add up to at most
	// maxPostings, else every combination counted, nothing kept (what
	// Holdings did until it read the rare terms); read-rare: the rare
	// terms read, the common ones' combinations counted; kept: the counts
	// also kept for later questions. Each starts with nothing kept but the
	// questions' document frequencies (the assessor asks those first), and
	// asks each question once.
	for _, mode := range []string{"before", "read-rare", "kept"} {
		b.Run(mode, func(b *testing.B) {
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
			defer redisearch.SetKeepCounts(redisearch.SetKeepCounts(mode == "kept"))
			bound := redisearch.SetMaxPostings(0)
			redisearch.SetMaxPostings(bound)
			c.n.Store(0)
			cannot, asked, differ := 0, 0, 0
			cpu0 := cpu()
			for b.Loop() {
				for i, q := range questions {
					if mode == "before" {
						// Before: every term read while their postings add
						// up to at most the bound, else every term counted.
						sum := 0
						for _, t := range q {
							sum += v.DocFreq(t)
						}
						if sum > bound {
							redisearch.SetMaxPostings(0)
						}
					}
					asked++
					got := v.Holdings(ctx, q, nil)
					switch {
					case got == nil:
						cannot++
					case mode == "before":
						before[i] = fmt.Sprint(got)
					case before[i] != "" && before[i] != fmt.Sprint(got):
						differ++
					}
					redisearch.SetMaxPostings(bound)
				}
			}
			b.ReportMetric(float64(c.n.Load())/float64(asked), "searches/question")
			b.ReportMetric((cpu()-cpu0)/float64(asked), "redis-cpu-ms/question")
			b.ReportMetric(float64(cannot)/float64(asked), "cannot-tell/question")
			if mode != "before" {
				b.ReportMetric(float64(differ), "differ-from-before")
			}
		})
	}
}
