package retrieval_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
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

// countingSearcher is a backend without MetaSource (its Searcher methods
// only) that counts the chunks it reads.
type countingSearcher struct {
	backend.Searcher
	read int
}

func (c *countingSearcher) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	c.read += len(ids)
	return c.Searcher.Chunks(ctx, ids)
}

// metaCounting is countingSearcher with the backend's MetaSource.
type metaCounting struct {
	*countingSearcher
	backend.MetaSource
}

// TestMetaReadsOnlyWhatRanks: with backend.MetaSource a search reads the
// chunks of the candidates the reranker reads and of the results only,
// and returns exactly what it returns reading every candidate: hits,
// scores, warnings and stages, for every mode and principal, with the
// Hollin corpus's archived and withdrawn sources and authorities under
// the status prior (a small rerank depth puts most candidates in the
// tail).
func TestMetaReadsOnlyWhatRanks(t *testing.T) {
	_, ix := hollin(t)
	metaReadsOnlyWhatRanks(t, ix, ix)
}

// TestMetaReadsOnlyWhatRanksOnRediSearch is TestMetaReadsOnlyWhatRanks
// on the RediSearch backend (its ChunkMeta, round 19), the metadata read
// from Redis (an Index without a chunk cache) and from the cache.
func TestMetaReadsOnlyWhatRanksOnRediSearch(t *testing.T) {
	docs, chunks, emb := hollinCorpus(t)
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	name := redistest.Name("meta")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Checksum: corpus.Checksum(docs), Embedder: emb, Chunking: chunk.Default().String()}); err != nil {
		t.Fatal(err)
	}
	for _, cache := range []int{-1, 0} {
		t.Run(fmt.Sprintf("cache=%d", cache), func(t *testing.T) {
			var ixs [2]*redisearch.Index
			for i := range ixs {
				var err error
				ixs[i], err = redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: cache})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ixs[i].Close() })
			}
			metaReadsOnlyWhatRanks(t, ixs[0], ixs[1])
		})
	}
}

// metaSearcher is a backend with its MetaSource.
type metaSearcher interface {
	backend.Searcher
	backend.MetaSource
}

// metaReadsOnlyWhatRanks searches every Hollin question as every
// principal in every mode on whole (read as a backend without
// MetaSource) and on ix (with it), and requires the same results and
// fewer chunks read.
func metaReadsOnlyWhatRanks(t *testing.T, whole backend.Searcher, ix metaSearcher) {
	emb, err := embed.NewHashed(embed.DefaultHashedDim)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := eval.LoadQuestions(filepath.Join(hollinDir, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{3, retrieval.DefaultRerankDepth} {
		whole := &countingSearcher{Searcher: whole}
		meta := &metaCounting{countingSearcher: &countingSearcher{Searcher: ix}, MetaSource: ix}
		var rs [2]*retrieval.Retriever
		for i, b := range []backend.Searcher{whole, meta} {
			r, err := retrieval.NewWithOptions(b, retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights), RerankDepth: depth})
			if err != nil {
				t.Fatal(err)
			}
			rs[i] = r
		}
		searches := 0
		for _, q := range qs {
			for _, groups := range principals {
				for _, mode := range retrieval.Modes {
					req := retrieval.Request{Query: q.Question, Groups: groups, K: 5, Mode: mode}
					w0, m0 := whole.read, meta.read
					want, err := rs[0].Search(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					got, err := rs[1].Search(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					searches++
					for i := range got.Stages {
						got.Stages[i].Millis, want.Stages[i].Millis = 0, 0
					}
					if !reflect.DeepEqual(got.Hits, want.Hits) || !reflect.DeepEqual(got.Warnings, want.Warnings) || !reflect.DeepEqual(got.Stages, want.Stages) {
						t.Fatalf("depth %d %q as %v in %s: with metadata\n%+v\nreading every candidate\n%+v", depth, q.Question, groups, mode, got, want)
					}
					limit := 5
					if mode == retrieval.HybridRerank {
						limit += depth
					}
					if n := meta.read - m0; n > limit || (whole.read-w0 > limit && n >= whole.read-w0) {
						t.Fatalf("depth %d %q in %s: read %d chunks with metadata (reading every candidate %d), want at most %d", depth, q.Question, mode, n, whole.read-w0, limit)
					}
				}
			}
		}
		if whole.read <= meta.read*2 {
			t.Errorf("depth %d: %d searches read %d chunks with metadata, %d without: the test does not exercise the tail", depth, searches, meta.read, whole.read)
		}
	}
}

// hitCounting is countingSearcher with the backend's MetaSource and
// HitSource.
type hitCounting struct {
	*countingSearcher
	backend.MetaSource
	backend.HitSource
}

// TestHitsReadOnlyTexts: with backend.HitSource (RediSearch) a search
// for more results than the reranker reads reads whole only the chunks
// whose text it reads, the reranker's and the best result's (for fewer,
// the candidates' metadata and the results whole, as without it), and
// returns exactly what it returns reading every candidate whole: hits, scores, warnings and stages, for every Hollin
// question as every principal in every mode, with the Hollin corpus's
// archived and withdrawn sources under the status prior and two chunks
// without text among the results (their warning from HitMeta's
// emptiness), the result fields read from Redis (no chunk cache) and
// from the cache.
func TestHitsReadOnlyTexts(t *testing.T) {
	docs, chunks, emb := hollinCorpus(t)
	for i, title := range []string{"Kettle descaling and warranty claims", "Partner hourly rate card"} {
		id := fmt.Sprintf("blank%d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: title, Status: corpus.Current, Authority: 1, ACL: []string{"public", "partners"}})
	}
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	name := redistest.Name("hits")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Checksum: corpus.Checksum(docs), Embedder: emb, Chunking: chunk.Default().String()}); err != nil {
		t.Fatal(err)
	}
	qs, err := eval.LoadQuestions(filepath.Join(hollinDir, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"kettle descaling warranty", "partner hourly rate"}
	for _, q := range qs {
		queries = append(queries, q.Question)
	}
	for _, cache := range []int{-1, 0} {
		t.Run(fmt.Sprintf("cache=%d", cache), func(t *testing.T) {
			var ixs [2]*redisearch.Index
			for i := range ixs {
				ixs[i], err = redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: cache})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ixs[i].Close() })
			}
			for _, depth := range []int{3, retrieval.DefaultRerankDepth} {
				whole := &countingSearcher{Searcher: ixs[0]}
				hits := &hitCounting{countingSearcher: &countingSearcher{Searcher: ixs[1]}, MetaSource: ixs[1], HitSource: ixs[1]}
				var rs [2]*retrieval.Retriever
				for i, b := range []backend.Searcher{whole, hits} {
					rs[i], err = retrieval.NewWithOptions(b, retrieval.Options{Embedder: emb, Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights), RerankDepth: depth})
					if err != nil {
						t.Fatal(err)
					}
				}
				blankBelowTop := 0
				for _, q := range queries {
					for _, groups := range principals {
						for _, mode := range retrieval.Modes {
							for _, k := range []int{1, 5, 25, 40} {
								req := retrieval.Request{Query: q, Groups: groups, K: k, Mode: mode}
								h0 := hits.read
								want, err := rs[0].Search(ctx, req)
								if err != nil {
									t.Fatal(err)
								}
								got, err := rs[1].Search(ctx, req)
								if err != nil {
									t.Fatal(err)
								}
								for i := range got.Stages {
									got.Stages[i].Millis, want.Stages[i].Millis = 0, 0
								}
								if !reflect.DeepEqual(got.Hits, want.Hits) || !reflect.DeepEqual(got.Warnings, want.Warnings) || !reflect.DeepEqual(got.Stages, want.Stages) {
									t.Fatalf("depth %d %q as %v in %s, k %d: with HitSource\n%+v\nreading every candidate whole\n%+v", depth, q, groups, mode, k, got, want)
								}
								limit := 1 // the best result (the prior may put a tail candidate first)
								if k <= depth {
									limit = k // the results, as with MetaSource
								}
								if mode == retrieval.HybridRerank {
									limit += depth
								}
								if n := hits.read - h0; n > limit {
									t.Fatalf("depth %d %q in %s, k %d: read %d chunks whole with HitSource, want at most %d", depth, q, mode, k, n, limit)
								}
								for i, h := range got.Hits {
									if i > 0 && k > depth && strings.HasPrefix(h.ChunkID, "blank") && mode != retrieval.HybridRerank {
										blankBelowTop++
									}
								}
							}
						}
					}
				}
				if blankBelowTop == 0 {
					t.Errorf("depth %d: no chunk without text among the results below the first: the test does not exercise HitMeta's emptiness", depth)
				}
				if hits.read*2 > whole.read {
					t.Errorf("depth %d: read %d chunks whole with HitSource, %d without: the test does not exercise the results", depth, hits.read, whole.read)
				}
			}
		})
	}
}
