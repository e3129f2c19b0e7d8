package redisearch_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestVectorLegWalkWidth: the vector leg walks the HNSW graph with
// EF_RUNTIME 400, or its depth (k + 16) when that is larger, for a caller
// who sees every chunk (the whole graph) and for one whose group has a
// graph of its own. 400 was chosen at 500,000 chunks in round 34
// (docs/log/round-34-p34-knn.md): against 800, hybrid+rerank's nDCG@10
// held (all 0.4846 → 0.4851, public 0.2309 → 0.2310, SciFact within its
// ±0.002) and its p50 went ×0.88–0.93, the leg's Redis time a search
// 6.0 → 3.8 ms; no EF measured (200 to 1,600) brings the final top 10
// nearer the exact leg's than 0.92–0.93.
func TestVectorLegWalkWidth(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(34, 400))
	words := strings.Fields("pump valve seal gasket bearing rotor stator coil relay fuse panel cable sensor probe gauge meter")
	var chunks []corpus.Chunk
	for i := range 120 {
		var b strings.Builder
		for range 6 + r.IntN(10) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		acl := []string{"public"}
		if i%3 == 0 {
			acl = []string{"staff"}
		}
		id := fmt.Sprintf("d%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: b.String(), Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	// public's 80 chunks get a graph, as a large group's do (a group this
	// small would get a FLAT index, which takes no EF_RUNTIME).
	defer redisearch.SetFlatGroupMax(redisearch.SetFlatGroupMax(0))
	name := redistest.Name("efwidth")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var knn []string
	cl := srv.Client(t)
	cl.AddHook(eachCommand(func(c redis.Cmder) {
		if !strings.EqualFold(c.Name(), "ft.search") {
			return
		}
		for _, a := range c.Args() {
			if s, ok := a.(string); ok && strings.Contains(s, "KNN") {
				mu.Lock()
				knn = append(knn, s)
				mu.Unlock()
			}
		}
	}))
	ix, err := redisearch.Open(ctx, cl, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := emb.Embed(ctx, []string{"relay fuse cable"})
	if err != nil {
		t.Fatal(err)
	}
	for _, groups := range [][]string{{"public", "staff"}, {"public"}} {
		for _, c := range []struct{ k, depth, ef int }{{100, 116, 400}, {10, 26, 400}, {500, 516, 516}} {
			mu.Lock()
			knn = nil
			mu.Unlock()
			if _, _, err := ix.SearchVector(ctx, q[0], backend.Filter{Groups: groups}, c.k); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			got := knn
			mu.Unlock()
			want := fmt.Sprintf("[KNN %d @vec $B EF_RUNTIME %d AS dist]", c.depth, c.ef)
			if len(got) != 1 || !strings.HasSuffix(got[0], want) {
				t.Errorf("%v, k %d: the leg sent %q, want one KNN query ending %q", groups, c.k, got, want)
			}
		}
	}
}
