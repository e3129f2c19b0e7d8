package live

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestLoopExpandMerged: with loop.expand and the assessor's ExpandMerge,
// the worker's search returns the plain query's hits as they are, in
// their order, and below them the chunks only the expanded query found
// (fresh f23: "lumps" → "chunk" brings the X200 blade page, which the
// plain top 5 lacks), at most ExpandMerge of them, with an expand stage
// saying so; a query Expand adds nothing to is searched once, as typed.
func TestLoopExpandMerged(t *testing.T) {
	ctx := context.Background()
	worker := hollinWordNet(t, t.TempDir(), true, true)
	defer worker.Close()
	b := worker.cur.Load().assessor.(*assess.Builtin)
	search := func(q string, merge int, expand bool) retrieval.Result {
		t.Helper()
		b.ExpandMerge, worker.cfg.Loop.Expand = merge, expand
		res, err := worker.Search(ctx, retrieval.Request{Query: q, Groups: []string{"public"}, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ids := func(res retrieval.Result) (chunks, docs []string) {
		for _, h := range res.Hits {
			chunks, docs = append(chunks, h.ChunkID), append(docs, h.DocID)
		}
		return chunks, docs
	}
	const q = "my blender leaves lumps of fruit"
	plain, plainDocs := ids(search(q, 0, false))
	if slices.Contains(plainDocs, "man-x200-blades") {
		t.Fatalf("plain top 5 %v already holds the blade page", plainDocs)
	}
	for _, merge := range []int{1, 2} {
		res := search(q, merge, true)
		got, docs := ids(res)
		if len(got) < len(plain) || !slices.Equal(got[:len(plain)], plain) {
			t.Fatalf("ExpandMerge %d: hits %v, want the plain hits %v first", merge, got, plain)
		}
		below := docs[len(plain):]
		if len(below) == 0 || len(below) > merge || !slices.Contains(below, "man-x200-blades") {
			t.Errorf("ExpandMerge %d: below the plain hits %v, want at most %d holding man-x200-blades", merge, below, merge)
		}
		if n := expandNote(res); !strings.Contains(n, "chunk") || !strings.Contains(n, "below its 5 hits") {
			t.Errorf("ExpandMerge %d: expand stage %q, want the added word and the merge named", merge, n)
		}
	}
	const known = "how do I descale my kettle"
	want, _ := ids(search(known, 0, false))
	res := search(known, 2, true)
	if got, _ := ids(res); !slices.Equal(got, want) || expandNote(res) != "" {
		t.Errorf("nothing to expand: hits %v, expand stage %q; want %v and no stage", got, expandNote(res), want)
	}
}
