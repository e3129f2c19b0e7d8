package live

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

func TestOpenLiveRedisUnreachable(t *testing.T) {
	_, err := Open(context.Background(), redistest.IndexConfig(t, "127.0.0.1:1", "x"), slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if err == nil || !strings.Contains(err.Error(), "redis.addr") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("Open with Redis down: %v; want an error naming redis.addr and the address", err)
	}
}

// TestOpenLiveRefusesAnotherEmbedder: a worker whose embedder differs from
// the one the shared index was built with refuses to serve it, naming both.
func TestOpenLiveRefusesAnotherEmbedder(t *testing.T) {
	srv := redistest.Start(t)
	name := redistest.Name("emb")
	docs, err := corpus.LoadJSONL("../../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	small, _ := embed.NewHashed(64)
	if _, _, err := redisearch.Build(context.Background(), srv.Client(t), name, ch.SplitAll(docs), redisearch.BuildOptions{Embedder: small, Chunking: chunk.Default().String()}); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), redistest.IndexConfig(t, srv.Addr, name), slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if err == nil || !strings.Contains(err.Error(), small.ID()) || !strings.Contains(err.Error(), "d768") {
		t.Errorf("Open over an index embedded by %s: %v; want a refusal naming it and the worker's 768-dimension builtin", small.ID(), err)
	}
	// The same embedder is served.
	cfg := redistest.IndexConfig(t, srv.Addr, name)
	cfg.Embed.Dim = 64
	l, err := Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !strings.Contains(l.Version(), "v1") || l.Len() == 0 {
		t.Errorf("live index %q with %d chunks", l.Version(), l.Len())
	}
}

// TestBuiltinIDFRefusedWithACLParts: the IDF-weighted builtin weighs
// vectors by whole-corpus IDF, so a corpus with restricted documents (more
// than one ACL part) is refused with an error naming embed.provider
// (issue 21); a corpus of one part builds.
func TestBuiltinIDFRefusedWithACLParts(t *testing.T) {
	cfg := config.Default()
	cfg.Embed.Provider = config.EmbedBuiltinIDF
	set, err := DefaultBuild(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Build(context.Background(), "../../../testdata/hollin/corpus.jsonl", t.TempDir(), set)
	if err == nil || !strings.Contains(err.Error(), "embed.provider") || !strings.Contains(err.Error(), "builtin-idf") || !strings.Contains(err.Error(), "[staff]") {
		t.Errorf("builtin-idf over the Hollin corpus (public and staff parts): %v; want a refusal naming embed.provider and the parts", err)
	}

	one := filepath.Join(t.TempDir(), "public.jsonl")
	body := `{"id":"a","title":"A","text":"Blender motors are covered for five years.","acl":["public"]}
{"id":"b","title":"B","text":"Kettles are covered for two years.","acl":["public"]}
`
	if err := os.WriteFile(one, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	m, _, err := Build(context.Background(), one, t.TempDir(), set)
	if err != nil || !strings.HasPrefix(m.Embedder, embed.HashedIDFID) {
		t.Errorf("builtin-idf over a wholly public corpus: embedder %q, %v; want it built", m.Embedder, err)
	}
}

// staleHangs is an index whose staleness check hangs whatever its
// context says, as go-redis's read does against a paused Redis.
type staleHangs struct {
	backend.Index
	release chan struct{}
}

func (s staleHangs) Stale(context.Context) (bool, error) { <-s.release; return false, nil }

// TestSearchingDoesNotWaitForAHungCheck: the routing policy asks Searching
// at every run's start inside a local activity of a few seconds; a
// staleness check that hangs (a paused Redis) must leave it the served
// version's answer instead of failing the run (TestEndToEndRediSearch saw
// "routing policy failed: timeout" with Redis paused).
func TestSearchingDoesNotWaitForAHungCheck(t *testing.T) {
	ix := staleHangs{release: make(chan struct{})}
	defer close(ix.release)
	l := &Index{}
	l.cur.Store(&generation{ix: ix, redisOnly: true})
	answered := make(chan [2]bool, 1)
	go func() {
		in, redis := l.Searching(context.Background())
		answered <- [2]bool{in, redis}
	}()
	select {
	case got := <-answered:
		if got != [2]bool{false, true} {
			t.Errorf("Searching = in process %v, Redis only %v; want the served version's false, true", got[0], got[1])
		}
	case <-time.After(10 * searchingWait):
		t.Fatalf("Searching still waiting for a hung staleness check after %v", 10*searchingWait)
	}
}

// TestOwnBuildSmallFlat: the index a worker builds for itself (`assay
// dev`, a release's --corpus) has index.vector's layout, as `assay index`
// does: by default (hnsw+small-flat, round 43) Hollin's groups under an
// eighth of the chunks (partners, finance, the two partner firms) get FLAT
// indexes of their vectors beside public's and staff's graphs; with
// index.vector hnsw only public and staff have indexes of their own.
func TestOwnBuildSmallFlat(t *testing.T) {
	srv := redistest.Start(t)
	small := []string{"finance", "partner:brook-street", "partner:calder-fix", "partners"}
	for _, vector := range []string{"", config.VectorHNSW} {
		name := redistest.Name("own")
		cfg := redistest.IndexConfig(t, srv.Addr, name)
		cfg.Index.Corpus = "../../../testdata/hollin/corpus.jsonl"
		if vector != "" {
			cfg.Index.Vector = vector
		}
		l, err := Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), true)
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		ix, err := redisearch.Open(context.Background(), srv.Client(t), name, redisearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m := ix.RedisManifest()
		for _, g := range small {
			if has := slices.Contains(m.VectorGroups, g); has != (vector == "") {
				t.Errorf("a worker's own build, index.vector %q: vector groups %q (FLAT %q), %s among them: %v", cmp.Or(vector, cfg.Index.Vector), m.VectorGroups, m.VectorGroupsFlat, g, has)
			}
			if vector == "" && !slices.Contains(m.VectorGroupsFlat, g) {
				t.Errorf("a worker's own build: FLAT vector groups %q lack %s (groups %q)", m.VectorGroupsFlat, g, m.VectorGroups)
			}
		}
	}
}

// TestOwnBuildServesPlainHNSW: an index built before round 43 (plain
// hnsw: no FLAT indexes for the groups under an eighth of the chunks) of
// the worker's own corpus is served as it is — its manifest does not
// record its layout (before round 44), so a worker that builds for
// itself has nothing to compare and does not rebuild it — and a small
// group's caller (finance) gets from its vector leg, through the whole
// graph with the ACL clause, the chunks the hnsw+small-flat build's FLAT
// index gives it.
func TestOwnBuildServesPlainHNSW(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	const hollin = "../../../testdata/hollin/corpus.jsonl"
	hits := map[string][]string{}
	for _, vector := range []string{"hnsw", config.VectorSmallFlat} {
		name := redistest.Name("plain")
		cfg := redistest.IndexConfig(t, srv.Addr, name) // the worker's: index.vector's default
		cfg.Index.Corpus = hollin
		buildLayout(t, cfg, vector)
		forgetLayout(t, srv, name)
		l, err := Open(ctx, cfg, discard, true)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ix, ok := l.Current().(*redisearch.Index)
		if !ok {
			t.Fatalf("%s: current index %T, want *redisearch.Index", vector, l.Current())
		}
		m := ix.RedisManifest()
		if m.Version != 1 {
			t.Errorf("%s: served version %d, want 1 (the index built, not a rebuild)", vector, m.Version)
		}
		if flat := slices.Contains(m.VectorGroupsFlat, "finance"); flat != (vector == config.VectorSmallFlat) {
			t.Errorf("%s: FLAT groups %q: finance's %v", vector, m.VectorGroupsFlat, flat)
		}
		emb, _, err := EmbedderFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"how much did the X200 jar recall cost", "supplier invoice payment terms", "quarterly budget"} {
			vecs, err := emb.Embed(ctx, []string{q})
			if err != nil {
				t.Fatal(err)
			}
			hs, _, err := ix.SearchVector(ctx, vecs[0], backend.Filter{Groups: []string{"finance"}}, 5)
			if err != nil {
				t.Fatalf("%s: %v", vector, err)
			}
			if len(hs) == 0 {
				t.Errorf("%s: %q: no hits for finance", vector, q)
			}
			var ids []string
			for _, h := range hs {
				ids = append(ids, h.ChunkID)
			}
			hits[vector] = append(hits[vector], strings.Join(ids, " "))
		}
	}
	if !slices.Equal(hits["hnsw"], hits[config.VectorSmallFlat]) {
		t.Errorf("finance's vector hits: plain hnsw %q, %s %q", hits["hnsw"], config.VectorSmallFlat, hits[config.VectorSmallFlat])
	}
}

// buildLayout builds cfg's corpus into its index with index.vector
// vector, as `assay index --vector` would, not as cfg's worker would.
func buildLayout(t *testing.T, cfg config.Config, vector string) {
	t.Helper()
	ctx := context.Background()
	cfg.Index.Vector = vector
	src, err := NewSource(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	set, err := DefaultBuild(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := src.BuildRediSearch(ctx, cfg.Index.Corpus, set); err != nil {
		t.Fatal(err)
	}
}

// forgetLayout takes the vector layout out of the manifest of index
// name's version 1, as an index built before round 44 has it.
func forgetLayout(t *testing.T, srv *redistest.Server, name string) {
	t.Helper()
	ctx := context.Background()
	rdb := srv.Client(t)
	keys, err := rdb.Keys(ctx, "*"+name+"*v1:manifest").Result()
	if err != nil || len(keys) != 1 {
		t.Fatalf("manifest keys of %s: %q, %v", name, keys, err)
	}
	raw, err := rdb.Get(ctx, keys[0]).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["vector_layout"]; !ok {
		t.Fatalf("manifest %s records no vector_layout: %s", keys[0], raw)
	}
	delete(m, "vector_layout")
	raw, _ = json.Marshal(m)
	if err := rdb.Set(ctx, keys[0], raw, 0).Err(); err != nil {
		t.Fatal(err)
	}
}

// TestOwnBuildLayoutChanged: an index that records another vector layout
// than index.vector names (round 44 on) is rebuilt by a worker that builds
// for itself, as for another corpus or embedder, and served as it is,
// with a warning naming both layouts, by a worker that does not.
func TestOwnBuildLayoutChanged(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	const hollin = "../../../testdata/hollin/corpus.jsonl"
	name := redistest.Name("layout")
	cfg := redistest.IndexConfig(t, srv.Addr, name) // index.vector's default, hnsw+small-flat
	cfg.Index.Corpus = hollin
	buildLayout(t, cfg, config.VectorHNSW)

	serve := func(cfg config.Config, build bool) (redisearch.Manifest, string) {
		var logged strings.Builder
		l, err := Open(ctx, cfg, slog.New(slog.NewTextHandler(&logged, nil)), build)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ix, ok := l.Current().(*redisearch.Index)
		if !ok {
			t.Fatalf("current index %T, want *redisearch.Index", l.Current())
		}
		return ix.RedisManifest(), logged.String()
	}
	// A worker serving an index someone else builds: the same version,
	// and a warning.
	external := cfg
	external.Index.Corpus = ""
	m, logged := serve(external, false)
	if m.Version != 1 || m.VectorLayout != config.VectorHNSW {
		t.Errorf("a worker that does not build: version %d, layout %q; want version 1, hnsw, served as built", m.Version, m.VectorLayout)
	}
	if !strings.Contains(logged, "level=WARN") || !strings.Contains(logged, "built=hnsw") || !strings.Contains(logged, "index.vector="+config.VectorSmallFlat) {
		t.Errorf("a worker that does not build logged %q; want a warning naming both layouts", logged)
	}
	// A worker that builds for itself rebuilds, with index.vector's layout.
	m, logged = serve(cfg, true)
	if m.Version != 2 || m.VectorLayout != config.VectorSmallFlat || !slices.Contains(m.VectorGroupsFlat, "finance") {
		t.Errorf("a worker that builds: version %d, layout %q, FLAT groups %q; want a rebuild (version 2) with %s", m.Version, m.VectorLayout, m.VectorGroupsFlat, config.VectorSmallFlat)
	}
	if !strings.Contains(logged, "index.vector changed") {
		t.Errorf("a worker that builds logged %q; want the reason, index.vector changed", logged)
	}
	// Now they agree: served as it is, nothing to warn of.
	m, logged = serve(external, false)
	if m.Version != 2 || strings.Contains(logged, "level=WARN") {
		t.Errorf("layouts agreeing: version %d, logged %q; want version 2 and no warning", m.Version, logged)
	}
}
