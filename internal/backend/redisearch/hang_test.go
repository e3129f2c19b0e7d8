package redisearch

import (
	"context"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestStaleBoundedWhenRedisHangs (round 49 review, rv49): with a Redis
// that accepts connections and answers nothing (a paused process), Stale
// fails unavailable within about staleWait (1 s), as its doc and
// operations.md say: /readyz, Searching and a cached passage read ask it
// alone. go-redis does not bound a socket read by the context's deadline
// unless the client enables ContextTimeoutEnabled; before this fix the
// GET waited for the client's ReadTimeout (5 s by default) whatever
// staleWait said.
func TestStaleBoundedWhenRedisHangs(t *testing.T) {
	srv := redistest.StartPausable(t)
	rdb := NewClient(srv.Addr, "")
	defer rdb.Close()
	ctx := context.Background()
	name := redistest.Name("hang")
	c := []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "partner rates", Status: corpus.Current, ACL: []string{"public"}}}
	if _, _, err := Build(ctx, rdb, name, c, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if stale, err := ix.Stale(ctx); stale || err != nil {
		t.Fatalf("Stale with Redis up = %v, %v", stale, err)
	}
	resume := srv.Pause(t)
	for i := range 2 {
		start := time.Now()
		stale, err := ix.Stale(ctx)
		took := time.Since(start)
		if !errs.Is(errs.Unavailable, err) || stale {
			t.Errorf("Stale %d with Redis paused = %v, %v; want unavailable", i, stale, err)
		}
		if took > staleWait+time.Second {
			t.Errorf("Stale %d with Redis paused failed after %v; want about staleWait (%v)", i, took.Round(time.Millisecond), staleWait)
		}
	}
	resume()
	if stale, err := ix.Stale(ctx); stale || err != nil {
		t.Errorf("Stale once Redis answers again = %v, %v; want current", stale, err)
	}
}
