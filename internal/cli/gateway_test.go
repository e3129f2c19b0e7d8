package cli

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// TestPassageIndex: a standalone gateway reads passages from the worker's
// index; without one it says so once and answers unavailable, and the
// first request after the worker has built the index reads it (before
// round 47 it tried again at most once a second, so a request right after
// the build was still unavailable).
func TestPassageIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ix")
	var logs bytes.Buffer
	ctx := context.Background()
	var cfg config.Config
	cfg.Index.Dir = dir
	p := newPassageIndex(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	if !strings.Contains(logs.String(), "answers 503") || !strings.Contains(logs.String(), "index.dir") {
		t.Errorf("without an index the gateway logs %q; want it to say sources answer 503 and name index.dir", logs.String())
	}
	for range 3 {
		if _, err := p.Chunks(ctx, []string{"pol-warranty-2026#0"}); !errs.Is(errs.Unavailable, err) {
			t.Errorf("Chunks without an index = %v; want unavailable", err)
		}
	}
	if n := strings.Count(logs.String(), "no index to read passages from"); n != 1 {
		t.Errorf("the start and three requests without an index logged it %d times, want once:\n%s", n, logs.String())
	}

	if _, _, err := runCmd(t, "index", "--corpus", "../../testdata/hollin/corpus.jsonl", "--index", dir, "--quiet"); err != nil {
		t.Fatalf("assay index: %v", err)
	}
	cs, err := p.Chunks(ctx, []string{"pol-warranty-2026#0"})
	if err != nil || len(cs) != 1 || cs[0].Title != "Warranty terms (2026)" {
		t.Errorf("Chunks right after the index was built = %+v, %v; want the passage", cs, err)
	}
	if _, err := p.Chunks(ctx, []string{"nope#0"}); !errs.Is(errs.NotFound, err) {
		t.Errorf("Chunks of an unknown id = %v; want not found", err)
	}
}

// TestPassageIndexBrokenBuild: a build that exists but cannot be opened
// answers unavailable and says why; the same build is not opened again on
// every request (at most every retry), and a new build is opened
// by the first request after it.
func TestPassageIndexBrokenBuild(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ix")
	c := corpus.Chunk{ID: "d#0", DocID: "d", Title: "Rates", Text: "partner rates", Status: corpus.Current, Authority: 1, ACL: []string{"public"}}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "manifest.json")
	good, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	// Rewritten in place: the same file, so the same build to Built.
	bad := strings.Replace(string(good), `"schema_version": `, `"schema_version": 9`, 1)
	if bad == string(good) {
		t.Fatalf("no schema_version in the manifest:\n%s", good)
	}
	if err := os.WriteFile(manifest, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	var cfg config.Config
	cfg.Index.Dir = dir
	p := newPassageIndex(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	p.retry = time.Hour
	if !strings.Contains(logs.String(), "cannot be opened") || !strings.Contains(logs.String(), "schema version") {
		t.Errorf("with a broken index the gateway logs %q; want it to say it cannot be opened and why", logs.String())
	}
	if err := os.WriteFile(manifest, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Chunks(ctx, []string{"d#0"}); !errs.Is(errs.Unavailable, err) {
		t.Errorf("Chunks of the build that failed, within retry = %v; want unavailable (not opened again)", err)
	}
	p.retry = 0
	if got, err := p.Chunks(ctx, []string{"d#0"}); err != nil || len(got) != 1 {
		t.Errorf("Chunks of the same build past retry = %+v, %v; want it opened again", got, err)
	}
	p.Close()

	if err := os.WriteFile(manifest, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	p = newPassageIndex(ctx, cfg, slog.New(slog.DiscardHandler))
	defer p.Close()
	p.retry = time.Hour
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Chunks(ctx, []string{"d#0"}); err != nil || len(got) != 1 {
		t.Errorf("Chunks right after a rebuild replaced the broken build = %+v, %v; want it opened", got, err)
	}
}

// TestPassageIndexRedisDown: a gateway whose Redis does not answer starts,
// answers passages unavailable and logs that Redis is unreachable; it asks
// Redis again at most every retry, answering the requests in between at
// once (go-redis takes a second or two to give up on a server).
func TestPassageIndexRedisDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	cfg, err := config.Load(config.Options{Overrides: map[string]string{"index.backend": "redisearch", "redis.addr": addr, "index.name": "gw", "index.corpus": ""}})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	ctx := context.Background()
	p := newPassageIndex(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	start := time.Now()
	for range 3 {
		if _, err := p.Chunks(ctx, []string{"a#0"}); !errs.Is(errs.Unavailable, err) {
			t.Errorf("Chunks with Redis down = %v; want unavailable", err)
		}
	}
	if took := time.Since(start); took > p.retry/2 {
		t.Errorf("three requests with Redis down took %v; want them answered at once within retry (%v) of the start's attempt", took, p.retry)
	}
	if !strings.Contains(logs.String(), "answers 503") || !strings.Contains(logs.String(), addr) {
		t.Errorf("with Redis down the gateway logs %q; want sources answering 503 and Redis's address", logs.String())
	}
}

// TestPassageIndexFollowsRebuild: after a rebuild narrows a document's
// ACL, the gateway reads the new build, so the read-time ACL check of
// /v1/questions/{id}/sources withholds the passage from a caller who may
// no longer see it.
func TestPassageIndexFollowsRebuild(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ix")
	c := corpus.Chunk{ID: "d#0", DocID: "d", Title: "Rates", Text: "partner rates are secret", Status: corpus.Current, Authority: 1, ACL: []string{"public"}}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	var cfg config.Config
	cfg.Index.Dir = dir
	p := newPassageIndex(ctx, cfg, slog.New(slog.DiscardHandler))
	defer p.Close()
	if got, err := p.Chunks(ctx, []string{"d#0"}); err != nil || !got[0].VisibleTo([]string{"public"}) {
		t.Fatalf("before the rebuild Chunks = %+v, %v; want the public chunk", got, err)
	}
	c.ACL = []string{"staff"}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := p.Chunks(ctx, []string{"d#0"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].VisibleTo([]string{"public"}) {
		t.Errorf("after the rebuild restricted it to staff the gateway reads ACL %v: a public caller still sees the passage", got[0].ACL)
	}
}

// TestPassageIndexConcurrent: requests racing with the build all read the
// index once it is there, and it is opened once (run with -race).
func TestPassageIndexConcurrent(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ix")
	var logs syncLog
	var cfg config.Config
	cfg.Index.Dir = dir
	p := newPassageIndex(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	c := corpus.Chunk{ID: "d#0", DocID: "d", Title: "Rates", Text: "partner rates", Status: corpus.Current, Authority: 1, ACL: []string{"public"}}
	var wg sync.WaitGroup
	built := make(chan struct{})
	for range 8 {
		wg.Go(func() {
			for {
				after := false
				select {
				case <-built:
					after = true
				default:
				}
				_, err := p.Chunks(ctx, []string{"d#0"})
				if after {
					if err != nil {
						t.Errorf("Chunks after the build = %v", err)
					}
					return
				}
			}
		})
	}
	if _, _, err := bleveindex.Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	close(built)
	wg.Wait()
	if n := strings.Count(logs.String(), "come from the index"); n != 1 {
		t.Errorf("the index was opened %d times, want once:\n%s", n, logs.String())
	}
}

// syncLog is a log sink safe for concurrent writers.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncLog) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
