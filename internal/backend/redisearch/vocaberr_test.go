package redisearch_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

// hollinBuilt builds the Hollin chunks into a server of the test's,
// under a name starting with prefix.
func hollinBuilt(t *testing.T, prefix string) (*redistest.Server, string) {
	t.Helper()
	srv := redistest.Start(t)
	name := redistest.Name(prefix)
	chunks, sum := hollinChunks(t)
	buildOpen(t, srv.Client(t), name, chunks, redisearch.BuildOptions{Checksum: sum})
	return srv, name
}

// TestVocabularyFailsWhenRedisFails: a count Redis did not answer is 0
// (TermCounts has no error return), and the vocabulary's Err says so,
// typed unavailable, so the assessor and retrieval can tell it from a
// true 0: for Visible itself (N and the empty chunks), for a term's
// visible df on each of its three paths (a single group's df table, a
// count per term for several groups, the whole-index table for a
// principal who sees every chunk), and for the mean length. What was
// read before the failure still counts, with Err nil.
func TestVocabularyFailsWhenRedisFails(t *testing.T) {
	srv, name := hollinBuilt(t, "vocabfail")
	ctx := context.Background()
	open := func(t *testing.T) (*redisearch.Index, func() error) {
		rdb := srv.Client(t)
		ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return ix, rdb.Close
	}
	failed := func(t *testing.T, v backend.Vocabulary, what string) {
		t.Helper()
		if err := v.Err(); err == nil {
			t.Errorf("%s with Redis gone: Err() = nil, want the failure", what)
		} else if !errs.Is(errs.Unavailable, err) {
			t.Errorf("%s with Redis gone: Err() = %v, want it typed unavailable", what, err)
		}
	}
	t.Run("visible", func(t *testing.T) {
		ix, closeRDB := open(t)
		closeRDB()
		v := ix.Visible([]string{"public"})
		if n, df := v.Len(), v.DocFreq("warranti"); n != 0 || df != 0 {
			t.Errorf("Len, DocFreq with Redis gone = %d, %d; want 0, 0", n, df)
		}
		failed(t, v, "Visible")
	})
	every := []string{"public", "partners", "staff", "partner:brook-street", "partner:calder-fix", "finance"}
	for _, groups := range [][]string{{"public"}, {"public", "staff"}, every} {
		t.Run("docfreq "+groups[0]+"…"+groups[len(groups)-1], func(t *testing.T) {
			ix, closeRDB := open(t)
			v := ix.Visible(groups)
			n, known := v.Len(), v.DocFreq("warranti")
			if n == 0 || known == 0 {
				t.Fatalf("Len, DocFreq(warranti) = %d, %d before the failure; want both positive", n, known)
			}
			if rv, ok := v.(redisearch.Vocabulary); ok && len(groups) == len(every) && !rv.All() {
				t.Fatalf("groups %q do not see every chunk", groups)
			}
			closeRDB()
			if got := v.DocFreq("warranti"); got != known || v.Err() != nil {
				t.Errorf("cached DocFreq(warranti) with Redis gone = %d (Err %v), want %d and no error", got, v.Err(), known)
			}
			if got := v.DocFreq("motor"); got != 0 {
				t.Errorf("DocFreq(motor) with Redis gone = %d, want 0", got)
			}
			failed(t, v, "DocFreq")
			if _, err := v.Holdings(ctx, []string{"warranti"}, nil); err == nil {
				t.Errorf("Holdings after a failed DocFreq: no error")
			}
		})
	}
	t.Run("avglen", func(t *testing.T) {
		ix, closeRDB := open(t)
		v := ix.Visible([]string{"public", "staff"})
		if v.Len() == 0 {
			t.Fatal("no visible chunks")
		}
		closeRDB()
		if got := v.(backend.BM25Stats).AvgLen(); got != 0 {
			t.Errorf("AvgLen with Redis gone = %v, want 0", got)
		}
		failed(t, v, "AvgLen")
	})
}

// failDFReads fails every pipeline that reads the df table key after
// the first: the BM25 leg's own read succeeds, a read again of a df the
// cache has dropped fails.
type failDFReads struct {
	key   string
	reads int
}

func (h *failDFReads) DialHook(next redis.DialHook) redis.DialHook          { return next }
func (h *failDFReads) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }
func (h *failDFReads) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			if args := c.Args(); len(args) > 1 && c.Name() == "hmget" && args[1] == h.key {
				if h.reads++; h.reads > 1 {
					return errors.New("redis: connection refused (test)")
				}
			}
		}
		return next(ctx, cmds)
	}
}

// TestSearchTextFailsWhenRescoreCannotCount: the BM25 leg re-scores its
// candidates with the visible dfs it read while weighing the query; when
// other questions have pushed one out of the cache it is read again, and
// when that read fails the search is the error (typed unavailable), not
// hits scored with a df of 0. With the cache big enough nothing is read
// again and the same failing server answers.
func TestSearchTextFailsWhenRescoreCannotCount(t *testing.T) {
	srv, name := hollinBuilt(t, "rescorefail")
	ctx := context.Background()
	f := backend.Filter{Groups: []string{"public"}}
	const q = "descale the kettle with vinegar"
	for _, bound := range []int{4096, 1} {
		t.Run(fmt.Sprint("cache=", bound), func(t *testing.T) {
			defer redisearch.SetMaxSetTerms(redisearch.SetMaxSetTerms(bound))
			rdb := srv.Client(t)
			ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			hook := &failDFReads{key: fmt.Sprintf("assay:%s:v%d:df:public", name, ix.RedisManifest().Version)}
			rdb.AddHook(hook)
			hits, err := ix.SearchText(ctx, q, f, 5)
			switch {
			case hook.reads == 0:
				t.Fatalf("no read of %s: the hook watches the wrong key", hook.key)
			case bound > 1 && (err != nil || len(hits) == 0):
				t.Errorf("SearchText(%q) with every df cached = %d hits, %v; want hits", q, len(hits), err)
			case bound == 1 && hook.reads < 2:
				t.Fatalf("SearchText(%q) with one df cached read the dfs %d times, want a read again", q, hook.reads)
			case bound == 1 && (err == nil || !errs.Is(errs.Unavailable, err)):
				t.Errorf("SearchText(%q) whose df read again failed = %d hits, %v; want an error typed unavailable", q, len(hits), err)
			}
		})
	}
}

// TestEachTermFailsWhenRedisFails: the whole index's term list is read
// with HSCAN; a Redis that does not answer makes it an error (typed
// unavailable), not a list that ends early as if whole.
func TestEachTermFailsWhenRedisFails(t *testing.T) {
	srv, name := hollinBuilt(t, "termsfail")
	ctx := context.Background()
	rdb := srv.Client(t)
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := ix.EachTerm(func(string, int) { n++ }); err != nil || n == 0 {
		t.Fatalf("EachTerm = %d terms, %v; want terms and no error", n, err)
	}
	rdb.Close()
	n = 0
	err = ix.EachTerm(func(string, int) { n++ })
	if err == nil || !errs.Is(errs.Unavailable, err) {
		t.Errorf("EachTerm with Redis gone = %d terms, %v; want an error typed unavailable", n, err)
	}
}

// TestIndexDocFreqFailsWhenRedisFails: the whole index's df (what the
// IDF-weighted builtin embedder weighs a query's terms with) is an error
// typed unavailable when Redis does not answer, not a 0, and so is the
// query's embedding; a df read before the failure still counts.
func TestIndexDocFreqFailsWhenRedisFails(t *testing.T) {
	srv, name := hollinBuilt(t, "indexdffail")
	ctx := context.Background()
	rdb := srv.Client(t)
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	known, err := ix.DocFreq("warranti")
	if known == 0 || err != nil {
		t.Fatalf("DocFreq(warranti) = %d, %v before the failure; want a positive count", known, err)
	}
	emb, err := embed.NewHashedIDF(64, ix, "hollin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emb.Embed(ctx, []string{"warranty"}); err != nil {
		t.Fatalf("Embed(warranty) with Redis up: %v", err)
	}
	rdb.Close()
	if got, err := ix.DocFreq("warranti"); got != known || err != nil {
		t.Errorf("cached DocFreq(warranti) with Redis gone = %d, %v; want %d and no error", got, err, known)
	}
	if got, err := ix.DocFreq("motor"); err == nil || !errs.Is(errs.Unavailable, err) {
		t.Errorf("DocFreq(motor) with Redis gone = %d, %v; want an error typed unavailable", got, err)
	}
	if _, err := emb.Embed(ctx, []string{"warranty"}); err != nil {
		t.Errorf("Embed(warranty), its df cached, with Redis gone: %v", err)
	}
	vecs, err := emb.Embed(ctx, []string{"warranty", "the motor hums"})
	if err == nil || !errs.Is(errs.Unavailable, err) {
		t.Errorf("Embed(the motor hums) with Redis gone = %d vectors, %v; want an error typed unavailable", len(vecs), err)
	}
}
