package redisearch_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestQueriesSurviveTheServerTimeout: RediSearch's TIMEOUT (default
// 500 ms) with ON_TIMEOUT RETURN ends a slow query with a partial answer
// that nothing marks as partial over RESP2. With the server's TIMEOUT at
// 1 ms, a count of every chunk comes back short; assay's answers (BM25
// hits, holdings, the visible count, whether a caller sees every chunk,
// visible document frequencies) must still be what they are under the
// default, because every query it sends asks for no server timeout.
func TestQueriesSurviveTheServerTimeout(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	const n = 40000
	chunks := overlappingACLs(15, n)
	name := redistest.Name("timeout")
	ix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{})
	all := []string{"public", "staff", "team-a", "team-b", "team-c", "team-d"}

	// What searches and holdings answer under the server's default TIMEOUT
	// (another Index, so that ix's caches stay empty).
	queries := []string{"kettle water descale", "motor warranty pump filter", "brook street calder rates hour"}
	restricted := [][]string{{"public"}, {"staff", "team-b"}, all}
	ref, err := redisearch.Open(ctx, rdb, name, redisearch.Options{CacheChunks: -1})
	if err != nil {
		t.Fatal(err)
	}
	wantHits := map[string][]string{}
	wantHeld := map[string]map[uint64]int{}
	for _, groups := range restricted {
		for _, text := range queries {
			hits, err := ref.SearchText(ctx, text, backend.Filter{Groups: groups}, 10)
			if err != nil {
				t.Fatal(err)
			}
			key := fmt.Sprint(groups, text)
			wantHits[key] = ids(hits)
			wantHeld[key] = held(t, ref.Visible(groups), ctx, strings.Fields(text), nil)
		}
	}

	for _, kv := range [][2]string{{"TIMEOUT", "1"}, {"ON_TIMEOUT", "RETURN"}} {
		if err := rdb.Do(ctx, "FT.CONFIG", "SET", kv[0], kv[1]).Err(); err != nil {
			t.Fatalf("FT.CONFIG SET %s %s: %v", kv[0], kv[1], err)
		}
	}
	t.Cleanup(func() { rdb.Do(context.Background(), "FT.CONFIG", "SET", "TIMEOUT", "500") })

	// The corpus must be big enough for the server to cut a query short;
	// otherwise this test shows nothing.
	q := redisearch.FilterQuery(backend.Filter{Groups: all})
	vn := fmt.Sprintf("assay:%s:v%d", name, ix.RedisManifest().Version)
	cut := false
	for range 5 {
		got, err := rdb.Do(ctx, "FT.SEARCH", vn, q, "NOCONTENT", "LIMIT", 0, 0, "DIALECT", 2).Slice()
		if err != nil {
			t.Fatal(err)
		}
		if got[0].(int64) < n {
			t.Logf("without a per-query TIMEOUT the server counted %d of %d chunks", got[0], n)
			cut = true
			break
		}
	}
	if !cut {
		t.Skipf("SKIP: no count of %d chunks passed the server's 1 ms TIMEOUT: too fast a machine to show a partial answer", n)
	}

	for _, groups := range restricted {
		for _, text := range queries {
			key := fmt.Sprint(groups, text)
			hits, err := ix.SearchText(ctx, text, backend.Filter{Groups: groups}, 10)
			if err != nil {
				t.Errorf("groups %v, %q: %v", groups, text, err)
			} else if got := ids(hits); !slices.Equal(got, wantHits[key]) {
				t.Errorf("groups %v, %q: hits %v, want %v", groups, text, got, wantHits[key])
			}
			if got := held(t, ix.Visible(groups), ctx, strings.Fields(text), nil); !maps.Equal(got, wantHeld[key]) {
				t.Errorf("groups %v, %q: holdings %v, want %v", groups, text, got, wantHeld[key])
			}
		}
	}
	for _, groups := range [][]string{all, {"public", "staff"}, {"team-a", "team-b", "team-c"}} {
		want := visibleDF(chunks, groups)
		visible := 0
		for i := range chunks {
			if corpus.Visible(chunks[i].ACL, groups) {
				visible++
			}
		}
		v := ix.Visible(groups)
		if v.Len() != visible {
			t.Errorf("groups %v: %d visible chunks, want %d (a partial count)", groups, v.Len(), visible)
		}
		if all := v.(redisearch.Vocabulary).All(); all != (visible == n) {
			t.Errorf("groups %v: All() = %v with %d of %d chunks visible", groups, all, visible, n)
		}
		for _, term := range []string{"kettle", "water", "quoxil"} {
			if got := v.DocFreq(term); got != want[term] {
				t.Errorf("groups %v: DocFreq(%s) = %d, want %d", groups, term, got, want[term])
			}
		}
	}

	// Under ON_TIMEOUT FAIL the server's cut is an error; assay's queries
	// still answer in full, and the server's error is a timeout.
	if err := rdb.Do(ctx, "FT.CONFIG", "SET", "ON_TIMEOUT", "FAIL").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Do(context.Background(), "FT.CONFIG", "SET", "ON_TIMEOUT", "RETURN") })
	groups := restricted[1]
	if hits, err := ix.SearchText(ctx, queries[0], backend.Filter{Groups: groups}, 10); err != nil {
		t.Errorf("ON_TIMEOUT FAIL: %v", err)
	} else if got, key := ids(hits), fmt.Sprint(groups, queries[0]); !slices.Equal(got, wantHits[key]) {
		t.Errorf("ON_TIMEOUT FAIL: hits %v, want %v", got, wantHits[key])
	}
	for range 5 {
		err := rdb.Do(ctx, "FT.SEARCH", vn, q, "NOCONTENT", "LIMIT", 0, 0, "DIALECT", 2).Err()
		if err == nil {
			continue
		}
		if typed := ix.RedisErr("test", err); !errs.Is(errs.Timeout, typed) {
			t.Errorf("the server's %q is %v, want a timeout", err, typed)
		}
		return
	}
	t.Error("ON_TIMEOUT FAIL: no count passed the 1 ms TIMEOUT in 5 tries")
}
