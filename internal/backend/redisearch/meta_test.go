package redisearch_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestChunkMeta: RediSearch's ChunkMeta says what the chunks say (status,
// authority) and visibility is the ACL's, for every Hollin chunk and
// principal, read from Redis (no chunk cache) and from the cache (the
// chunks read first); an unknown id is not found. Retrieval refuses a
// candidate ChunkMeta calls invisible, but its searches only return
// visible ones: without this test an ACL read wrong here would pass.
func TestChunkMeta(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	chunks, sum := hollinChunks(t)
	name := redistest.Name("chunkmeta")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Checksum: sum}); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(chunks))
	for i := range chunks {
		ids[i] = chunks[i].ID
	}
	for _, cache := range []int{-1, 0} {
		t.Run(fmt.Sprintf("cache=%d", cache), func(t *testing.T) {
			ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: cache})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if cache >= 0 {
				if _, err := ix.Chunks(ctx, ids); err != nil { // cached
					t.Fatal(err)
				}
			}
			for _, groups := range [][]string{{"public"}, {"staff"}, {"partner:brook-street", "finance"}, {"nobody"}, nil} {
				metas, err := ix.ChunkMeta(ctx, ids, groups)
				if err != nil {
					t.Fatal(err)
				}
				if len(metas) != len(ids) {
					t.Fatalf("as %v: %d metadata for %d ids", groups, len(metas), len(ids))
				}
				for i, m := range metas {
					c := chunks[i]
					if m.Status != c.Status || m.Authority != c.Authority || m.Visible != (len(groups) > 0 && c.VisibleTo(groups)) {
						t.Errorf("%s as %v: %+v, the chunk says status %s authority %g acl %v", c.ID, groups, m, c.Status, c.Authority, c.ACL)
					}
				}
			}
			if _, err := ix.ChunkMeta(ctx, []string{ids[0], "no-such-chunk"}, []string{"public"}); !errs.Is(errs.NotFound, err) {
				t.Errorf("unknown id: %v", err)
			}
			// A search that is cancelled stops waiting for Redis: a
			// read ChunkMeta must make fails with the caller's context
			// (a fresh Index: this one keeps what it read).
			if cache < 0 {
				if ix, err = redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: cache}); err != nil {
					t.Fatal(err)
				}
			}
			done, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := ix.ChunkMeta(done, ids, []string{"public"}); cache < 0 && err == nil {
				t.Error("ChunkMeta with a cancelled context and no cache = nil error, want the cancellation")
			} else if cache >= 0 && err != nil {
				t.Errorf("ChunkMeta from the cache with a cancelled context: %v (no read needed)", err)
			}
		})
	}
}
