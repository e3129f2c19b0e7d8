package bleveindex

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/vectors"
)

// lowIVFThresholds lets a small test index have (and use) an inverted
// file.
func lowIVFThresholds(t *testing.T) {
	minChunks, minVisible := ivfMinChunks, ivfMinVisible
	ivfMinChunks, ivfMinVisible = 50, 1
	t.Cleanup(func() { ivfMinChunks, ivfMinVisible = minChunks, minVisible })
}

// The vector leg through the inverted file returns only chunks the caller
// may see, however few it sees, and probing every list is the exact leg.
func TestVectorSearchThroughTheInvertedFile(t *testing.T) {
	lowIVFThresholds(t)
	rng := rand.New(rand.NewPCG(31, 32))
	words := strings.Fields("warranty refund battery screen charger repair invoice account password login shipping " +
		"delivery order return policy manual firmware update reset printer scanner network cable router modem fee")
	// Over 1,000 chunks for each caller: below k×overfetch (at least
	// 1,000 candidates) the leg scores every visible chunk exactly.
	groups := []string{"public", "staff", "team-a"}
	docs := make([]corpus.Document, 4000)
	acl := map[string][]string{}
	for i := range docs {
		var text []string
		for range 12 + rng.IntN(20) {
			text = append(text, words[rng.IntN(len(words))])
		}
		g := []string{groups[rng.IntN(len(groups))]}
		if rng.IntN(4) == 0 {
			g = append(g, groups[rng.IntN(len(groups))])
		}
		id := fmt.Sprintf("d%03d", i)
		docs[i] = corpus.Document{ID: id, Title: words[rng.IntN(len(words))], Text: strings.Join(text, " "),
			Status: corpus.Current, Authority: 1, ACL: g}
		acl[id+"#0"] = g
	}
	e, err := embed.NewHashed(64)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, wholeChunks(docs), e)
	ix := open(t, dir)
	lists := ix.VectorLists()
	if want := vectors.IVFLists(len(docs)); lists != want {
		t.Fatalf("the index has %d lists, want %d", lists, want)
	}
	ctx := context.Background()
	for _, caller := range [][]string{{"team-a"}, {"public", "staff"}, groups} {
		if n := ix.post.Visible(caller).Len(); n <= 1000 {
			t.Fatalf("%v sees %d chunks: too few to probe the lists", caller, n)
		}
		f := backend.Filter{Groups: caller}
		for qi := range 20 {
			q := words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
			vec, err := e.Embed(ctx, []string{q})
			if err != nil {
				t.Fatal(err)
			}
			search := func(probes int) ([]backend.Hit, backend.VectorStats) {
				ix.SetVectorProbes(probes)
				defer ix.SetVectorProbes(0)
				hits, st, err := ix.SearchVector(ctx, vec[0], f, 5)
				if err != nil {
					t.Fatal(err)
				}
				return hits, st
			}
			got, st := search(0)
			if !strings.Contains(st.Method, "lists") {
				t.Fatalf("%v: method %q, want the inverted file", caller, st.Method)
			}
			for _, h := range got {
				if !slices.ContainsFunc(acl[h.ChunkID], func(g string) bool { return slices.Contains(caller, g) }) {
					t.Fatalf("%v, query %d: returned %s (acl %v), which it may not see", caller, qi, h.ChunkID, acl[h.ChunkID])
				}
			}
			if want := min(5, st.Allowed); len(got) != want {
				t.Fatalf("%v: %d hits, want %d", caller, len(got), want)
			}
			exact, _ := search(-1)
			if every, _ := search(lists); !slices.Equal(every, exact) {
				t.Fatalf("%v, query %d: every list probed %v, the exact leg %v", caller, qi, every, exact)
			}
		}
	}
	// An index that should have an inverted file and has none is refused.
	ix.Close()
	if err := os.Remove(filepath.Join(dir, "vectors.ivf")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "inverted file") {
		t.Fatalf("Open without vectors.ivf: %v, want an error naming the inverted file", err)
	}
}
