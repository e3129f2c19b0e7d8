package redisearch

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/redis/go-redis/v9"
)

// partWords are the words of the generated chunks of the group index
// tests (TestVectorGroupGraphs, TestTextGroupSearch).
var partWords = strings.Fields("pump valve seal gasket bearing rotor stator coil relay fuse panel cable sensor probe gauge meter filter nozzle hose clamp bracket hinge latch spring lever gear shaft belt pulley motor")

// TestVectorGroupGraphs: a build gives each group that at least
// 1/vectorGroupShare of the chunks name an HNSW graph of its chunks (an
// index whose FILTER keeps them), a restricted caller each of whose groups
// has one walks those graphs (anyone else the whole index), the results are
// the exact nearest visible chunks on a corpus small enough for the walk
// to be exact, and a rebuild drops the old version's graphs.
func TestVectorGroupGraphs(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(33, 20))
	words := partWords
	// public about half, staff a quarter, "odd \"x\"" a quarter (a name
	// no FILTER string can hold: no graph), team-a 5% (too few for one).
	acls := [][]string{{"public"}, {"public"}, {"public"}, {"public", "staff"}, {"staff"}, {"staff", "public"}, {`odd "x"`}, {`odd "x"`, "public"}, {"public"}, {"staff"}, {`odd "x"`}, {"public"}}
	var chunks []corpus.Chunk
	for i := range 480 {
		var b strings.Builder
		for range 8 + r.IntN(12) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		acl := acls[r.IntN(len(acls))]
		if i%20 == 0 {
			acl = []string{"team-a"}
		}
		id := fmt.Sprintf("d%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: id, Text: b.String(), Status: corpus.Current, Authority: 1, ACL: acl})
	}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	name := redistest.Name("vgroups")
	var ix *Index
	// Three builds: both groups walk graphs (flatGroupMax 0), staff
	// (about 150 chunks) has a FLAT index and public (about 300) a graph,
	// both have FLAT indexes (the default on a corpus this small).
	defer func(m int) { flatGroupMax = m }(flatGroupMax)
	for _, fc := range []struct {
		max  int
		flat []string
	}{{0, nil}, {200, []string{"staff"}}, {flatGroupMax, []string{"public", "staff"}}} {
		flatGroupMax = fc.max
		if _, _, err := Build(ctx, rdb, name, chunks, BuildOptions{Embedder: emb}); err != nil {
			t.Fatal(err)
		}
		var err error
		if ix, err = Open(ctx, rdb, name, Options{}); err != nil {
			t.Fatal(err)
		}
		if got, want := ix.m.VectorGroups, []string{"public", "staff"}; !slices.Equal(got, want) {
			t.Fatalf("vector groups %q, want %q", got, want)
		}
		if !slices.Equal(ix.m.VectorGroupsFlat, fc.flat) {
			t.Fatalf("flatGroupMax %d: FLAT vector groups %q, want %q", fc.max, ix.m.VectorGroupsFlat, fc.flat)
		}
		// rv35: a reader of schema 5 sends every group's index EF_RUNTIME,
		// which a FLAT index refuses: an index with a FLAT group is schema
		// 6, which such a reader refuses to open; one without stays 5.
		if want := map[bool]int{false: 5, true: 6}[len(fc.flat) > 0]; ix.m.SchemaVersion != want {
			t.Errorf("flatGroupMax %d: schema version %d, want %d", fc.max, ix.m.SchemaVersion, want)
		}
		uses := func(index string) int { return indexUses(t, rdb, index) }
		for i, g := range ix.m.VectorGroups {
			n := 0
			for _, c := range chunks {
				if slices.Contains(c.ACL, g) {
					n++
				}
			}
			info, err := rdb.FTInfo(ctx, vectorGroupIndex(ix.vn, i)).Result()
			if err != nil {
				t.Fatal(err)
			}
			if info.NumDocs != n {
				t.Errorf("group %s's graph holds %d chunks, want %d", g, info.NumDocs, n)
			}
			raw, err := rdb.Do(ctx, "FT.INFO", vectorGroupIndex(ix.vn, i)).Result()
			if err != nil {
				t.Fatal(err)
			}
			if flat := strings.Contains(fmt.Sprint(raw), "FLAT"); flat != slices.Contains(fc.flat, g) {
				t.Errorf("flatGroupMax %d: group %s's index FLAT: %v, want %v", fc.max, g, flat, !flat)
			}
		}
		texts := make([]string, len(chunks))
		for i := range chunks {
			texts[i] = backend.EmbedText(&chunks[i])
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		qvecs, err := emb.Embed(ctx, []string{"pump valve seal", "relay fuse cable", "gear shaft belt motor", "sensor probe"})
		if err != nil {
			t.Fatal(err)
		}
		pub, staff := vectorGroupIndex(ix.vn, 0), vectorGroupIndex(ix.vn, 1)
		for _, c := range []struct {
			groups []string
			graphs []string // the vector groups' indexes the leg asks
			main   bool     // and the whole index
		}{
			{[]string{"public"}, []string{pub}, false},
			{[]string{"staff", "public"}, []string{pub, staff}, false},
			{[]string{"public", "team-a"}, nil, true}, // a group without a graph: the whole graph
			{[]string{"team-a"}, nil, true},
			{[]string{`odd "x"`, "staff"}, nil, true},
			{[]string{"public", "staff", "team-a", `odd "x"`}, nil, true}, // sees every chunk
		} {
			if _, err := ix.set(ctx, c.groups); err != nil { // the caller's statistics, read once and kept
				t.Fatal(err)
			}
			for _, q := range qvecs {
				before := map[string]int{ix.vn: uses(ix.vn), pub: uses(pub), staff: uses(staff)}
				const k = 12
				hits, _, err := ix.SearchVector(ctx, q, backend.Filter{Groups: c.groups}, k)
				if err != nil {
					t.Fatalf("%v: %v", c.groups, err)
				}
				for index, n := range before {
					asked := uses(index) - n - 1 // FT.INFO counts as a use
					want := slices.Contains(c.graphs, index) || index == ix.vn && c.main
					if (asked > 0) != want {
						t.Errorf("%v: %s asked %d times, want asked: %v", c.groups, index, asked, want)
					}
				}
				checkExactHits(t, c.groups, q, hits, chunks, vecs, k)
			}
		}
	}
	// A version's graphs go with it: at the build after the one that
	// replaced it (the replacing build keeps it for requests in flight).
	for range 2 {
		if _, _, err := Build(ctx, rdb, name, chunks[:400], BuildOptions{Embedder: emb}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := rdb.Do(ctx, "FT._LIST").StringSlice()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range list {
		if strings.HasPrefix(n, ix.vn+":") || n == ix.vn {
			t.Errorf("index %s of the replaced version is left", n)
		}
	}
	ix2, err := Open(ctx, rdb, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(list, vectorGroupIndex(ix2.vn, 0)) {
		t.Errorf("no graph %s in %q", vectorGroupIndex(ix2.vn, 0), list)
	}
	// A binary older than the graphs replaces a version by dropping its
	// main index and statistics only: the next build sweeps the graphs it
	// left, and leaves other indexes' alone.
	other := redistest.Name("vgroups-other")
	if _, _, err := Build(ctx, rdb, other, chunks[:200], BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	ix3, err := Open(ctx, rdb, other, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rdb.FTDropIndexWithArgs(ctx, ix2.vn, &redis.FTDropIndexOptions{DeleteDocs: true})
	dropStats(ctx, rdb, ix2.vn)
	rdb.Del(ctx, currentKey(name)) // the older binary's version: nothing of it is ours to drop
	if _, _, err := Build(ctx, rdb, name, chunks[:300], BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	if list, err = rdb.Do(ctx, "FT._LIST").StringSlice(); err != nil {
		t.Fatal(err)
	}
	for _, n := range list {
		if strings.HasPrefix(n, ix2.vn+":") {
			t.Errorf("graph %s of a version replaced by an older binary is left", n)
		}
	}
	if !slices.Contains(list, vectorGroupIndex(ix3.vn, 0)) {
		t.Errorf("another index's graph %s was dropped: %q", vectorGroupIndex(ix3.vn, 0), list)
	}
}

// indexUses is FT.INFO's number_of_uses of index (FT.INFO counts as one).
func indexUses(t *testing.T, rdb *redis.Client, index string) int {
	t.Helper()
	info, err := rdb.FTInfo(context.Background(), index).Result()
	if err != nil {
		t.Fatalf("FT.INFO %s: %v", index, err)
	}
	return info.NumberOfUses
}

// checkExactHits fails unless hits are the k chunks nearest to q (by
// BFLOAT16 inner product; vecs[i] is chunks[i]'s vector) among those
// groups may see, a tie in either order.
func checkExactHits(t *testing.T, groups []string, q []float32, hits []backend.Hit, chunks []corpus.Chunk, vecs [][]float32, k int) {
	t.Helper()
	var exact []backend.Hit
	for i := range chunks {
		if corpus.Visible(chunks[i].ACL, groups) {
			exact = append(exact, backend.Hit{ChunkID: chunks[i].ID, Score: float64(dotBF16(q, vecs[i]))})
		}
	}
	exact = backend.SortHits(exact, k)
	if len(hits) != len(exact) {
		t.Fatalf("%v: %d hits, want %d", groups, len(hits), len(exact))
	}
	for i := range hits {
		if hits[i].ChunkID != exact[i].ChunkID && math.Abs(hits[i].Score-exact[i].Score) > 1e-3 {
			t.Errorf("%v: hit %d is %s (%.4f), want %s (%.4f)", groups, i, hits[i].ChunkID, hits[i].Score, exact[i].ChunkID, exact[i].Score)
		}
	}
}

// dotBF16 is the inner product of a and b rounded to BFLOAT16 as the
// index stores them.
func dotBF16(a, b []float32) float32 {
	ab, bb := vectorBytes(a, BFloat16), vectorBytes(b, BFloat16)
	fa, fb := floats(ab, len(a)), floats(bb, len(b))
	var s float32
	for i := range fa {
		s += fa[i] * fb[i]
	}
	return s
}
