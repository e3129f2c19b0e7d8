package redisearch

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestTornReadAfterTwoBuilds is a proposal (round 49 review, rv49),
// skipped: a request's check rides with its first command and is not
// asked again, so when two builds complete while the request runs (the
// first moves the pointer, the second drops the request's version before
// writing) the request's later statistics reads find that version's
// tables gone and read a 0 (atoi of a missing field), not an error, and
// the check still says current: the answer stands, scored with zeros.
// Before round 49 one build was enough for this; it needs builds shorter
// than a request (small corpora: tests, e2e, back-to-back reindexing).
// Fix candidates: the build waits until the previous switch is older
// than the longest request before dropping (a49-gw's Next), or a missing
// statistics table is an error (a version gone) rather than 0.
func TestTornReadAfterTwoBuilds(t *testing.T) {
	t.Skip("proposal (rv49): statistics read from a version dropped under a checked request are 0, not an error")
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("torn")
	chunks := []corpus.Chunk{
		{ID: "a#0", DocID: "a", Title: "Kettles", Text: "Kettles are covered for two years.", Status: corpus.Current, ACL: []string{"public"}},
		{ID: "b#0", DocID: "b", Title: "Rates", Text: "Partner rates are 40 an hour.", Status: corpus.Current, ACL: []string{"staff"}},
	}
	if _, _, err := Build(ctx, rdb, name, chunks, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	term := ix.an.Terms("kettles")[0]
	if df, err := ix.DocFreq(term); err != nil || df != 1 {
		t.Fatalf("DocFreq(%q) = %d, %v; want 1", term, df, err)
	}
	ix, err = Open(ctx, rdb, name, Options{}) // a fresh version: nothing cached
	if err != nil {
		t.Fatal(err)
	}
	rctx, chk := ix.Check(ctx)
	if _, err := ix.Chunks(rctx, []string{"a#0"}); err != nil { // the first command: the check rides
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := Build(ctx, rdb, name, chunks, BuildOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	df, err := ix.DocFreq(term)
	stale, serr := chk.Stale(ctx)
	if err == nil && serr == nil && !stale {
		t.Errorf("after two builds dropped the request's version its DocFreq = %d, nil and its check says current; want an error or the answer thrown away", df)
	}
}
