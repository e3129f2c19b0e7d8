package redisearch_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// TestIndexOptionsChangeNoAnswer: a new index is created NOOFFSETS and
// NOFIELDS (less indexing work a chunk, a smaller inverted index;
// docs/log/round-22-r22-build.md), and answers every question as an
// index with term offsets and field masks does: the BM25 leg's top 20
// (ids and scores), the vector leg's top 10 and Holdings' sets, for
// callers of one group, of several and of every group, with and without
// a filter, on the Hollin corpus and on a generated one with overlapping
// ACLs.
func TestIndexOptionsChangeNoAnswer(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	hollin, _ := hollinChunks(t)
	an := terms.New()
	for ci, chunks := range [][]corpus.Chunk{hollin, matchedCorpus(5, 300)} {
		queries, groups := queriesAndGroups(chunks)
		views := [][]string{groups, {"public"}, {groups[len(groups)-1]}, {"public", groups[0]}}
		var ixs [2]*redisearch.Index
		for i, off := range []bool{true, false} {
			oo, of := redisearch.SetIndexOptions(off, off)
			name := redistest.Name(fmt.Sprintf("opts%d%d", ci, i))
			ixs[i] = buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb})
			redisearch.SetIndexOptions(oo, of)
			info, err := rdb.Do(ctx, "FT.INFO", name).Result()
			if err != nil {
				t.Fatal(err)
			}
			s := fmt.Sprint(info)
			if has := strings.Contains(s, "NOOFFSETS") && strings.Contains(s, "NOFIELDS"); has != off {
				t.Errorf("corpus %d: FT.INFO %s index_options: NOOFFSETS and NOFIELDS present %v, want %v (%.300s)", ci, name, has, off, s)
			}
		}
		// Built with the package's defaults: the options are on.
		name := redistest.Name(fmt.Sprintf("optsdef%d", ci))
		buildOpen(t, rdb, name, chunks[:10], redisearch.BuildOptions{})
		if info, _ := rdb.Do(ctx, "FT.INFO", name).Result(); !strings.Contains(fmt.Sprint(info), "NOOFFSETS") || !strings.Contains(fmt.Sprint(info), "NOFIELDS") {
			t.Errorf("corpus %d: a default build's FT.INFO lacks NOOFFSETS or NOFIELDS", ci)
		}
		qvecs, err := emb.Embed(ctx, queries)
		if err != nil {
			t.Fatal(err)
		}
		compared := 0
		for _, view := range views {
			for _, f := range []backend.Filter{{Groups: view}, {Groups: view, Statuses: []corpus.Status{corpus.Current}}} {
				for qi, q := range queries {
					var text [2][]backend.Hit
					var vec [2][]backend.Hit
					var held [2]map[uint64]int
					ts := an.Terms(q)
					for i, ix := range ixs {
						if text[i], err = ix.SearchText(ctx, q, f, 20); err != nil {
							t.Fatal(err)
						}
						if vec[i], _, err = ix.SearchVector(ctx, qvecs[qi], f, 10); err != nil {
							t.Fatal(err)
						}
						if held[i], err = ix.Visible(view).Holdings(ctx, ts, &f); err != nil {
							t.Fatal(err)
						}
					}
					at := fmt.Sprintf("corpus %d, groups %v, filter %v, query %q", ci, view, f.Statuses, q)
					if fmt.Sprint(text[0]) != fmt.Sprint(text[1]) {
						t.Errorf("%s: BM25 leg without offsets %v, with %v", at, text[0], text[1])
					}
					if fmt.Sprint(ids(vec[0])) != fmt.Sprint(ids(vec[1])) {
						t.Errorf("%s: vector leg without offsets %v, with %v", at, ids(vec[0]), ids(vec[1]))
					}
					if fmt.Sprint(sortedPairs(held[0])) != fmt.Sprint(sortedPairs(held[1])) {
						t.Errorf("%s: Holdings without offsets %v, with %v", at, held[0], held[1])
					}
					if len(text[0]) > 0 {
						compared++
					}
				}
			}
		}
		if compared < 20 {
			t.Errorf("corpus %d: only %d queries had BM25 hits to compare (the test tests little)", ci, compared)
		}
		t.Logf("corpus %d: %d chunks, %d queries × %d callers × 2 filters, %d with hits", ci, len(chunks), len(queries), len(views), compared)
	}
}

// queriesAndGroups are queries made of the first eight words of every
// third chunk, and the groups of the chunks' ACLs, sorted.
func queriesAndGroups(chunks []corpus.Chunk) (queries, groups []string) {
	groupSet := map[string]bool{}
	for i, c := range chunks {
		for _, g := range c.ACL {
			groupSet[g] = true
		}
		if i%3 == 0 {
			ws := strings.Fields(c.Title + " " + c.Text)
			queries = append(queries, strings.Join(ws[:min(8, len(ws))], " "))
		}
	}
	for g := range groupSet {
		groups = append(groups, g)
	}
	slices.Sort(groups)
	return queries, groups
}
