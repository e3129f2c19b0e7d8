package cli

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redisearch"
	"github.com/assay-rag/assay/internal/redistest"
)

func redisConfig(t *testing.T, addr, name string) config.Config {
	t.Helper()
	cfg, err := config.Load(config.Options{Overrides: map[string]string{
		"index.backend": "redisearch", "redis.addr": addr, "index.name": name, "index.corpus": "",
	}})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestOpenLiveRedisUnreachable(t *testing.T) {
	_, err := openLive(context.Background(), redisConfig(t, "127.0.0.1:1", "x"), slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if err == nil || !strings.Contains(err.Error(), "redis.addr") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("openLive with Redis down: %v; want an error naming redis.addr and the address", err)
	}
}

// TestOpenLiveRefusesAnotherEmbedder: a worker whose embedder differs from
// the one the shared index was built with refuses to serve it, naming both.
func TestOpenLiveRefusesAnotherEmbedder(t *testing.T) {
	srv := redistest.Start(t)
	name := redistest.Name("emb")
	docs, err := corpus.LoadJSONL("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	small, _ := embed.NewHashed(64)
	if _, _, err := redisearch.Build(context.Background(), srv.Client(t), name, ch.SplitAll(docs), redisearch.BuildOptions{Embedder: small, Chunking: chunk.Default().String()}); err != nil {
		t.Fatal(err)
	}
	_, err = openLive(context.Background(), redisConfig(t, srv.Addr, name), slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if err == nil || !strings.Contains(err.Error(), small.ID()) || !strings.Contains(err.Error(), "d768") {
		t.Errorf("openLive over an index embedded by %s: %v; want a refusal naming it and the worker's 768-dimension builtin", small.ID(), err)
	}
	// The same embedder is served.
	cfg := redisConfig(t, srv.Addr, name)
	cfg.Embed.Dim = 64
	l, err := openLive(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !strings.Contains(l.Version(), "v1") || l.Len() == 0 {
		t.Errorf("live index %q with %d chunks", l.Version(), l.Len())
	}
}

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

// TestSharedIndexPassagesFollowRebuild: a standalone gateway reads passages
// from the shared RediSearch index whatever embedder built it, and after
// a rebuild narrows a chunk's ACL it reads the new version.
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
	p := newPassageIndex(ctx, redisConfig(t, srv.Addr, name), slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer p.Close()
	if got, err := p.Chunks(ctx, []string{"a#0"}); err != nil || !got[0].VisibleTo([]string{"public"}) {
		t.Fatalf("before the rebuild Chunks = %+v, %v; want the public chunk", got, err)
	}
	c[0].ACL = []string{"staff"}
	if _, _, err := redisearch.Build(ctx, rdb, name, c, redisearch.BuildOptions{Embedder: small}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := p.Chunks(ctx, []string{"a#0"})
		if err == nil && !got[0].VisibleTo([]string{"public"}) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("5s after a rebuild restricted a#0 to staff the gateway reads %+v, %v", got, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
