package bleveindex

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/vectors"
)

// generatedChunks are n chunks of random words, every other one public,
// one in 32 also visible to "team".
func generatedChunks(n int) []corpus.Chunk {
	rng := rand.New(rand.NewPCG(91, 92))
	docs := make([]corpus.Document, n)
	for i := range docs {
		words := make([]string, 12)
		for j := range words {
			words[j] = fmt.Sprintf("w%d", rng.IntN(400))
		}
		acl := []string{"staff"}
		if i%2 == 0 {
			acl = []string{"public"}
		}
		if i%32 == 1 {
			acl = append(acl, "team")
		}
		docs[i] = corpus.Document{ID: fmt.Sprintf("d%05d", i), Title: "t", Text: strings.Join(words, " "), ACL: acl, Authority: 1, Status: corpus.Current}
	}
	return wholeChunks(docs)
}

// subsetIndex opens an index of 3,000 generated chunks and embeds the
// queries with its embedder.
func subsetIndex(t *testing.T, queries ...string) (*Index, [][]float32) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ix")
	e := newCounting(t)
	build(t, dir, generatedChunks(3000), e)
	vecs, err := e.Embed(context.Background(), queries)
	if err != nil {
		t.Fatal(err)
	}
	return open(t, dir), vecs
}

// TestVectorSubsetSameHits: a caller's second search copies the codes of
// its visible set and later searches scan the copy; every search returns
// what the scan of the mapped codes through the visible bitmap returns.
// A set below subsetMinShare of the index and full access are never
// copied, and a filtered search scans in place.
func TestVectorSubsetSameHits(t *testing.T) {
	ix, queries := subsetIndex(t, "w1 w2 w3", "w17 w300", "w99 w5 w250 w8")
	callers := []backend.Filter{
		{Groups: []string{"public"}},
		{Groups: []string{"public", "staff"}},
		{Groups: []string{"public"}, Statuses: []corpus.Status{corpus.Current}},
	}
	for round := 1; round <= 3; round++ {
		for _, f := range callers {
			for qi, q := range queries {
				got, st, err := ix.SearchVector(context.Background(), q, f, 5)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(st.Method, "bit codes") {
					t.Fatalf("%v: method %q, want the 1-bit scan (the test needs more chunks)", f.Groups, st.Method)
				}
				raw, err := ix.vecs.Search(context.Background(), q, ix.candidates(f), 5, vectors.Bit, vectors.DefaultOverfetch(5))
				if err != nil {
					t.Fatal(err)
				}
				want := make([]backend.Hit, len(raw))
				for i, h := range raw {
					want[i] = backend.Hit{ChunkID: ix.store.id(int(h.Ordinal)), Score: float64(h.Score)}
				}
				if !slices.Equal(got, want) || len(got) != 5 {
					t.Fatalf("round %d %+v query %d: %v, the scan in place %v", round, f, qi, got, want)
				}
			}
		}
	}
	copied := map[string]bool{}
	for docs, e := range ix.codes.entries {
		if e.sub != nil {
			copied[fmt.Sprint(docs.GetCardinality())] = true
		}
	}
	public := fmt.Sprint(ix.post.Visible([]string{"public"}).Len())
	if len(copied) != 1 || !copied[public] {
		t.Errorf("copied sets of sizes %v, want only public's (%s chunks)", copied, public)
	}
	// 1,500 public chunks' copy, in rows or byte-sliced blocks as this CPU's
	// subset layout goes (vectors.Subset)
	if want := ix.vecs.SubsetBytes(1500); ix.codes.bytes != want || want < 1500*(4+8*2) {
		t.Errorf("copies hold %d bytes, want %d", ix.codes.bytes, want)
	}
	team := ix.post.Visible([]string{"team"}).Docs()
	for range 3 {
		if sub := ix.codes.get(ix.vecs, team, ix.Len()); sub != nil || ix.codes.entries[team] != nil {
			t.Fatalf("a set of %d of %d chunks was copied or counted", team.GetCardinality(), ix.Len())
		}
	}
}

// TestVectorSubsetBudget: copies beyond the budget evict the least
// recently used one, and the searches keep their hits.
func TestVectorSubsetBudget(t *testing.T) {
	ix, q := subsetIndex(t, "w1 w2 w3")
	ix.codes.budget = ix.vecs.SubsetBytes(1500) // one copy
	search := func(group string) []backend.Hit {
		hits, _, err := ix.SearchVector(context.Background(), q[0], backend.Filter{Groups: []string{group}}, 5)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	copied := func(group string) bool {
		e := ix.codes.entries[ix.post.Visible([]string{group}).Docs()]
		return e != nil && e.sub != nil
	}
	first := search("public")
	search("public")
	if !copied("public") {
		t.Fatal("public's codes were not copied at its second search")
	}
	// staff, searched as often as public, does not take its place: sets
	// searched in turn would copy at every search.
	search("staff")
	search("staff")
	if !copied("public") || copied("staff") || ix.codes.made != 1 {
		t.Errorf("after staff's second search: public copied %v, staff %v, %d copies made", copied("public"), copied("staff"), ix.codes.made)
	}
	for range 10 {
		search("public")
		search("staff")
	}
	if made := ix.codes.made; made > 2 {
		t.Errorf("public and staff searched in turn 10 times: %d copies made, want at most 2", made)
	}
	// Searched more often than public, staff takes its place.
	for range 30 {
		search("staff")
	}
	if copied("public") || !copied("staff") || ix.codes.bytes != ix.codes.budget {
		t.Errorf("after staff's searches: public copied %v, staff %v, %d bytes", copied("public"), copied("staff"), ix.codes.bytes)
	}
	if got := search("public"); !slices.Equal(got, first) {
		t.Errorf("public after eviction: %v, before %v", got, first)
	}
}

// A set whose copy alone passes the budget is never copied, however often
// it is searched; a closed index copies nothing.
func TestVectorSubsetTooBig(t *testing.T) {
	ix, q := subsetIndex(t, "w1 w2 w3")
	ix.codes.budget = 100
	for range 5 {
		if _, _, err := ix.SearchVector(context.Background(), q[0], backend.Filter{Groups: []string{"public"}}, 5); err != nil {
			t.Fatal(err)
		}
	}
	if ix.codes.made != 0 || ix.codes.bytes != 0 {
		t.Errorf("a set too big for the budget: %d copies made, %d bytes held", ix.codes.made, ix.codes.bytes)
	}
	ix.codes.budget = 0
	delete(ix.codes.entries, ix.post.Visible([]string{"public"}).Docs())
	ix.codes.close()
	if sub := ix.codes.get(ix.vecs, ix.post.Visible([]string{"public"}).Docs(), ix.Len()); sub != nil || ix.codes.made != 0 {
		t.Errorf("after close: a copy (%v), %d made", sub != nil, ix.codes.made)
	}
}

// TestChunkMeta: the metadata table built at Open says what the chunks
// say (status, authority) and visibility is the ACL's, for every Hollin
// chunk and principal; an unknown id is not found.
func TestChunkMeta(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, newCounting(t))
	ix := open(t, dir)
	if ix.meta == nil {
		t.Fatal("no metadata table at Open")
	}
	ids := make([]string, len(chunks))
	for i := range chunks {
		ids[i] = chunks[i].ID
	}
	for _, groups := range [][]string{{"public"}, {"staff"}, {"partner:brook-street", "finance"}, {"nobody"}, nil} {
		metas, err := ix.ChunkMeta(context.Background(), ids, groups)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range metas {
			c := chunks[i]
			if m.Status != c.Status || m.Authority != c.Authority || m.Visible != (len(groups) > 0 && c.VisibleTo(groups)) {
				t.Errorf("%s as %v: %+v, the chunk says status %s authority %g acl %v", c.ID, groups, m, c.Status, c.Authority, c.ACL)
			}
		}
	}
	if _, err := ix.ChunkMeta(context.Background(), []string{"no-such-chunk"}, []string{"public"}); !errs.Is(errs.NotFound, err) {
		t.Errorf("unknown id: %v", err)
	}
}
