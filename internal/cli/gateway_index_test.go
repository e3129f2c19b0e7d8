package cli

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestSharedIndexCheck: a standalone gateway's readiness names the shared
// index's version, and is not ready before there is one.
func TestSharedIndexCheck(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	name := redistest.Name("gw")
	check := sharedIndexCheck(rdb, name)
	if err := check.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "no RediSearch index") {
		t.Errorf("before any build: %v, want not ready naming the missing index", err)
	}
	c := []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "kettle", Status: corpus.Current, ACL: []string{"public"}}}
	if _, _, err := redisearch.Build(context.Background(), rdb, name, c, redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := check.Check(context.Background()); err != nil || !strings.Contains(check.Info(), "assay:"+name+":v1") {
		t.Errorf("after a build: %v, info %q; want ready on version 1", err, check.Info())
	}
}

// TestSharedIndexPassagesOpenAfterBuild: a standalone gateway started
// before any build of the shared RediSearch index answers passages
// unavailable, and the first request after a build reads it (before
// round 47 it tried again at most once a second, so a request right
// after the build was still unavailable).
func TestSharedIndexPassagesOpenAfterBuild(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	name := redistest.Name("gwo")
	ctx := context.Background()
	var logs bytes.Buffer
	p := newPassageIndex(ctx, redistest.IndexConfig(t, srv.Addr, name), slog.New(slog.NewTextHandler(&logs, nil)))
	defer p.Close()
	for range 3 {
		if _, err := p.Chunks(ctx, []string{"a#0"}); !errs.Is(errs.Unavailable, err) {
			t.Fatalf("Chunks before any build = %v; want unavailable", err)
		}
	}
	if n := strings.Count(logs.String(), "no index to read passages from"); n != 1 || !strings.Contains(logs.String(), "no RediSearch index") {
		t.Errorf("the start and three requests before any build logged %d lines saying so, want one naming the missing index:\n%s", n, logs.String())
	}
	c := []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "partner rates", Status: corpus.Current, ACL: []string{"public"}}}
	if _, _, err := redisearch.Build(ctx, rdb, name, c, redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Chunks(ctx, []string{"a#0"}); err != nil || len(got) != 1 || got[0].Text != "partner rates" {
		t.Errorf("Chunks right after the build = %+v, %v; want the passage", got, err)
	}
}

// TestSharedIndexPassagesFollowRebuild: a standalone gateway reads passages
// from the shared RediSearch index whatever embedder built it, and after
// a rebuild narrows a chunk's ACL the very next read is the new version's
// (before round 48 the served version asked Redis for a newer one at most
// once a second, and the read right after the rebuild came from the old
// version's cache: public).
func TestSharedIndexPassagesFollowRebuild(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	name := redistest.Name("gwp")
	ctx := context.Background()
	small, _ := embed.NewHashed(64) // not the gateway's configured embedder
	c := []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "partner rates", Status: corpus.Current, ACL: []string{"public"}}}
	if _, _, err := redisearch.Build(ctx, rdb, name, c, redisearch.BuildOptions{Embedder: small}); err != nil {
		t.Fatal(err)
	}
	p := newPassageIndex(ctx, redistest.IndexConfig(t, srv.Addr, name), slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer p.Close()
	if got, err := p.Chunks(ctx, []string{"a#0"}); err != nil || !got[0].VisibleTo([]string{"public"}) {
		t.Fatalf("before the rebuild Chunks = %+v, %v; want the public chunk", got, err)
	}
	c[0].ACL = []string{"staff"}
	if _, _, err := redisearch.Build(ctx, rdb, name, c, redisearch.BuildOptions{Embedder: small}); err != nil {
		t.Fatal(err)
	}
	got, err := p.Chunks(ctx, []string{"a#0"})
	if err != nil || got[0].VisibleTo([]string{"public"}) {
		t.Fatalf("right after a rebuild restricted a#0 to staff the gateway reads %+v, %v; want it, staff only", got, err)
	}
}

// TestSharedIndexPassagesRedisLost (round 48 review, rv48): a standalone
// gateway that opened the shared RediSearch index and read a passage (so
// its version holds it in its chunk cache) fails closed when Redis stops
// answering: the next read is unavailable (the sources endpoint's 503),
// not the cached chunk with an ACL no one can confirm is current, and it
// says so within a few seconds, without a panic.
func TestSharedIndexPassagesRedisLost(t *testing.T) {
	srv := redistest.Start(t)
	if srv.Cmd == nil {
		t.Skip("a Redis given by URL: the test cannot stop it")
	}
	rdb := srv.Client(t)
	name := redistest.Name("gwl")
	ctx := context.Background()
	c := []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "partner rates", Status: corpus.Current, ACL: []string{"public"}}}
	if _, _, err := redisearch.Build(ctx, rdb, name, c, redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	p := newPassageIndex(ctx, redistest.IndexConfig(t, srv.Addr, name), slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer p.Close()
	if got, err := p.Chunks(ctx, []string{"a#0"}); err != nil || len(got) != 1 {
		t.Fatalf("with Redis up Chunks = %+v, %v; want the passage", got, err)
	}
	if err := srv.Cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = srv.Cmd.Wait()
	start := time.Now()
	got, err := p.Chunks(ctx, []string{"a#0"})
	if !errs.Is(errs.Unavailable, err) || len(got) != 0 {
		t.Errorf("with Redis lost Chunks of a cached passage = %+v, %v; want unavailable, no passage", got, err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("with Redis lost the read took %v to fail", took)
	}
}
