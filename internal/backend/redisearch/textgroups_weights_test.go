package redisearch

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestTextGroupWeights: in a text group's index the BM25 leg's $weights
// are the visible idf's (groupWeights), not the version's (which divide
// out the whole index's idf): at a shallow depth they decide which chunks
// are candidates. "xray" is in 20 of public's 200 chunks and in 190 of
// other's, "yank" in 10 of public's alone: a public caller's visible idf
// weighs yank above xray, the whole index's the reverse (by the version's
// weights, BM25STD would rank xray's 20 chunks, all tied, first in the
// group's index, and the depth of 17 would leave yank's 10 out). The
// group's index is asked and its best hit is yank's, as the version's.
func TestTextGroupWeights(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	var chunks []corpus.Chunk
	add := func(id, text string, acl ...string) {
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: text, Type: "manual", Status: corpus.Current, Authority: 1, ACL: acl})
	}
	for i := range 200 {
		text := "fill fill fill fill fill"
		switch {
		case i < 10:
			text = "yank fill fill fill fill"
		case i < 30:
			text = "xray fill fill fill fill"
		}
		add(fmt.Sprintf("p%03d", i), text, "public")
		text = "fill fill fill fill fill"
		if i < 190 {
			text = "xray fill fill fill fill"
		}
		add(fmt.Sprintf("o%03d", i), text, "other")
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("tgweights")
	if _, _, err := Build(ctx, rdb, name, chunks, BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := backend.Filter{Groups: []string{"public"}}
	s, err := ix.set(ctx, f.Groups)
	if err != nil {
		t.Fatal(err)
	}
	gi := ix.textIndex(s, f)
	if gi == "" {
		t.Fatalf("public has no text group index (text groups %q)", ix.m.TextGroups)
	}
	defer func(n int) { overFetch = n }(swap(&overFetch, 0))
	defer func(r rareRule) { ix.rare = r }(swap(&ix.rare, rareRule{}))
	defer func() { groupSearch = true }()
	var hits [2][]backend.Hit
	for j, group := range []bool{false, true} {
		groupSearch = group
		ix.cache = newChunkCache(-1)
		before := indexUses(t, rdb, gi)
		if hits[j], err = ix.SearchText(ctx, "xray yank", f, 1); err != nil {
			t.Fatal(err)
		}
		if asked := indexUses(t, rdb, gi) - before - 1; (asked > 0) != group {
			t.Fatalf("group search %v: %s asked %d times", group, gi, asked)
		}
	}
	if len(hits[1]) != 1 || !strings.HasPrefix(hits[1][0].ChunkID, "p00") || !slices.Equal(hits[1], hits[0]) {
		t.Errorf("best hit %v in the group's index, %v in the version's; want one of yank's (p000-p009)", hits[1], hits[0])
	}
}

// TestTextGroupSmallFlat: with "hnsw+small-flat" a small group has an
// index of its own with its vectors alone (a vector group, not a text
// group): its caller's BM25 leg, Holdings and Together ask the version's
// index, and answer as without group search.
func TestTextGroupSmallFlat(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	words := strings.Fields("pump valve seal gasket bearing rotor stator coil relay fuse")
	var chunks []corpus.Chunk
	for i := range 240 {
		acl := []string{"public"}
		switch {
		case i%12 == 0:
			acl = []string{"team-a"}
		case i%2 == 0:
			acl = []string{"staff"}
		}
		text := words[i%len(words)] + " " + words[(i/3)%len(words)] + " " + words[(i/7)%len(words)]
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("d%03d#0", i), DocID: fmt.Sprintf("d%03d", i), Title: "t", Text: text, Type: "manual", Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("tgsmall")
	if _, _, err := Build(ctx, rdb, name, chunks, BuildOptions{Embedder: emb, Vector: strings.ToLower(HNSW + SmallGroupScans)}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ix.m.VectorGroups, "team-a") || slices.Contains(ix.m.TextGroups, "team-a") || len(ix.m.TextGroups) == 0 {
		t.Fatalf("vector groups %q, text groups %q: want team-a a vector group only", ix.m.VectorGroups, ix.m.TextGroups)
	}
	defer func() { groupSearch = true }()
	f := backend.Filter{Groups: []string{"team-a"}}
	var hits [2][]backend.Hit
	var held [2]map[uint64]int
	var together [2]bool
	for j, group := range []bool{false, true} {
		groupSearch = group
		ix.cache = newChunkCache(-1)
		ix.stats = newStatsCache()
		if hits[j], err = ix.SearchText(ctx, "pump valve", f, 5); err != nil {
			t.Fatalf("group search %v: %v", group, err)
		}
		v := ix.Visible(f.Groups).(Vocabulary)
		if held[j], err = v.Holdings(ctx, []string{"pump", "valve"}, &f); err != nil {
			t.Fatalf("group search %v: %v", group, err)
		}
		if together[j], err = v.Together(ctx, []string{"pump"}, []string{"valve", "seal"}, &f); err != nil {
			t.Fatalf("group search %v: %v", group, err)
		}
	}
	if len(hits[0]) == 0 || !slices.Equal(hits[0], hits[1]) || !maps.Equal(held[0], held[1]) || together[0] != together[1] {
		t.Errorf("team-a: hits %v, holdings %v, together %v with group search; %v, %v, %v without", hits[1], held[1], together[1], hits[0], held[0], together[0])
	}
}

// TestTextGroupOldIndex: an index built before text groups (a manifest
// without text_groups, its group indexes with the vector field alone,
// here textGroups off) is searched as before by a reader with them: the
// one-group caller's BM25 leg asks the version's index and finds what it
// found, never the group's index, which holds no content.
func TestTextGroupOldIndex(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	words := strings.Fields("pump valve seal gasket bearing rotor stator coil relay fuse")
	var chunks []corpus.Chunk
	for i := range 160 {
		acl := []string{"public"}
		if i%2 == 0 {
			acl = []string{"staff"}
		}
		text := words[i%len(words)] + " " + words[(i/3)%len(words)] + " " + words[(i/7)%len(words)]
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("d%03d#0", i), DocID: fmt.Sprintf("d%03d", i), Title: "t", Text: text, Type: "manual", Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("tgold")
	old := swap(&textGroups, false)
	_, _, err := Build(ctx, rdb, name, chunks, BuildOptions{Embedder: emb})
	textGroups = old
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.Index(ix.m.VectorGroups, "public")
	if i < 0 || len(ix.m.TextGroups) != 0 {
		t.Fatalf("vector groups %q, text groups %q: want public's graph and no text group", ix.m.VectorGroups, ix.m.TextGroups)
	}
	gi := vectorGroupIndex(ix.vn, i)
	defer func() { groupSearch = true }()
	f := backend.Filter{Groups: []string{"public"}}
	var hits [2][]backend.Hit
	for j, group := range []bool{false, true} {
		groupSearch = group
		ix.cache = newChunkCache(-1)
		before, main := indexUses(t, rdb, gi), indexUses(t, rdb, ix.vn)
		if hits[j], err = ix.SearchText(ctx, "pump valve", f, 5); err != nil {
			t.Fatal(err)
		}
		if indexUses(t, rdb, gi)-before-1 != 0 || indexUses(t, rdb, ix.vn)-main-1 == 0 {
			t.Errorf("group search %v: the group's index asked, or the version's not", group)
		}
	}
	if len(hits[0]) == 0 || !slices.Equal(hits[0], hits[1]) {
		t.Errorf("public: %v with group search, %v without", hits[1], hits[0])
	}
}
