package redisearch_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// hmgetCounter counts the HMGET commands a client sends, alone or in
// pipelines.
type hmgetCounter struct{ n atomic.Int64 }

func (h *hmgetCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *hmgetCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.count(cmd)
		return next(ctx, cmd)
	}
}

func (h *hmgetCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			h.count(c)
		}
		return next(ctx, cmds)
	}
}

func (h *hmgetCounter) count(cmd redis.Cmder) {
	if strings.EqualFold(cmd.Name(), "hmget") {
		h.n.Add(1)
	}
}

// metaCase is one search of TestMetaReturn: a caller's groups and a
// query.
type metaCase struct {
	groups []string
	query  string
}

// metaCases are every query of queriesAndGroups for callers of every
// group, of one group each (text and vector groups' own indexes), and
// of public with another.
func metaCases(chunks []corpus.Chunk) []metaCase {
	queries, groups := queriesAndGroups(chunks)
	views := [][]string{groups, {"public"}, {"public", groups[0]}}
	for _, g := range groups {
		views = append(views, []string{g})
	}
	var out []metaCase
	for _, v := range views {
		for _, q := range queries {
			out = append(out, metaCase{v, q})
		}
	}
	return out
}

// legs runs both legs of c in ix, k deep, and returns their hits and
// their ids fused (text first, then the vector leg's new ones).
func legs(t *testing.T, ix *redisearch.Index, emb backend.Embedder, c metaCase, k int) (text, vec []backend.Hit, fused []string) {
	t.Helper()
	ctx := context.Background()
	f := backend.Filter{Groups: c.groups}
	text, err := ix.SearchText(ctx, c.query, f, k)
	if err != nil {
		t.Fatal(err)
	}
	qv, err := emb.Embed(ctx, []string{c.query})
	if err != nil {
		t.Fatal(err)
	}
	if vec, _, err = ix.SearchVector(ctx, qv[0], f, k); err != nil {
		t.Fatal(err)
	}
	for _, h := range append(slices.Clone(text), vec...) {
		if !slices.Contains(fused, h.ChunkID) {
			fused = append(fused, h.ChunkID)
		}
	}
	return text, vec, fused
}

// TestMetaReturn: in an index built with the meta field (Manifest
// MetaSortable, SORTABLE in the version's index and its groups'), the
// searches carry their hits' metadata, and ChunkMeta answers for the
// legs' fused hits without one HMGET; the hits, their scores, the
// metadata (status, authority, visibility) and the fingerprints are
// those of the same index read with one HMGET a candidate (the meta
// field not returned, as before round 41), and the chunks' own, on the
// Hollin corpus and a generated one with overlapping ACLs, for callers
// of every group, of each one (text groups' and vector groups' indexes)
// and of several. An index built without the field (before round 41)
// still answers the same, its ChunkMeta reading HASHes.
func TestMetaReturn(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	hc := &hmgetCounter{}
	rdb.AddHook(hc)
	ctx := context.Background()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	hollin, _ := hollinChunks(t)
	an := terms.New()
	const k = 30
	for ci, chunks := range [][]corpus.Chunk{hollin, matchedCorpus(5, 300)} {
		byID := map[string]*corpus.Chunk{}
		for i := range chunks {
			byID[chunks[i].ID] = &chunks[i]
		}
		name := redistest.Name(fmt.Sprintf("metaret%d", ci))
		ix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb})
		if !ix.RedisManifest().MetaSortable {
			t.Fatalf("corpus %d: a default build's manifest has no meta_sortable", ci)
		}
		if len(ix.RedisManifest().VectorGroups) == 0 || len(ix.RedisManifest().TextGroups) == 0 {
			t.Fatalf("corpus %d: no vector or text groups (%v, %v): the groups' indexes go untested", ci, ix.RedisManifest().VectorGroups, ix.RedisManifest().TextGroups)
		}
		old := redisearch.SetMetaSortable(false)
		oldName := redistest.Name(fmt.Sprintf("metaold%d", ci))
		oldIx := buildOpen(t, rdb, oldName, chunks, redisearch.BuildOptions{Embedder: emb})
		redisearch.SetMetaSortable(old)
		if oldIx.RedisManifest().MetaSortable {
			t.Fatalf("corpus %d: a build without the meta field says meta_sortable", ci)
		}
		info, err := rdb.Do(ctx, "FT.INFO", oldName).Result()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(fmt.Sprint(info), "identifier meta ") {
			t.Errorf("corpus %d: the old-schema index has a meta field", ci)
		}
		compared, kept := 0, 0
		for _, c := range metaCases(chunks) {
			// Fresh Indexes without a chunk cache: whatever ChunkMeta
			// answers comes from this search's reply or from Redis.
			open := func(name string) *redisearch.Index { return openUncached(t, rdb, name) }
			var hits [3][2][]backend.Hit
			var metas [3][]backend.ChunkMeta
			var prints [3][]uint64
			var gets [3]int64
			var fused []string
			for run, ixName := range []string{name, name, oldName} {
				ix := open(ixName)
				prev := redisearch.SetMetaReturn(run != 1) // run 1: the new index read as before
				text, vec, f := legs(t, ix, emb, c, k)
				redisearch.SetMetaReturn(prev)
				hits[run] = [2][]backend.Hit{text, vec}
				if run == 0 {
					fused = f
					for _, id := range fused {
						if !ix.KeptMeta(id) {
							t.Errorf("corpus %d, %v %q: no metadata kept for hit %s", ci, c.groups, c.query, id)
						}
					}
				}
				before := hc.n.Load()
				if metas[run], err = ix.ChunkMeta(ctx, fused, c.groups); err != nil {
					t.Fatal(err)
				}
				gets[run] = hc.n.Load() - before
				prints[run] = ix.Fingerprints(fused)
			}
			if len(fused) == 0 {
				continue
			}
			compared++
			kept += len(fused)
			for run := 1; run < 3; run++ {
				if fmt.Sprint(hits[run]) != fmt.Sprint(hits[0]) {
					t.Errorf("corpus %d, %v %q: hits with the meta field returned %v, run %d %v", ci, c.groups, c.query, hits[0], run, hits[run])
				}
				if fmt.Sprint(metas[run]) != fmt.Sprint(metas[0]) || fmt.Sprint(prints[run]) != fmt.Sprint(prints[0]) {
					t.Errorf("corpus %d, %v %q: metadata from the replies %v %v, run %d %v %v", ci, c.groups, c.query, metas[0], prints[0], run, metas[run], prints[run])
				}
			}
			if gets[0] != 0 {
				t.Errorf("corpus %d, %v %q: ChunkMeta sent %d HMGETs for hits whose metadata the searches returned", ci, c.groups, c.query, gets[0])
			}
			if gets[1] == 0 || gets[2] == 0 {
				t.Errorf("corpus %d, %v %q: without the meta field returned, ChunkMeta sent %d / %d HMGETs (want some: the comparison compares nothing)", ci, c.groups, c.query, gets[1], gets[2])
			}
			for i, id := range fused {
				ch, m := byID[id], metas[0][i]
				if m.Status != ch.Status || m.Authority != ch.Authority || !m.Visible || !ch.VisibleTo(c.groups) {
					t.Errorf("corpus %d, %v: %s's metadata %+v, the chunk says status %s authority %g acl %v", ci, c.groups, id, m, ch.Status, ch.Authority, ch.ACL)
				}
				if want := backend.Fingerprint(an.Terms(ch.Text)); prints[0][i] != want {
					t.Errorf("corpus %d: %s's fingerprint %d, want %d", ci, id, prints[0][i], want)
				}
			}
			// Another caller's view of the same hits: visibility is
			// the caller's, from the ACL the reply carried.
			other := open(name)
			legs(t, other, emb, c, k)
			checkOthers(t, ci, fused, byID, func(g []string) ([]backend.ChunkMeta, error) { return other.ChunkMeta(ctx, fused, g) },
				func(m backend.ChunkMeta) bool { return m.Visible })
		}
		if compared < 20 {
			t.Errorf("corpus %d: only %d searches had hits to compare (the test tests little)", ci, compared)
		}
		t.Logf("corpus %d: %d chunks, %d searches with hits, %d hits' metadata from the replies", ci, len(chunks), compared, kept)
	}
}

// openUncached opens index name without a chunk cache: whatever its
// ChunkMeta and HitMeta answer comes from a search's reply or Redis.
func openUncached(t *testing.T, rdb *redis.Client, name string) *redisearch.Index {
	t.Helper()
	ix, err := redisearch.Open(context.Background(), rdb, name, redisearch.Options{CacheChunks: -1})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// checkOthers checks that other callers (nobody, public) see the fused
// hits visible exactly per their ACLs, as metas (ChunkMeta or HitMeta,
// on the entries a search kept) and visible say.
func checkOthers[T any](t *testing.T, ci int, fused []string, byID map[string]*corpus.Chunk, metas func(groups []string) ([]T, error), visible func(T) bool) {
	t.Helper()
	for _, g := range [][]string{{"nobody"}, {"public"}} {
		ms, err := metas(g)
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range fused {
			if v := visible(ms[i]); v != byID[id].VisibleTo(g) {
				t.Errorf("corpus %d: %s as %v: visible %v, its ACL %v", ci, id, g, v, byID[id].ACL)
			}
		}
	}
}

// BenchmarkChunkMetaHotPath: a hybrid search's path through the
// backend on the generated corpus (320 chunks, k 50), as the caller of
// every group: the BM25 and vector legs, then ChunkMeta for their fused
// hits, with nothing kept from an earlier search; "hmget" reads the
// metadata as before round 41 (the meta field not returned, one HMGET a
// hit), "returned" from the searches' replies. The client's and the
// server's time alike (Redis on the same machine).
func BenchmarkChunkMetaHotPath(b *testing.B) {
	srv := redistest.Start(b)
	rdb := srv.Client(b)
	ctx := context.Background()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	chunks := matchedCorpus(5, 300)
	ix := buildOpen(b, rdb, redistest.Name("metabench"), chunks, redisearch.BuildOptions{Embedder: emb})
	queries, groups := queriesAndGroups(chunks)
	qv, err := emb.Embed(ctx, queries)
	if err != nil {
		b.Fatal(err)
	}
	f := backend.Filter{Groups: groups}
	const k = 50
	for _, mode := range []string{"hmget", "returned"} {
		b.Run(mode, func(b *testing.B) {
			prev := redisearch.SetMetaReturn(mode == "returned")
			defer redisearch.SetMetaReturn(prev)
			i := 0
			for b.Loop() {
				ix.ForgetMeta()
				q := i % len(queries)
				i++
				text, err := ix.SearchText(ctx, queries[q], f, k)
				if err != nil {
					b.Fatal(err)
				}
				vec, _, err := ix.SearchVector(ctx, qv[q], f, k)
				if err != nil {
					b.Fatal(err)
				}
				var fused []string
				for _, h := range append(text, vec...) {
					if !slices.Contains(fused, h.ChunkID) {
						fused = append(fused, h.ChunkID)
					}
				}
				if _, err := ix.ChunkMeta(ctx, fused, groups); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
