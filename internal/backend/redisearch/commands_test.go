package redisearch_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
)

// commandCounter counts the commands a client sends, by name (lower
// case), and apart the HMGETs of chunk hashes (":c:" keys); it counts
// as a hook, eachCommand(c.count).
type commandCounter struct {
	mu     sync.Mutex
	n      map[string]int
	chunks int // HMGET of a chunk's hash
}

func (c *commandCounter) count(cmd redis.Cmder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name := strings.ToLower(cmd.Name())
	c.n[name]++
	if args := cmd.Args(); name == "hmget" && len(args) > 1 && strings.Contains(fmt.Sprint(args[1]), ":c:") {
		c.chunks++
	}
}

func (c *commandCounter) reset() (n map[string]int, chunks int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, chunks = c.n, c.chunks
	c.n, c.chunks = map[string]int{}, 0
	return n, chunks
}

// TestSearchTextReadsCandidatesInOneCommand: the BM25 leg reads its
// candidates' content with the candidates (FT.SEARCH ... RETURN 1
// content), so a search sends no HMGET of a chunk however many
// candidates it re-scores (before round 18: one HMGET a candidate not
// cached, 351 commands a question end to end at 50,000 chunks, 125 with
// the content read), at most the two FT.SEARCH reads of the rare-term
// split, and returns the same hits,
// scores included, as the read without content and one HMGET a
// candidate, for a short query and for a long one with common terms, for
// a caller of one group and one of two, with the default rare-term rule
// (which splits neither query on 400 chunks) and with one that splits
// them (the rare terms' read returns the content).
func TestSearchTextReadsCandidatesInOneCommand(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	words := strings.Fields("kettle descale filter water boil lid spout handle base cord plug switch light steam limescale vinegar rinse cycle")
	rng := rand.New(rand.NewPCG(18, 18))
	var chunks []corpus.Chunk
	for i := range 400 {
		var w []string
		for range 12 + rng.IntN(20) {
			w = append(w, words[rng.IntN(len(words))])
		}
		acl := []string{"public"}
		if i%3 == 0 {
			acl = []string{"staff"}
		}
		id := fmt.Sprintf("d%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "kettle note", Text: strings.Join(w, " "), Status: corpus.Current, Authority: 1, ACL: acl})
	}
	name := redistest.Name("onecmd")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	queries := []string{
		"descale kettle with vinegar",
		"how do I descale the kettle base and rinse the limescale from the spout filter after a boil cycle",
	}
	// The default rare-term rule never splits a query on 400 chunks (it
	// wants a term in 1,000 of them); a rule that does reads the rare
	// terms' candidates, with their content, first.
	for _, split := range []bool{false, true} {
		if split {
			defer redisearch.SetRareRule(true, 0.01, 0.9, 2, 1, 2, 0, 0)()
		}
		searchTextReadsCandidatesInOneCommand(t, ctx, srv.Client(t), name, queries, split)
	}
}

func searchTextReadsCandidatesInOneCommand(t *testing.T, ctx context.Context, cl *redis.Client, name string, queries []string, split bool) {
	counter := &commandCounter{n: map[string]int{}}
	cl.AddHook(eachCommand(counter.count)) // a client of its own, counted
	// No chunk cache: every search reads its candidates from Redis.
	ix, err := redisearch.Open(ctx, cl, name, redisearch.Options{CacheChunks: -1})
	if err != nil {
		t.Fatal(err)
	}
	if split {
		if ok, err := ix.RareSplits(ctx, queries[1], []string{"public"}); err != nil || !ok {
			t.Fatalf("RareSplits(%q) = %v, %v: the rule does not split it", queries[1], ok, err)
		}
	}
	for _, groups := range [][]string{{"public"}, {"public", "staff"}} {
		f := backend.Filter{Groups: groups}
		for _, q := range queries {
			search := func(content bool) ([]backend.Hit, map[string]int, int) {
				t.Helper()
				defer redisearch.SetReadContent(redisearch.SetReadContent(content))
				if _, err := ix.SearchText(ctx, q, f, 10); err != nil { // statistics cached first
					t.Fatal(err)
				}
				counter.reset()
				hits, err := ix.SearchText(ctx, q, f, 10)
				if err != nil {
					t.Fatal(err)
				}
				n, chunks := counter.reset()
				return hits, n, chunks
			}
			old, oldN, oldChunks := search(false)
			got, n, chunkReads := search(true)
			if len(got) == 0 || !slices.Equal(got, old) {
				t.Errorf("%v %q: hits %v with the content read, want %v (one HMGET a candidate)", groups, q, got, old)
			}
			if oldChunks < 10 {
				t.Fatalf("%v %q: without the content read, %d HMGETs of chunks (%v); want one a candidate, at least 10: the counter counts nothing", groups, q, oldChunks, oldN)
			}
			if chunkReads != 0 || n["ft.search"] > 2 || n["ft.search"] == 0 {
				t.Errorf("%v %q: %d HMGETs of chunks and %d FT.SEARCH (%v); want 0 and 1 or 2 (without the content read: %d HMGETs, %v)",
					groups, q, chunkReads, n["ft.search"], n, oldChunks, oldN)
			}
			t.Logf("split %v %v %q: %v with the content read; %v and %d HMGETs of chunks without", split, groups, q, n, oldN, oldChunks)
		}
	}
}

// BenchmarkMetaThenChunks: what a hybrid search's retrieval reads of 200
// fused candidates, on an Index without a chunk cache (a RediSearch
// server, see internal/redistest): whole (every candidate's chunk, as
// before round 19) or meta (every candidate's ChunkMeta, then the 100
// results' chunks).
func BenchmarkMetaThenChunks(b *testing.B) {
	srv := redistest.Start(b)
	rdb := srv.Client(b)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(19, 19))
	words := strings.Fields("protein express cell gene mutation patient risk tumor receptor signal pathway inhibit mice level increase associated disease treatment")
	var chunks []corpus.Chunk
	var ids []string
	for i := range 200 {
		var w []string
		for range 150 {
			w = append(w, words[rng.IntN(len(words))])
		}
		id := fmt.Sprintf("d%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "a paper's title", Text: strings.Join(w, " "), Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
		ids = append(ids, id+"#0")
	}
	name := redistest.Name("meta")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{}); err != nil {
		b.Fatal(err)
	}
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ix.Chunks(ctx, ids); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("meta", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ix.ChunkMeta(ctx, ids, []string{"public"}); err != nil {
				b.Fatal(err)
			}
			if _, err := ix.Chunks(ctx, ids[:100]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
