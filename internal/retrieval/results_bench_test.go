package retrieval_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// BenchmarkSearchRediSearch: whole searches at k 100 on a RediSearch
// index without a chunk cache (a throwaway server, package redistest),
// as at 500,000 chunks, where the cache holds few of a search's results:
// what retrieval reads of the candidates and results besides the legs.
// SciFact's corpus and test queries with ASSAY_SCIFACT=1, else Hollin's.
func BenchmarkSearchRediSearch(b *testing.B) {
	ctx := context.Background()
	srv := redistest.Start(b)
	rdb := srv.Client(b)
	path, queries := filepath.Join(hollinDir, "corpus.jsonl"), []string(nil)
	if d := scifactDirIfEnabled(); d != "" {
		path = filepath.Join(d, "corpus.jsonl")
		ds, err := eval.LoadBEIR(d, eval.SplitTest)
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range ds.Queries {
			queries = append(queries, q.Text)
		}
	} else {
		qs, err := eval.LoadQuestions(filepath.Join(hollinDir, "questions.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range qs {
			queries = append(queries, q.Question)
		}
	}
	docs, err := corpus.LoadJSONL(path)
	if err != nil {
		b.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("bench")
	if _, _, err := redisearch.Build(ctx, rdb, name, ch.SplitAll(docs), redisearch.BuildOptions{Checksum: corpus.Checksum(docs), Embedder: emb, Chunking: chunk.Default().String()}); err != nil {
		b.Fatal(err)
	}
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: -1})
	if err != nil {
		b.Fatal(err)
	}
	r, err := retrieval.NewWithOptions(ix, retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights)})
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []retrieval.Mode{retrieval.BM25, retrieval.HybridRerank} {
		b.Run(string(mode), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := r.Search(ctx, retrieval.Request{Query: queries[i%len(queries)], Groups: []string{"public"}, K: 100, Mode: mode}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
