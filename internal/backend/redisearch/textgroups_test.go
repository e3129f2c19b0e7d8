package redisearch

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestTextGroupSearch: a build gives each vector group that has its graph
// for its share (not every chunk's group) the content field too
// (Manifest.TextGroups); a caller who sees one such group alone, with no
// other condition, runs the BM25 leg in that group's index and never in
// the version's, anyone else in the version's; the hits, scores
// included, are those of the version's index with its ACL clause, for a
// short query and for a long one the rare-term rule splits, deep enough
// that both read every match. Holdings and Together ask the same index
// and answer the same.
func TestTextGroupSearch(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(39, 20))
	words := partWords
	acls := [][]string{{"public"}, {"public"}, {"public"}, {"public", "staff"}, {"staff"}, {"staff", "public"}, {"other"}, {"other", "public"}, {"public"}, {"staff"}, {"other"}, {"public"}}
	var chunks []corpus.Chunk
	for i := range 480 {
		var b strings.Builder
		// The first words are rarer: a long query's last terms are common.
		for range 8 + r.IntN(12) {
			b.WriteString(words[min(r.IntN(len(words)), r.IntN(len(words)))] + " ")
		}
		acl := acls[r.IntN(len(acls))]
		if i%20 == 0 {
			acl = []string{"team-a"}
		}
		id := fmt.Sprintf("d%03d", i)
		typ := "manual"
		if i%2 == 0 {
			typ = "ticket"
		}
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: b.String(), Type: typ, Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("tgroups")
	if _, _, err := Build(ctx, rdb, name, chunks, BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ix.m.TextGroups, []string{"other", "public", "staff"}; !slices.Equal(got, want) {
		t.Fatalf("text groups %q, want %q (vector groups %q)", got, want, ix.m.VectorGroups)
	}
	for i, g := range ix.m.VectorGroups {
		n := 0
		for _, c := range chunks {
			if slices.Contains(c.ACL, g) {
				n++
			}
		}
		if info, err := rdb.FTInfo(ctx, vectorGroupIndex(ix.vn, i)).Result(); err != nil || info.NumDocs != n {
			t.Fatalf("group %s's index: %d chunks (%v), want %d", g, info.NumDocs, err, n)
		}
	}
	// Deep enough that every form reads every match: the same
	// candidates, so the same exact re-scoring.
	defer func(n int) { overFetch = n }(swap(&overFetch, 100))
	defer func() { groupSearch = true }()
	defer func(r rareRule) { ix.rare = r }(ix.rare)
	ix.rare = rareRule{On: true, DFShare: 0.01, MassShare: 0.6, MinTerms: 4, Deeper: 1}
	pub := vectorGroupIndex(ix.vn, slices.Index(ix.m.VectorGroups, "public"))
	indexes := append([]string{ix.vn}, pub)
	queries := []string{"hinge latch", "pulley motor belt shaft hinge pump", "motor"}
	s, err := ix.set(ctx, []string{"public"})
	if err != nil {
		t.Fatal(err)
	}
	if qt, _, err := ix.weigh(ctx, ix.an.Terms(queries[1]), []string{"public"}); err != nil || ix.rare.split(qt.vdf, qt.mass, s.n) == nil {
		t.Fatalf("the rule does not split %q (%v)", queries[1], err)
	}
	for _, c := range []struct {
		f     backend.Filter
		index string // the index the leg asks
	}{
		{backend.Filter{Groups: []string{"public"}}, pub},
		{backend.Filter{Groups: []string{"public", "public"}}, pub},
		{backend.Filter{Groups: []string{"public", "staff"}}, ix.vn},                   // two groups
		{backend.Filter{Groups: []string{"team-a"}}, ix.vn},                            // no index of its own
		{backend.Filter{Groups: []string{"public"}, Types: []string{"manual"}}, ix.vn}, // another condition
	} {
		for _, q := range queries {
			var hits [2][]backend.Hit
			for j, group := range []bool{false, true} {
				groupSearch = group
				before := map[string]int{}
				for _, x := range indexes {
					before[x] = indexUses(t, rdb, x)
				}
				ix.cache = newChunkCache(-1) // every search reads its candidates
				if hits[j], err = ix.SearchText(ctx, q, c.f, 10); err != nil {
					t.Fatal(err)
				}
				for _, x := range indexes {
					asked := indexUses(t, rdb, x) - before[x] - 1 // FT.INFO counts as a use
					want := x == ix.vn
					if group {
						want = x == c.index
					}
					if (asked > 0) != want {
						t.Errorf("%+v %q (group search %v): %s asked %d times, want asked: %v", c.f, q, group, x, asked, want)
					}
				}
			}
			if len(hits[1]) == 0 || !slices.Equal(hits[1], hits[0]) {
				t.Errorf("%+v %q: %v with group search, %v without", c.f, q, hits[1], hits[0])
			}
		}
	}
	// Holdings (its postings read, its checks, its rare read by
	// matched_terms) and Together: the same answers from the group's
	// index, which alone is asked.
	termLists := [][]string{{"hinge", "latch"}, {"pump", "motor", "belt", "hinge"}, {"pulley", "gear", "shaft", "lever", "spring", "latch"}}
	defer func(b bool) { matchedTerms = b }(matchedTerms)
	for _, c := range []struct {
		f     backend.Filter
		index string
	}{
		{backend.Filter{Groups: []string{"public"}}, pub},
		{backend.Filter{Groups: []string{"public", "staff"}}, ix.vn},
		{backend.Filter{Groups: []string{"public"}, Types: []string{"manual"}}, ix.vn},
	} {
		for _, matched := range []bool{false, true} {
			matchedTerms = matched
			for _, ts := range termLists {
				var held [2]map[uint64]int
				var together [2]bool
				for j, group := range []bool{false, true} {
					groupSearch = group
					ix.stats = newStatsCache()
					v := ix.Visible(c.f.Groups).(Vocabulary)
					before := map[string]int{}
					for _, x := range indexes {
						before[x] = indexUses(t, rdb, x)
					}
					f := c.f
					if held[j], err = v.Holdings(ctx, ts, &f); err != nil {
						t.Fatal(err)
					}
					if together[j], err = v.Together(ctx, ts[:1], ts[1:], &f); err != nil {
						t.Fatal(err)
					}
					for _, x := range indexes {
						asked := indexUses(t, rdb, x) - before[x] - 1
						want := x == ix.vn
						if group {
							want = x == c.index
						}
						if (asked > 0) != want {
							t.Errorf("Holdings %+v %q (matched %v, group search %v): %s asked %d times, want asked: %v", c.f, ts, matched, group, x, asked, want)
						}
					}
				}
				groupSearch = true
				if !maps.Equal(held[0], held[1]) || len(held[0]) == 0 || together[0] != together[1] {
					t.Errorf("Holdings %+v %q (matched %v): %v, together %v with group search; %v, %v without", c.f, ts, matched, held[1], together[1], held[0], together[0])
				}
			}
		}
	}
}
