package redisearch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/redistest"
)

// hmgetCounter counts the HMGET commands of chunks (not of statistics
// tables) a client sends in pipelines (the only way the backend sends
// them).
type hmgetCounter struct{ searchCounter }

func (c *hmgetCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (c *hmgetCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if args := cmd.Args(); strings.EqualFold(cmd.Name(), "hmget") && len(args) > 1 && strings.Contains(fmt.Sprint(args[1]), ":c:") {
				c.n.Add(1)
			}
		}
		return next(ctx, cmds)
	}
}

// TestCandidatesReturnTheirContent: the BM25 leg's candidates come with
// their content in the search's reply, so re-scoring them sends no HMGET
// (with no chunk cache, every candidate would otherwise be one), and the
// hits are those of the HMGET path, scores included, for callers of one
// and several groups, long queries (the split form) and short ones.
func TestCandidatesReturnTheirContent(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("content")
	if _, _, err := redisearch.Build(ctx, rdb, name, overlappingACLs(5, 600), redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: -1})
	if err != nil {
		t.Fatal(err)
	}
	c := &hmgetCounter{}
	rdb.AddHook(c)
	queries := []string{"kettle", "kettle water descale", "warranty pump filter valve brook street calder rates hour ledger north region quoxil kettle"}
	for _, q := range queries {
		for _, groups := range [][]string{{"public"}, {"team-a", "team-b"}, {"public", "staff", "team-a", "team-b", "team-c", "team-d"}} {
			f := backend.Filter{Groups: groups}
			old := redisearch.SetReadContent(false)
			c.n.Store(0)
			want, err := ix.SearchText(ctx, q, f, 20)
			before := c.n.Load()
			redisearch.SetReadContent(old)
			if err != nil {
				t.Fatal(err)
			}
			c.n.Store(0)
			got, err := ix.SearchText(ctx, q, f, 20)
			if err != nil {
				t.Fatal(err)
			}
			if n := c.n.Load(); n != 0 || before == 0 {
				t.Errorf("%q, groups %v: %d HMGETs with the content in the reply (want 0), %d without (want some)", q, groups, n, before)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || len(got) == 0 {
				t.Errorf("%q, groups %v: hits %v, want those of the HMGET path %v", q, groups, got, want)
			}
		}
	}
}
