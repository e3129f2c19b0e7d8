package redisearch_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestKNNUnsorted: the vector leg's KNN reads without SORTBY (the
// default since round 42) return the same hits, in the same order and
// with the same scores, as with SORTBY dist ASC, on the Hollin corpus
// and a generated one with overlapping ACLs, for callers of every
// group, of each one (vector groups' graphs and the ACL pre-filter) and
// of several, at a k whose depth is below the chunks a caller sees (the
// reads' LIMIT cuts) and at one above.
func TestKNNUnsorted(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	hollin, _ := hollinChunks(t)
	for ci, chunks := range [][]corpus.Chunk{hollin, matchedCorpus(5, 300)} {
		name := redistest.Name(fmt.Sprintf("knnsort%d", ci))
		buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb})
		compared, cut := 0, 0
		for _, k := range []int{5, 30, 400} {
			for _, c := range metaCases(chunks) {
				qv, err := emb.Embed(ctx, []string{c.query})
				if err != nil {
					t.Fatal(err)
				}
				f := backend.Filter{Groups: c.groups}
				var hits [2][]backend.Hit
				for run, sorted := range []bool{true, false} {
					prev := redisearch.SetKNNSortBy(sorted)
					ix := openUncached(t, rdb, name)
					hits[run], _, err = ix.SearchVector(ctx, qv[0], f, k)
					redisearch.SetKNNSortBy(prev)
					if err != nil {
						t.Fatal(err)
					}
				}
				if len(hits[0]) == 0 {
					continue
				}
				compared++
				if len(hits[0]) == k {
					cut++
				}
				if fmt.Sprint(hits[1]) != fmt.Sprint(hits[0]) {
					t.Errorf("corpus %d, k %d, %v %q: KNN hits sorted by Redis %v, unsorted %v", ci, k, c.groups, c.query, hits[0], hits[1])
				}
			}
		}
		if compared < 20 || cut < 10 {
			t.Errorf("corpus %d: %d searches with hits, %d of them cut at k (the test tests little)", ci, compared, cut)
		}
		t.Logf("corpus %d: %d chunks, %d vector searches compared, %d cut at k", ci, len(chunks), compared, cut)
	}
}
