package live

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
)

// pointerGets counts, on a RediSearch Source's client, the GETs of the
// index's current pointer: sent alone (their own round trip) and sent in
// a pipeline with other commands (riding with them).
type pointerGets struct {
	key string
	mu  sync.Mutex
	log []string // "alone", "rode"
}

func (p *pointerGets) DialHook(next redis.DialHook) redis.DialHook { return next }

func (p *pointerGets) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if p.isGet(cmd) {
			p.add("alone")
		}
		return next(ctx, cmd)
	}
}

func (p *pointerGets) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			if p.isGet(c) {
				if len(cmds) == 1 {
					p.add("alone")
				} else {
					p.add("rode")
				}
			}
		}
		return next(ctx, cmds)
	}
}

func (p *pointerGets) isGet(cmd redis.Cmder) bool {
	a := cmd.Args()
	return len(a) == 2 && strings.EqualFold(cmd.Name(), "get") && a[1] == p.key
}

func (p *pointerGets) add(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log = append(p.log, s)
}

// take returns the GETs logged since the last take.
func (p *pointerGets) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	got := p.log
	p.log = nil
	return got
}

// TestCheckRidesWithRequestRediSearch: a RediSearch search and an
// uncached chunk read send the version's check (the GET of the current
// pointer) in the pipeline of a command of theirs, not alone before them;
// a cached chunk read, which sends no command, sends it alone; an
// assessment sends it once, riding with its first statistics read. After a rebuild narrowing d to staff, the first search's check,
// riding with it, finds the pointer moved: the answer from the old
// version (d public there, the old version kept) is thrown away and the
// search runs again on the new one (no d). A check that fails (the
// pointer deleted) fails the request. Before round 49 every request sent
// the GET alone first (an added round trip: ~20 µs on a 210 µs search).
func TestCheckRidesWithRequestRediSearch(t *testing.T) {
	n := redisNarrowing(t)
	ctx := context.Background()
	l := openLive(t, n.cfg)
	gets := &pointerGets{key: "assay:" + n.cfg.Index.Name + ":current"}
	l.src.rdb.AddHook(gets)
	// Nothing read yet: d#0 and k#0 are read from Redis, k#0 again from
	// the version's cache.
	for _, c := range []struct {
		id   string
		want string
	}{{"d#0", "rode"}, {"k#0", "rode"}, {"k#0", "alone"}} {
		if _, err := l.Chunks(ctx, []string{c.id}); err != nil {
			t.Fatal(err)
		}
		if got := gets.take(); !slices.Equal(got, []string{c.want}) {
			t.Errorf("a read of %s sent the pointer's GET %q; want once, %s", c.id, got, c.want)
		}
	}

	if saw, err := sawD(t, l); err != nil || !saw {
		t.Fatalf("a public search finds d: %v, %v; want true", saw, err)
	}
	if got := gets.take(); !slices.Equal(got, []string{"rode"}) {
		t.Errorf("a search sent the pointer's GET %q; want once, riding with its commands", got)
	}
	q := "how long are kettles covered"
	ev := []assess.Evidence{{ChunkID: "k#0", Title: "Kettles", Text: "Kettles are covered for two years.", Score: 1}}
	if _, err := l.Assess(ctx, assess.Request{Question: q, Query: q, Groups: public, K: 5, Evidence: ev}); err != nil {
		t.Fatal(err)
	}
	// The assessor's statistics reads are made in the request's context
	// (assess.ContextCorpus, round 49 gw49b): its first uncached read
	// carries the check. Before, they carried no request context and the
	// check was the GET alone at the assessment's end.
	if got := gets.take(); !slices.Equal(got, []string{"rode"}) {
		t.Errorf("an assessment sent the pointer's GET %q; want once, riding with a statistics read", got)
	}
	v1 := l.Version()
	n.rebuild("staff")
	res, err := l.Search(ctx, retrieval.Request{Query: "partner rates", Groups: public, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := gets.take(); len(got) == 0 || got[0] != "rode" {
		t.Errorf("the search after the rebuild sent the pointer's GETs %q; want the first riding with its commands", got)
	}
	if slices.ContainsFunc(res.Hits, func(h retrieval.Hit) bool { return h.DocID == "d" }) {
		t.Errorf("a public search after the rebuild restricting d to staff found d (the old version's answer kept): %+v", res.Hits)
	}
	if v := res.Stages[0].Note; v == v1 || v != l.Version() {
		t.Errorf("the search after the rebuild names %q; want the new version %q (old %q)", v, l.Version(), v1)
	}

	// A check that fails fails the request, whatever its commands read.
	if err := l.src.rdb.Del(ctx, gets.key).Err(); err != nil {
		t.Fatal(err)
	}
	if res, err := l.Search(ctx, retrieval.Request{Query: "kettles", Groups: public, K: 5}); !errs.Is(errs.Unavailable, err) || len(res.Hits) != 0 {
		t.Errorf("a search with the pointer gone: %d hits, %v; want none, unavailable", len(res.Hits), err)
	}
	if cs, err := l.Chunks(ctx, []string{"k#0"}); !errs.Is(errs.Unavailable, err) || cs != nil {
		t.Errorf("a chunk read with the pointer gone: %+v, %v; want none, unavailable", cs, err)
	}
}

// TestRideConcurrentRebuildsRediSearch: searches and chunk reads run
// concurrently (their checks riding) while d's ACL is rebuilt back and
// forth: none fails (a request on a version a later build dropped retries
// on the newest), and a read begun after each rebuild returned sees that
// build's ACL. Run with -race.
func TestRideConcurrentRebuildsRediSearch(t *testing.T) {
	n := redisNarrowing(t)
	ctx := context.Background()
	l := openLive(t, n.cfg)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var err error
				if (w+i)%2 == 0 {
					_, err = l.Search(ctx, retrieval.Request{Query: "partner rates kettles", Groups: public, K: 5})
				} else {
					_, err = l.Chunks(ctx, []string{"d#0", "k#0"})
				}
				if err != nil {
					t.Errorf("worker %d, request %d: %v", w, i, err)
					return
				}
			}
		})
	}
	for i, acl := range []string{"staff", "public", "staff", "public", "staff"} {
		n.rebuild(acl)
		cs, err := l.Chunks(ctx, []string{"d#0"})
		if err != nil || cs[0].VisibleTo(public) != (acl == "public") {
			t.Errorf("after rebuild %d (d %s) d#0 = %+v, %v", i+2, acl, cs, err)
		}
	}
	close(stop)
	wg.Wait()
}
