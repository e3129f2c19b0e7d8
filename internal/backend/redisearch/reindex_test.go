package redisearch_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestEachChunkIndexedOnce builds an index twice (a new version each
// time) and a second index in the same server, and checks that
// RediSearch indexed every chunk once: a hash indexed again gets a new
// document id, so FT.INFO's max_doc_id exceeds num_docs. It failed
// before FT.CREATE skipped its initial scan: every build after the
// server's first ended with max_doc_id 5,156 to 5,478 for 3,000 chunks.
func TestEachChunkIndexedOnce(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	base, _ := hollinChunks(t)
	chunks := replicate(base, 3000)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	a, b := redistest.Name("once-a"), redistest.Name("once-b")
	for i, name := range []string{a, a, b, b} {
		m, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb})
		if err != nil {
			t.Fatal(err)
		}
		vn := fmt.Sprintf("assay:%s:v%d", name, m.Version)
		info, err := rdb.FTInfo(ctx, vn).Result()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("build %d (%s): num_docs %d, max_doc_id %d", i+1, vn, info.NumDocs, info.MaxDocID)
		if info.NumDocs != len(chunks) || info.MaxDocID != info.NumDocs {
			t.Errorf("build %d (%s): num_docs %d, max_doc_id %d; want both %d (each chunk indexed once)", i+1, vn, info.NumDocs, info.MaxDocID, len(chunks))
		}
	}
}
