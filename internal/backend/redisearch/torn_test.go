package redisearch

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestTornReadAfterTwoBuilds (a proposal of round 49's review, rv49;
// fixed by gw49b): a request's check rides with its first command and is not
// asked again, so when two builds complete while the request runs (the
// first moves the pointer, the second drops the request's version before
// writing) the request's later statistics reads find that version's
// tables gone and read a 0 (atoi of a missing field), not an error, and
// the check still says current: the answer stands, scored with zeros.
// Before round 49 one build was enough for this; it needs builds shorter
// than a request (small corpora: tests, e2e, back-to-back reindexing).
// The fix taken: a statistics read asks, in its pipeline, whether the
// version's manifest (dropped before its tables) is still there; when not,
// the read is an error (the version gone) and the version stale.
func TestTornReadAfterTwoBuilds(t *testing.T) {
	ctx := context.Background()
	tb := newTornIndex(t, "torn")
	ix, term := tb.ix, tb.term
	if df, err := ix.DocFreq(term); err != nil || df != 1 {
		t.Fatalf("DocFreq(%q) = %d, %v; want 1", term, df, err)
	}
	ix, err := Open(ctx, tb.rdb, tb.name, Options{}) // a fresh version: nothing cached
	if err != nil {
		t.Fatal(err)
	}
	rctx, chk := ix.Check(ctx)
	if _, err := ix.Chunks(rctx, []string{"a#0"}); err != nil { // the first command: the check rides
		t.Fatal(err)
	}
	tb.buildTwice()
	df, err := ix.DocFreq(term)
	stale, serr := chk.Stale(ctx)
	if err == nil && serr == nil && !stale {
		t.Errorf("after two builds dropped the request's version its DocFreq = %d, nil and its check says current; want an error or the answer thrown away", df)
	}
	// Fail closed (round 49, gw49b): a read of a table that is gone is
	// the version gone (unavailable), and the request's check then says
	// stale, so live.Index.run runs the request again on the newest.
	if !errs.Is(errs.Unavailable, err) {
		t.Errorf("whole-index DocFreq of a dropped version: %d, %v; want unavailable (the version gone)", df, err)
	}
	if serr != nil || !stale {
		t.Errorf("the check after a read found the version gone = %v, %v; want stale", stale, serr)
	}
}

// TestTornVisibleReads (round 49, gw49b): a principal's statistics read
// from a version whose tables two builds dropped under the request (its
// visible set cached before, so only the tables are asked: the group's
// df table, the length tables) is not 0 but an error (Err, unavailable),
// for DocFreq and AvgLen alike.
func TestTornVisibleReads(t *testing.T) {
	ctx := context.Background()
	tb := newTornIndex(t, "tornvis")
	ix, term := tb.ix, tb.term
	public := []string{"public"}
	v := ix.Visible(public) // the set (N, empty) cached
	if err := v.Err(); err != nil || v.Len() != 1 {
		t.Fatalf("visible set: %d chunks, %v", v.Len(), err)
	}
	tb.buildTwice()
	v = ix.Visible(public)
	if df := v.DocFreq(term); !errs.Is(errs.Unavailable, v.Err()) {
		t.Errorf("visible DocFreq(%q) of a dropped version = %d, Err %v; want unavailable", term, df, v.Err())
	}
	v = ix.Visible(public)
	if avg := v.(Vocabulary).AvgLen(); !errs.Is(errs.Unavailable, v.Err()) {
		t.Errorf("visible AvgLen of a dropped version = %v, Err %v; want unavailable", avg, v.Err())
	}
	if stale, err := ix.Stale(ctx); err != nil || !stale {
		t.Errorf("Stale after a read found the version gone = %v, %v; want stale", stale, err)
	}
}

// tornIndex is a two-chunk index ("kettles" public, partner rates staff)
// built once and opened, for the torn-read tests: term is "kettles" as
// indexed; buildTwice completes two more builds of it.
type tornIndex struct {
	t      *testing.T
	rdb    *redis.Client
	name   string
	chunks []corpus.Chunk
	ix     *Index
	term   string
}

func newTornIndex(t *testing.T, prefix string) *tornIndex {
	t.Helper()
	tb := &tornIndex{t: t, rdb: redistest.Start(t).Client(t), name: redistest.Name(prefix), chunks: []corpus.Chunk{
		{ID: "a#0", DocID: "a", Title: "Kettles", Text: "Kettles are covered for two years.", Status: corpus.Current, ACL: []string{"public"}},
		{ID: "b#0", DocID: "b", Title: "Rates", Text: "Partner rates are 40 an hour.", Status: corpus.Current, ACL: []string{"staff"}},
	}}
	ctx := context.Background()
	if _, _, err := Build(ctx, tb.rdb, tb.name, tb.chunks, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, tb.rdb, tb.name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb.ix, tb.term = ix, ix.an.Terms("kettles")[0]
	return tb
}

func (tb *tornIndex) buildTwice() {
	tb.t.Helper()
	for range 2 {
		if _, _, err := Build(context.Background(), tb.rdb, tb.name, tb.chunks, BuildOptions{}); err != nil {
			tb.t.Fatal(err)
		}
	}
}
