package redisearch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
)

// hitCorpus is matchedCorpus with chunks that test the hit field's
// value: empty texts (found by their titles), titles holding the
// value's separator, commas and digits, dates and none.
func hitCorpus() []corpus.Chunk {
	chunks := matchedCorpus(5, 300)
	for i, title := range []string{"zorbex kettle, public\x1f7\x1f2024", "kettle descale", "zorbex \x1f\x1f pump 12", "valve"} {
		acl := []string{"public"}
		if i%2 == 1 {
			acl = []string{"secret", "staff"}
		}
		updated := ""
		if i < 2 {
			updated = fmt.Sprintf("2024-0%d-15", i+1)
		}
		text := ""
		if i == 3 {
			text = "kettle valve water"
		}
		id := fmt.Sprintf("h%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: title, Text: text, Updated: updated,
			Status: corpus.Current, Authority: 1, ACL: acl})
	}
	return chunks
}

// TestHitReturn: in an index built with the hit field (Manifest
// HitSortable) the searches carry their hits' result fields too, and
// HitMeta answers for the legs' fused hits without one HMGET; its
// answers (visibility, status, authority, document, title, date,
// emptiness) are those of the same index read with one HMGET a hit,
// of an index built with the meta field alone (round 41's p41-meta
// format) and of one built with neither, and the chunks' own, for
// callers of every group, of each one (the groups' indexes) and of
// several, on the Hollin corpus and a generated one with overlapping
// ACLs and empty chunks. Another caller's HitMeta of the same kept
// hits says visible exactly per the ACL.
func TestHitReturn(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	hc := &hmgetCounter{}
	rdb.AddHook(hc)
	ctx := context.Background()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	hollin, _ := hollinChunks(t)
	const k = 30
	for ci, chunks := range [][]corpus.Chunk{hollin, hitCorpus()} {
		byID := map[string]*corpus.Chunk{}
		for i := range chunks {
			byID[chunks[i].ID] = &chunks[i]
		}
		name := redistest.Name(fmt.Sprintf("hitret%d", ci))
		ix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb})
		if m := ix.RedisManifest(); !m.MetaSortable || !m.HitSortable {
			t.Fatalf("corpus %d: a default build's manifest says meta_sortable %v, hit_sortable %v", ci, m.MetaSortable, m.HitSortable)
		}
		if len(ix.RedisManifest().VectorGroups) == 0 || len(ix.RedisManifest().TextGroups) == 0 {
			t.Fatalf("corpus %d: no vector or text groups: the groups' indexes go untested", ci)
		}
		build := func(tag string, meta, hit bool) string {
			pm, ph := redisearch.SetMetaSortable(meta), redisearch.SetHitSortable(hit)
			defer redisearch.SetMetaSortable(pm)
			defer redisearch.SetHitSortable(ph)
			n := redistest.Name(fmt.Sprintf("%s%d", tag, ci))
			m := buildOpen(t, rdb, n, chunks, redisearch.BuildOptions{Embedder: emb}).RedisManifest()
			if m.MetaSortable != meta || m.HitSortable {
				t.Fatalf("corpus %d: a build with meta %v and no hit field says meta_sortable %v, hit_sortable %v", ci, meta, m.MetaSortable, m.HitSortable)
			}
			info, err := rdb.Do(ctx, "FT.INFO", n).Result()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(fmt.Sprint(info), "identifier hit ") {
				t.Errorf("corpus %d: the index %s built without the hit field has one", ci, tag)
			}
			return n
		}
		metaOnly, none := build("hitmeta", true, false), build("hitnone", false, false)
		if info, _ := rdb.Do(ctx, "FT.INFO", name).Result(); !strings.Contains(fmt.Sprint(info), "identifier hit ") {
			t.Errorf("corpus %d: the default build's index has no hit field", ci)
		}
		compared, kept, empties := 0, 0, 0
		for _, c := range metaCases(chunks) {
			open := func(name string) *redisearch.Index { return openUncached(t, rdb, name) }
			const runs = 4 // the new index; read as before; meta alone; neither
			var hits [runs][2][]backend.Hit
			var got [runs][]backend.HitMeta
			var gets [runs]int64
			var fused []string
			for run, ixName := range []string{name, name, metaOnly, none} {
				ix := open(ixName)
				prev := redisearch.SetHitReturn(run != 1)
				text, vec, f := legs(t, ix, emb, c, k)
				redisearch.SetHitReturn(prev)
				hits[run] = [2][]backend.Hit{text, vec}
				if run == 0 {
					fused = f
					for _, id := range fused {
						if !ix.KeptHit(id) {
							t.Errorf("corpus %d, %v %q: no result fields kept for hit %s", ci, c.groups, c.query, id)
						}
					}
				}
				before := hc.n.Load()
				var err error
				if got[run], err = ix.HitMeta(ctx, fused, c.groups); err != nil {
					t.Fatal(err)
				}
				gets[run] = hc.n.Load() - before
				if run == 0 {
					// ChunkMeta of the same hits reads nothing either.
					before = hc.n.Load()
					if _, err := ix.ChunkMeta(ctx, fused, c.groups); err != nil {
						t.Fatal(err)
					}
					if n := hc.n.Load() - before; n != 0 {
						t.Errorf("corpus %d, %v %q: ChunkMeta after HitMeta sent %d HMGETs", ci, c.groups, c.query, n)
					}
				}
			}
			if len(fused) == 0 {
				continue
			}
			compared++
			kept += len(fused)
			for run := 1; run < runs; run++ {
				if fmt.Sprint(hits[run]) != fmt.Sprint(hits[0]) {
					t.Errorf("corpus %d, %v %q: hits with the hit field returned %v, run %d %v", ci, c.groups, c.query, hits[0], run, hits[run])
				}
				if fmt.Sprintf("%+v", got[run]) != fmt.Sprintf("%+v", got[0]) {
					t.Errorf("corpus %d, %v %q: result fields from the replies %+v, run %d %+v", ci, c.groups, c.query, got[0], run, got[run])
				}
				if gets[run] == 0 {
					t.Errorf("corpus %d, %v %q: run %d's HitMeta sent no HMGET (the comparison compares nothing)", ci, c.groups, c.query, run)
				}
			}
			if gets[0] != 0 {
				t.Errorf("corpus %d, %v %q: HitMeta sent %d HMGETs for hits whose fields the searches returned", ci, c.groups, c.query, gets[0])
			}
			for i, id := range fused {
				ch, m := byID[id], got[0][i]
				want := backend.HitMeta{ChunkMeta: backend.ChunkMeta{Visible: ch.VisibleTo(c.groups), Status: ch.Status, Authority: ch.Authority},
					DocID: ch.DocID, Title: ch.Title, Updated: ch.Updated, Empty: ch.Text == ""}
				if m != want || !m.Visible {
					t.Errorf("corpus %d, %v: %s's result fields %+v, the chunk's %+v", ci, c.groups, id, m, want)
				}
				if m.Empty {
					empties++
				}
			}
			other := open(name)
			legs(t, other, emb, c, k)
			checkOthers(t, ci, fused, byID, func(g []string) ([]backend.HitMeta, error) { return other.HitMeta(ctx, fused, g) },
				func(m backend.HitMeta) bool { return m.Visible })
		}
		if compared < 20 {
			t.Errorf("corpus %d: only %d searches had hits to compare", ci, compared)
		}
		if ci == 1 && empties == 0 {
			t.Errorf("corpus %d: no empty chunk among the hits (the empty flag goes untested)", ci)
		}
		t.Logf("corpus %d: %d chunks, %d searches with hits, %d hits' result fields from the replies (%d empty)", ci, len(chunks), compared, kept, empties)
	}
}
