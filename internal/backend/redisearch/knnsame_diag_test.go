package redisearch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/embed"
)

// TestTwoBuildsLegs compares two builds of one corpus in one server
// (ASSAY_TWO_REDIS, ASSAY_TWO_NAME and ASSAY_TWO_OTHER, ASSAY_TWO_DATA):
// how many claims' BM25 legs (ids and scores) and vector legs (ids) of
// the top 100 differ, for a caller who sees every group. The build's
// writers run concurrently, so the HNSW graph's insertion order, and
// with it the approximate vector leg, may differ from build to build.
func TestTwoBuildsLegs(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "TWO", "DATA", 1)
	other := os.Getenv("ASSAY_TWO_OTHER")
	ctx := context.Background()
	a, b := openBuilt(t, addr, name), openBuilt(t, addr, other)
	texts := sampleQueries(t, filepath.Join(dir, "queries.jsonl"), every)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	f := backend.Filter{Groups: scaleGroups()}
	var textDiff, vecDiff int
	for i, q := range texts {
		ta, err := a.SearchText(ctx, q, f, 100)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := b.SearchText(ctx, q, f, 100)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(ta) != fmt.Sprint(tb) {
			textDiff++
		}
		va, _, err := a.SearchVector(ctx, vecs[i], f, 100)
		if err != nil {
			t.Fatal(err)
		}
		vb, _, err := b.SearchVector(ctx, vecs[i], f, 100)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(ids(va)) != fmt.Sprint(ids(vb)) {
			vecDiff++
		}
	}
	t.Logf("%d claims: BM25 leg differs in %d, vector leg in %d", len(texts), textDiff, vecDiff)
}

func ids(hits []backend.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}
