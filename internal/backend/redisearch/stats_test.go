package redisearch_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// overlappingACLs is a generated corpus of n chunks whose ACLs overlap the
// way bench-scale's do (public on about half, staff on a quarter, one to
// three of a few teams, a group sometimes named twice), over a small
// vocabulary so that every term is held by chunks of several groups.
func overlappingACLs(seed uint64, n int) []corpus.Chunk {
	r := rand.New(rand.NewPCG(seed, 1))
	words := strings.Fields("kettle water descale motor warranty pump filter valve brook street calder rates hour ledger north region quoxil")
	teams := []string{"team-a", "team-b", "team-c", "team-d"}
	out := make([]corpus.Chunk, n)
	for i := range out {
		var acl []string
		if r.Float64() < 0.5 {
			acl = append(acl, "public")
		}
		if r.Float64() < 0.25 {
			acl = append(acl, "staff")
		}
		for range 1 + r.IntN(3) {
			acl = append(acl, teams[r.IntN(len(teams))]) // repeats on purpose
		}
		var text []string
		for range 1 + r.IntN(6) {
			text = append(text, words[r.IntN(len(words))])
		}
		id := fmt.Sprintf("d%03d", i)
		out[i] = corpus.Chunk{ID: id + "#0", DocID: id, Title: words[r.IntN(len(words))], Text: strings.Join(text, " "),
			Status: corpus.Current, Authority: 1, ACL: acl}
	}
	return out
}

// visibleDF counts, chunk by chunk, the chunks visible to groups that
// hold each term: what every principal's document frequency must be.
func visibleDF(chunks []corpus.Chunk, groups []string) map[string]int {
	an := terms.New()
	df := map[string]int{}
	for i := range chunks {
		c := &chunks[i]
		if !corpus.Visible(c.ACL, groups) {
			continue
		}
		all := append(an.Terms(c.Title), an.Terms(c.Text)...)
		for _, t := range slices.Compact(slices.Sorted(slices.Values(all))) {
			df[t]++
		}
	}
	return df
}

// TestGroupDocFreqTablesAreExact: the build writes, per group, the number
// of chunks whose ACL names the group holding each term (a chunk naming
// the group twice counts once); callers whose groups are one group read
// their document frequencies from it without a count, and every caller's
// document frequencies, one group or several, are the exhaustive count
// over the chunks it may see.
func TestGroupDocFreqTablesAreExact(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	chunks := overlappingACLs(7, 300)
	name := redistest.Name("groupdf")
	m, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"public", "staff", "team-a", "team-b", "team-c", "team-d"} {
		key := fmt.Sprintf("assay:%s:v%d:df:%s", name, m.Version, g)
		got, err := rdb.HGetAll(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		want := visibleDF(chunks, []string{g})
		if len(got) != len(want) {
			t.Errorf("%s: %d terms, want %d", key, len(got), len(want))
		}
		for term, n := range want {
			if got[term] != strconv.Itoa(n) {
				t.Errorf("%s[%s] = %q, want %d", key, term, got[term], n)
			}
		}
	}

	counter := &searchCounter{}
	rdb.AddHook(counter)
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	vocab := slices.Sorted(func(yield func(string) bool) {
		for term := range visibleDF(chunks, []string{"public", "staff", "team-a", "team-b", "team-c", "team-d"}) {
			if !yield(term) {
				return
			}
		}
	})
	vocab = append(vocab, "nosuchterm")
	for _, groups := range [][]string{{"public"}, {"team-c"}, {"team-b", "team-b"}, {"nobody"},
		{"public", "staff"}, {"team-a", "team-b"}, {"public", "team-d", "staff"}, {"public", "staff", "team-a", "team-b", "team-c", "team-d"}} {
		want := visibleDF(chunks, groups)
		v := ix.Visible(groups)
		before := counter.n.Load()
		for _, term := range vocab {
			if got := v.DocFreq(term); got != want[term] {
				t.Errorf("groups %v: DocFreq(%s) = %d, want %d", groups, term, got, want[term])
			}
		}
		sent := counter.n.Load() - before
		if one := len(slices.Compact(slices.Sorted(slices.Values(groups)))) == 1; one && sent != 0 {
			t.Errorf("groups %v: %d FT.SEARCH for %d document frequencies, want none (the group's table)", groups, sent, len(vocab))
		}
	}
}

// TestOpenRefusesAnOlderSchema: an index built before the per-group
// document frequency tables (schema 3) is refused at Open with a message
// that says to rebuild it.
func TestOpenRefusesAnOlderSchema(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("schema")
	m, _, err := redisearch.Build(ctx, rdb, name, overlappingACLs(1, 20), redisearch.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("assay:%s:v%d:manifest", name, m.Version)
	raw, err := rdb.Get(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`"schema_version":%d`, m.SchemaVersion)
	if !strings.Contains(raw, want) {
		t.Fatalf("manifest %s lacks %s", raw, want)
	}
	if err := rdb.Set(ctx, key, strings.Replace(raw, want, `"schema_version":3`, 1), 0).Err(); err != nil {
		t.Fatal(err)
	}
	_, err = redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if !errs.Is(errs.Invalid, err) || !strings.Contains(err.Error(), "schema version 3") || !strings.Contains(err.Error(), "rebuild") {
		t.Errorf("Open of a schema-3 index: %v; want invalid, naming schema version 3 and asking for a rebuild", err)
	}
}

// TestOpenReadsSchema4FLOAT32: an index of schema 4 (FLOAT32 vectors, no
// vector_type in its manifest) still opens, and its vector leg sends
// FLOAT32 query vectors (a BFLOAT16 blob would be refused by the engine
// as the wrong size); the same index built now is BFLOAT16 and finds the
// same nearest chunk.
func TestOpenReadsSchema4FLOAT32(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	chunks := overlappingACLs(1, 40)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	q, err := emb.Embed(ctx, []string{backend.EmbedText(&chunks[3])})
	if err != nil {
		t.Fatal(err)
	}
	f := backend.Filter{Groups: []string{"public", "staff", "team-a", "team-b", "team-c", "team-d"}}
	nearest := map[string]string{}
	for _, typ := range []string{redisearch.Float32, redisearch.BFloat16} {
		old := redisearch.SetHNSWType(typ)
		name := redistest.Name("schema4")
		m, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb})
		redisearch.SetHNSWType(old)
		if err != nil {
			t.Fatal(err)
		}
		if typ == redisearch.Float32 { // make it what a schema-4 build wrote
			key := fmt.Sprintf("assay:%s:v%d:manifest", name, m.Version)
			raw, err := rdb.Get(ctx, key).Result()
			if err != nil {
				t.Fatal(err)
			}
			raw = strings.Replace(raw, fmt.Sprintf(`"schema_version":%d`, m.SchemaVersion), `"schema_version":4`, 1)
			raw = strings.Replace(raw, `,"vector_type":"FLOAT32"`, "", 1)
			if strings.Contains(raw, "vector_type") || !strings.Contains(raw, `"schema_version":4`) {
				t.Fatalf("manifest not made schema 4: %s", raw)
			}
			if err := rdb.Set(ctx, key, raw, 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
		ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
		if err != nil {
			t.Fatalf("Open of a %s index: %v", typ, err)
		}
		hits, _, err := ix.SearchVector(ctx, q[0], f, 3)
		if err != nil || len(hits) == 0 {
			t.Fatalf("%s: SearchVector = %v, %v", typ, hits, err)
		}
		nearest[typ] = hits[0].ChunkID
	}
	if nearest[redisearch.Float32] != chunks[3].ID || nearest[redisearch.BFloat16] != chunks[3].ID {
		t.Errorf("nearest chunk to chunk %s's own vector: FLOAT32 (schema 4) %s, BFLOAT16 %s", chunks[3].ID, nearest[redisearch.Float32], nearest[redisearch.BFloat16])
	}
}
