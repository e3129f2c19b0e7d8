package redisearch_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestVectorLegFormsKeepResultsVisible: each form of the vector leg's
// query (no ACL clause for a caller who sees every chunk, the graph
// walked in batches for a large share, the engine's choice for a small
// one) returns only chunks the caller may see, and on a corpus small
// enough for the graph walk to be exact, the exact nearest visible
// chunks.
func TestVectorLegFormsKeepResultsVisible(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 7))
	words := strings.Fields("pump valve seal gasket bearing rotor stator coil relay fuse panel cable sensor probe gauge meter filter nozzle hose clamp bracket hinge latch spring lever gear shaft belt pulley motor")
	acls := [][]string{{"public"}, {"public"}, {"public"}, {"public", "team-a"}, {"staff"}, {"staff"}, {"team-a"}, {"team-b"}, {"staff", "team-b"}, {"public"}}
	var chunks []corpus.Chunk
	for i := range 600 {
		var b strings.Builder
		for range 8 + r.IntN(12) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		acl := acls[r.IntN(len(acls))]
		id := fmt.Sprintf("d%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: b.String(), Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	ix := buildOpen(t, rdb, redistest.Name("knnforms"), chunks, redisearch.BuildOptions{Embedder: emb})
	texts := make([]string, len(chunks))
	for i := range chunks {
		texts[i] = backend.EmbedText(&chunks[i])
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	for range 20 {
		queries = append(queries, words[r.IntN(len(words))]+" "+words[r.IntN(len(words))]+" "+words[r.IntN(len(words))])
	}
	qvecs, err := emb.Embed(ctx, queries)
	if err != nil {
		t.Fatal(err)
	}
	callers := map[string][]string{
		"every group": {"public", "staff", "team-a", "team-b"}, // no ACL clause
		"public":      {"public"},                              // about half: batches
		"team-b":      {"team-b"},                              // a few: the engine's choice
	}
	const k = 10
	for name, groups := range callers {
		var visible []int
		for i := range chunks {
			if corpus.Visible(chunks[i].ACL, groups) {
				visible = append(visible, i)
			}
		}
		found, want := 0, 0
		for qi, q := range qvecs {
			hits, _, err := ix.SearchVector(ctx, q, backend.Filter{Groups: groups}, k)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			byID := map[string]bool{}
			for _, h := range hits {
				byID[h.ChunkID] = true
				i := slices.IndexFunc(chunks, func(c corpus.Chunk) bool { return c.ID == h.ChunkID })
				if i < 0 || !corpus.Visible(chunks[i].ACL, groups) {
					t.Fatalf("%s, query %q: hit %s is not visible to %v", name, queries[qi], h.ChunkID, groups)
				}
			}
			exact := slices.Clone(visible)
			score := func(i int) float64 {
				var s float64
				for d := range q {
					s += float64(q[d]) * float64(vecs[i][d])
				}
				return s
			}
			sort.SliceStable(exact, func(a, b int) bool { return score(exact[a]) > score(exact[b]) })
			exact = exact[:min(k, len(exact))]
			// The k-th best may tie with the next: count the exact top k's
			// scores, not ids, past the first k-1.
			for _, i := range exact {
				want++
				if byID[chunks[i].ID] {
					found++
				}
			}
			if len(hits) != len(exact) {
				t.Errorf("%s, query %q: %d hits, want %d", name, queries[qi], len(hits), len(exact))
			}
		}
		if recall := float64(found) / float64(want); recall < 0.95 {
			t.Errorf("%s: recall@%d %.3f of the exact nearest visible chunks, want ≥ 0.95 on %d chunks", name, k, recall, len(chunks))
		}
	}
}
