package redisearch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestSmallGroupScans: a build with BuildOptions.Vector "hnsw+small-flat"
// gives every group below the vector groups' share a FLAT index of its
// chunks' vectors, a team's caller (alone or with public) asks those
// indexes and not the whole index, its hits are the exact nearest chunks
// it may see, and a group no FILTER can name still asks the whole index.
func TestSmallGroupScans(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	words := strings.Fields("pump valve seal gasket bearing rotor stator coil relay fuse panel cable sensor probe gauge meter filter nozzle hose clamp")
	var chunks []corpus.Chunk
	for i := range 400 {
		acl := []string{"public"}
		switch {
		case i%20 == 0:
			acl = []string{"team-a"}
		case i%20 == 1:
			acl = []string{"team-b", "team-a"}
		case i%20 == 2:
			acl = []string{"team-b"}
		case i%20 == 3:
			acl = []string{`odd "x"`}
		case i%4 == 1:
			acl = []string{"staff"}
		}
		var b strings.Builder
		for j := range 6 + i%7 {
			b.WriteString(words[(i*7+j*j*3+i/5)%len(words)] + " ")
		}
		id := fmt.Sprintf("d%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: b.String(), Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("smallflat")
	if _, _, err := Build(ctx, rdb, name, chunks, BuildOptions{Embedder: emb, Vector: "hnsw+small-flat"}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ix.m.VectorGroups, []string{"public", "staff", "team-a", "team-b"}; !slices.Equal(got, want) {
		t.Fatalf("vector groups %q, want %q", got, want)
	}
	for _, g := range []string{"team-a", "team-b"} {
		if !slices.Contains(ix.m.VectorGroupsFlat, g) {
			t.Errorf("group %s has no FLAT index (FLAT groups %q)", g, ix.m.VectorGroupsFlat)
		}
	}
	index := func(g string) string { return vectorGroupIndex(ix.vn, slices.Index(ix.m.VectorGroups, g)) }
	texts := make([]string, len(chunks))
	for i := range chunks {
		texts[i] = backend.EmbedText(&chunks[i])
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	qvecs, err := emb.Embed(ctx, []string{"pump valve seal", "relay fuse cable", "sensor probe gauge"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		groups []string
		asked  []string // the indexes the leg asks
	}{
		{[]string{"team-a"}, []string{index("team-a")}},
		{[]string{"team-b", "public"}, []string{index("public"), index("team-b")}},
		{[]string{"team-a", `odd "x"`}, []string{ix.vn}}, // a group without an index: the whole index
	} {
		if _, err := ix.set(ctx, c.groups); err != nil {
			t.Fatal(err)
		}
		all := append([]string{ix.vn}, ix.m.VectorGroups...)
		for i, g := range all[1:] {
			all[i+1] = index(g)
		}
		for _, q := range qvecs {
			before := map[string]int{}
			for _, n := range all {
				before[n] = indexUses(t, rdb, n)
			}
			const k = 8
			hits, _, err := ix.SearchVector(ctx, q, backend.Filter{Groups: c.groups}, k)
			if err != nil {
				t.Fatalf("%v: %v", c.groups, err)
			}
			for n, u := range before {
				asked := indexUses(t, rdb, n) - u - 1 // FT.INFO counts as a use
				if want := slices.Contains(c.asked, n); (asked > 0) != want {
					t.Errorf("%v: %s asked %d times, want asked: %v", c.groups, n, asked, want)
				}
			}
			checkExactHits(t, c.groups, q, hits, chunks, vecs, k)
		}
	}
}
