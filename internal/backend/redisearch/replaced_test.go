package redisearch

import (
	"context"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestBuildKeepsReplacedUntilNext: a build keeps the version it replaced
// (requests in flight on it finish there) and the next build drops it
// before writing, so Redis never holds more than two versions, not even
// during a build; the next build also drops what a builder killed mid-
// build left (its deferred drop never ran): a half-built version, with
// its chunks.
func TestBuildKeepsReplacedUntilNext(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("replaced")
	chunks := []corpus.Chunk{
		{ID: "a#0", DocID: "a", Title: "Kettles", Text: "Kettles are covered for two years.", Status: corpus.Current, ACL: []string{"public"}},
		{ID: "b#0", DocID: "b", Title: "Rates", Text: "Partner rates are 40 an hour.", Status: corpus.Current, ACL: []string{"staff"}},
	}
	m1, _, err := Build(ctx, rdb, name, chunks, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A builder killed mid-build: the version number taken, the FT index
	// created, one chunk written.
	v, err := rdb.Incr(ctx, seqKey(name)).Result()
	if err != nil {
		t.Fatal(err)
	}
	crashed := versionName(name, int(v))
	mc := m1
	mc.Version = int(v)
	if err := createIndex(ctx, rdb, crashed, mc); err != nil {
		t.Fatal(err)
	}
	if err := rdb.HSet(ctx, chunkPrefix(crashed)+"a#0", fieldContent, "kettl", fieldACL, "public").Err(); err != nil {
		t.Fatal(err)
	}
	if got := versionsOf(ctx, rdb, name); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("versions before the second build: %v, want [1 2]", got)
	}

	m3, _, err := Build(ctx, rdb, name, chunks, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := versionsOf(ctx, rdb, name); !slices.Equal(got, []int{1, m3.Version}) {
		t.Errorf("versions after the second build: %v, want [1 %d] (the replaced one kept, the crashed one dropped)", got, m3.Version)
	}
	if n, _ := rdb.Keys(ctx, crashed+"*").Result(); len(n) != 0 {
		t.Errorf("the crashed build's version left %q", n)
	}
	for _, k := range []string{manifestKey(versionName(name, 1)), chunkPrefix(versionName(name, 1)) + "a#0"} {
		if n, _ := rdb.Exists(ctx, k).Result(); n != 1 {
			t.Errorf("the replaced version's %s is gone before the next build", k)
		}
	}

	var during [][]int
	progress := func(string, int, int) { during = append(during, versionsOf(ctx, rdb, name)) }
	m4, _, err := Build(ctx, rdb, name, chunks, BuildOptions{Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if len(during) == 0 {
		t.Fatal("no progress reported")
	}
	for _, got := range during {
		if !slices.Equal(got, []int{m3.Version, m4.Version}) {
			t.Errorf("versions during the third build: %v, want [%d %d] (the served one and the one being built)", got, m3.Version, m4.Version)
		}
	}
	if got := versionsOf(ctx, rdb, name); !slices.Equal(got, []int{m3.Version, m4.Version}) {
		t.Errorf("versions after the third build: %v, want [%d %d]", got, m3.Version, m4.Version)
	}
	if n, _ := rdb.Keys(ctx, versionName(name, 1)+":*").Result(); len(n) != 0 {
		t.Errorf("version 1, replaced two builds ago, left %d keys", len(n))
	}
}
