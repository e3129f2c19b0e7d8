package redisearch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestSortableContentChangesNoAnswer: a new index's content field is
// SORTABLE UNF (the BM25 leg's candidates' read takes the field from
// RediSearch's document table rather than each chunk's HASH;
// docs/log/round-24-r24-redis.md), its manifest says so, and the BM25
// leg answers as from an index built without it, ids and scores, for
// callers of every group, of one and of several, with and without a
// filter, on the Hollin corpus (escaped codes such as HL-X300-UK) and on
// a generated one with overlapping ACLs. An index built without it is
// still read (content_sortable absent).
func TestSortableContentChangesNoAnswer(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	hollin, _ := hollinChunks(t)
	for ci, chunks := range [][]corpus.Chunk{hollin, matchedCorpus(5, 300)} {
		queries, groups := queriesAndGroups(chunks)
		views := [][]string{groups, {"public"}, {"public", groups[0]}}
		var ixs [2]*redisearch.Index
		for i, on := range []bool{false, true} {
			old := redisearch.SetContentSortable(on)
			oldMeta := redisearch.SetMetaSortable(false) // the meta field is SORTABLE UNF too
			name := redistest.Name(fmt.Sprintf("sort%d%d", ci, i))
			ixs[i] = buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{})
			redisearch.SetContentSortable(old)
			redisearch.SetMetaSortable(oldMeta)
			if got := ixs[i].RedisManifest().ContentSortable; got != on {
				t.Errorf("corpus %d: manifest content_sortable %v, want %v", ci, got, on)
			}
			info, err := rdb.Do(ctx, "FT.INFO", name).Result()
			if err != nil {
				t.Fatal(err)
			}
			s := fmt.Sprint(info)
			if has := strings.Contains(s, "SORTABLE") && strings.Contains(s, "UNF"); has != on {
				t.Errorf("corpus %d: FT.INFO %s: SORTABLE UNF present %v, want %v (%.400s)", ci, name, has, on, s)
			}
		}
		if !buildOpen(t, rdb, redistest.Name(fmt.Sprintf("sortdef%d", ci)), chunks[:10], redisearch.BuildOptions{}).RedisManifest().ContentSortable {
			t.Errorf("corpus %d: a default build's content field is not SORTABLE", ci)
		}
		compared := 0
		for _, view := range views {
			for _, f := range []backend.Filter{{Groups: view}, {Groups: view, Statuses: []corpus.Status{corpus.Current}}} {
				for _, q := range queries {
					var text [2][]backend.Hit
					for i, ix := range ixs {
						var err error
						if text[i], err = ix.SearchText(ctx, q, f, 20); err != nil {
							t.Fatal(err)
						}
					}
					if fmt.Sprint(text[0]) != fmt.Sprint(text[1]) {
						t.Errorf("corpus %d, groups %v, filter %v, query %q: BM25 leg without SORTABLE %v, with %v", ci, view, f.Statuses, q, text[0], text[1])
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
