package redisearch

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/percentile"
)

// TestKNNReplyCost: the vector leg's query as SearchVector sends it
// (RETURN dist SORTBY dist) against the same query NOCONTENT, per query
// Redis's main-thread CPU. ASSAY_REPLY_* as TestLegReplyCost.
func TestKNNReplyCost(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "REPLY", "DATA", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	texts := sampleQueries(t, filepath.Join(dir, "queries.jsonl"), every)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	redisCPU := schedstatReader(t, ix)
	const k = 100
	depth := k + vectorMargin
	ef := max(vectorEF, depth)
	for _, c := range []struct {
		name   string
		groups []string
	}{{"all", scaleGroups()}, {"public", []string{"public"}}} {
		s, err := ix.set(ctx, c.groups)
		if err != nil {
			t.Fatal(err)
		}
		query := vectorForm(s, ix.st.Chunks, backend.Filter{Groups: c.groups}, depth, ef)
		for _, form := range []string{"dist", "nocontent", "dist", "nocontent"} {
			var cpu []time.Duration
			for i := range texts {
				args := []any{"FT.SEARCH", ix.vn, query}
				if form == "dist" {
					args = append(args, "RETURN", 1, fieldDistance, "SORTBY", fieldDistance, "ASC")
				} else {
					args = append(args, "NOCONTENT")
				}
				args = append(args, "LIMIT", 0, depth, "PARAMS", 2, "B", vectorBytes(vecs[i], ix.m.vectorType()), "TIMEOUT", noTimeout, "DIALECT", 2)
				c0 := redisCPU()
				if err := ix.rdb.Do(ctx, args...).Err(); err != nil {
					t.Fatal(err)
				}
				cpu = append(cpu, redisCPU()-c0)
			}
			var sum time.Duration
			for _, d := range cpu {
				sum += d
			}
			slices.Sort(cpu)
			t.Logf("%-7s %-9s %d queries: redis CPU p50 %.2f mean %.2f ms (%s)", c.name, form, len(cpu),
				ms(percentile.NearestRank(cpu, 50)), ms(sum/time.Duration(len(cpu))), strconv.Quote(query[:min(len(query), 40)]))
		}
	}
}
