package live

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/retrieval"
)

// narrowing is a served index and a way to rebuild it from a corpus in
// which document d ("partner rates", public at first) has the ACL given.
type narrowing struct {
	cfg     config.Config
	rebuild func(acl string)
}

var public = []string{"public"}

// writeNarrowCorpus writes the corpus with d's ACL acl.
func writeNarrowCorpus(t *testing.T, path, acl string) {
	t.Helper()
	body := fmt.Sprintf(`{"id":"d","title":"Partner rates","text":"Partner rates are 40 an hour for every partner firm.","acl":[%q]}
{"id":"k","title":"Kettles","text":"Kettles are covered for two years.","acl":["public"]}
`, acl)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func bleveNarrowing(t *testing.T) narrowing {
	cfg := config.Default()
	cfg.Index.Dir = filepath.Join(t.TempDir(), "ix")
	cfg.Index.Corpus = filepath.Join(t.TempDir(), "corpus.jsonl")
	writeNarrowCorpus(t, cfg.Index.Corpus, "public")
	return narrowing{cfg, func(acl string) {
		t.Helper()
		writeNarrowCorpus(t, cfg.Index.Corpus, acl)
		set, err := DefaultBuild(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Build(context.Background(), cfg.Index.Corpus, cfg.IndexDir(), set); err != nil {
			t.Fatal(err)
		}
	}}
}

func redisNarrowing(t *testing.T) narrowing {
	srv := redistest.Start(t)
	cfg := redistest.IndexConfig(t, srv.Addr, redistest.Name("narrow"))
	cfg.Index.Corpus = filepath.Join(t.TempDir(), "corpus.jsonl")
	writeNarrowCorpus(t, cfg.Index.Corpus, "public")
	return narrowing{cfg, func(acl string) {
		t.Helper()
		writeNarrowCorpus(t, cfg.Index.Corpus, acl)
		buildLayout(t, cfg, cfg.Index.Vector) // as `assay index` would
	}}
}

// sawD reports whether a public search for partner rates finds d.
func sawD(t *testing.T, l *Index) (bool, error) {
	t.Helper()
	res, err := l.Search(context.Background(), retrieval.Request{Query: "partner rates", Groups: public, K: 5})
	if err != nil {
		return false, err
	}
	for _, h := range res.Hits {
		if h.DocID == "d" {
			return true, nil
		}
	}
	return false, nil
}

// checkNarrowAtOnce: a worker's index (searches) and a gateway's passage
// index (chunk reads, d#0 read once before, so a RediSearch version has
// it cached), both open before a rebuild that moves d from public to
// staff, serve the rebuild to the first request made after it: a public
// search does not find d, and d#0's ACL read is staff. Before round 48 a
// RediSearch index asked for a new version at most once a second: the
// search right after the rebuild failed on the dropped version, and the
// chunk came from the old version's cache with its public ACL.
func checkNarrowAtOnce(t *testing.T, n narrowing) {
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	l, err := Open(ctx, n.cfg, log, true)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	src := NewPassageSource(n.cfg)
	p, err := OpenPassages(ctx, src, log)
	if err != nil {
		src.Close()
		t.Fatal(err)
	}
	defer p.Close()
	if saw, err := sawD(t, l); err != nil || !saw {
		t.Fatalf("before the rebuild a public search finds d: %v, %v; want true", saw, err)
	}
	if cs, err := p.Chunks(ctx, []string{"d#0"}); err != nil || !cs[0].VisibleTo(public) {
		t.Fatalf("before the rebuild d#0 = %+v, %v; want it public", cs, err)
	}

	n.rebuild("staff")
	if cs, err := p.Chunks(ctx, []string{"d#0"}); err != nil || cs[0].VisibleTo(public) {
		t.Errorf("d#0 read right after the rebuild that restricted it to staff = %+v, %v; want it, staff only", cs, err)
	}
	if saw, err := sawD(t, l); err != nil || saw {
		t.Errorf("a public search right after the rebuild that restricted d to staff finds d: %v, %v; want false, no error", saw, err)
	}
}

func TestRebuildNarrowingACLServedAtOnceBleve(t *testing.T) {
	checkNarrowAtOnce(t, bleveNarrowing(t))
}

func TestRebuildNarrowingACLServedAtOnceRediSearch(t *testing.T) {
	checkNarrowAtOnce(t, redisNarrowing(t))
}

// checkSwapRace: request A finds a rebuild (v2) and opens it; while it
// has the lock, a rebuild v3 moves d to staff, and request B, begun after
// it, finds the served v1 stale and waits for the lock. Once A has
// swapped v2 in, B must not take v2 because it is newer than v1: v3 is the
// newest whole version at B's start. Before round 48 swap returned the
// version another request had swapped in, unchecked.
func checkSwapRace(t *testing.T, n narrowing) {
	ctx := context.Background()
	l := openLive(t, n.cfg)
	n.rebuild("public") // v2: d still public

	opened, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	swapOpened = func() { once.Do(func() { close(opened); <-release }) }
	defer func() { swapOpened = nil }()
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := l.Chunks(ctx, []string{"k#0"}); err != nil {
			t.Errorf("request A: %v", err)
		}
	})
	select {
	case <-opened:
	case <-time.After(10 * time.Second):
		// Before round 48 a RediSearch version asked for a newer one at
		// most once a second: A read v1 and never swapped.
		close(release)
		wg.Wait()
		t.Fatal("request A, made after a rebuild, did not open the new version")
	}
	n.rebuild("staff") // v3, while A holds v2 opened and not yet served
	type read struct {
		public bool
		err    error
	}
	b := make(chan read, 1)
	wg.Go(func() {
		cs, err := l.Chunks(ctx, []string{"d#0"})
		if err != nil {
			b <- read{err: err}
			return
		}
		b <- read{public: cs[0].VisibleTo(public)}
	})
	// B loads the served version (v1, A has not swapped), finds it stale
	// and waits for the lock A holds: give it the time to get there.
	time.Sleep(200 * time.Millisecond)
	close(release)
	wg.Wait()
	if got := <-b; got.err != nil || got.public {
		t.Errorf("request B, begun after the rebuild restricting d to staff, read d#0 public %v, error %v; want the staff-only d#0 of the newest version", got.public, got.err)
	}
}

func TestSwapRaceServesNewestBleve(t *testing.T) {
	checkSwapRace(t, bleveNarrowing(t))
}

func TestSwapRaceServesNewestRediSearch(t *testing.T) {
	checkSwapRace(t, redisNarrowing(t))
}

// TestReplacedVersionStaysOpenWhileRead: a request that began on build 1
// (an assessment may run 90 s) still reads it after a rebuild was swapped
// in and build 1's grace period ended; build 1 closes when that request
// releases it. Before round 48 retire closed it at the end of the grace
// period whoever was reading it.
func TestReplacedVersionStaysOpenWhileRead(t *testing.T) {
	n := bleveNarrowing(t)
	ctx := context.Background()
	l := openLive(t, n.cfg)
	g, err := l.current(ctx) // the long request, on build 1
	if err != nil {
		t.Fatal(err)
	}
	n.rebuild("staff")
	if cs, err := l.Chunks(ctx, []string{"d#0"}); err != nil || cs[0].VisibleTo(public) {
		t.Fatalf("a request after the rebuild read %+v, %v; want build 2's staff-only d#0", cs, err)
	}
	if l.cur.Load() == g {
		t.Fatal("build 2 was not swapped in")
	}
	l.retire(g) // its grace period over, the long request still on it
	if g.shut.Load() {
		t.Fatal("build 1 closed while a request still reads it")
	}
	if cs, err := g.ix.Chunks(ctx, []string{"d#0"}); err != nil || !cs[0].VisibleTo(public) {
		t.Errorf("the request begun on build 1 read %+v, %v; want build 1's d#0", cs, err)
	}
	g.release()
	if !g.shut.Load() {
		t.Error("build 1 still open after its last request released it")
	}
	// A version retired with no reader closes at once.
	g2 := l.cur.Load()
	n.rebuild("public")
	if _, err := l.Chunks(ctx, []string{"d#0"}); err != nil {
		t.Fatal(err)
	}
	l.retire(g2)
	if !g2.shut.Load() {
		t.Error("build 2, replaced and read by no request, did not close at retire")
	}
}
