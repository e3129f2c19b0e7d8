package redisearch

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
)

// fixedEmbedder returns vectors computed once, so that a measured build
// costs the client almost nothing but its analysis and writes.
type fixedEmbedder struct {
	id  string
	dim int
	vec map[string][]float32
}

func (e *fixedEmbedder) ID() string { return e.id }
func (e *fixedEmbedder) Dim() int   { return e.dim }
func (e *fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := e.vec[t]
		if !ok {
			return nil, fmt.Errorf("fixedEmbedder: no vector for %.40q", t)
		}
		out[i] = v
	}
	return out, nil
}

// splitVectors embeds the chunks with the builtin embedder, or reads the
// vectors a previous run cached in path (little-endian float32s).
func splitVectors(t *testing.T, chunks []corpus.Chunk, path string) [][]float32 {
	t.Helper()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	dim := emb.Dim()
	if b, err := os.ReadFile(path); err == nil && len(b) == 4*dim*len(chunks) {
		out := make([][]float32, len(chunks))
		for i := range out {
			out[i] = floats(b[4*dim*i:4*dim*(i+1)], dim)
		}
		return out
	}
	texts := make([]string, len(chunks))
	for i := range chunks {
		texts[i] = backend.EmbedText(&chunks[i])
	}
	vecs, err := emb.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 0, 4*dim*len(chunks))
	for _, v := range vecs {
		b = append(b, vectorBytes(v, Float32)...)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Logf("vector cache %s: %v", path, err)
	}
	return vecs
}

// splitVariant is one build setting of TestBuildSplit.
type splitVariant struct {
	name  string
	apply func() (restore func())
	noVec bool
	flat  bool
}

// splitVariants are the settings TestBuildSplit knows, by name.
func splitVariants() map[string]splitVariant {
	set := func(f func()) func() func() {
		return func() func() {
			om, oc, ot := hnswM, hnswEFConstruction, hnswType
			no, nf, md := noOffsets, noFields, measureDrop
			bs, w := batchSize, writers
			f()
			return func() {
				hnswM, hnswEFConstruction, hnswType = om, oc, ot
				noOffsets, noFields, measureDrop = no, nf, md
				batchSize, writers = bs, w
			}
		}
	}
	none := set(func() {})
	v := map[string]splitVariant{
		"base": {apply: none},
		"text": {apply: none, noVec: true},
		"flat": {apply: none, flat: true},
		"f32":  {apply: set(func() { hnswType = Float32 })},
		// main's schema before round 22: term offsets and field masks.
		"offsets":      {apply: set(func() { noOffsets, noFields = false, false })},
		"text-offsets": {apply: set(func() { noOffsets, noFields = false, false }), noVec: true},
		"nooffsets":    {apply: set(func() { noOffsets, noFields = true, false })},
		"nofields":     {apply: set(func() { noOffsets, noFields = false, true })},
		"nooff+nof":    {apply: set(func() { noOffsets, noFields = true, true })},
		"text-nooff":   {apply: set(func() { noOffsets, noFields = true, true }), noVec: true},
		"notags": {apply: set(func() {
			measureDrop = map[string]bool{fieldACL: true, fieldStatus: true, fieldType: true, fieldProducts: true, fieldEmpty: true}
		}), noVec: true},
		"nonumeric": {apply: set(func() { measureDrop = map[string]bool{fieldAuthority: true, fieldUpdated: true} }), noVec: true},
		"nocontent": {apply: set(func() { measureDrop = map[string]bool{fieldContent: true} }), noVec: true},
		// Only the empty TAG, which almost no chunk has: the HSETs and
		// the document table without any field indexed.
		"minimal": {apply: set(func() {
			measureDrop = map[string]bool{fieldContent: true, fieldACL: true, fieldStatus: true, fieldType: true, fieldProducts: true, fieldAuthority: true, fieldUpdated: true}
		}), noVec: true},
	}
	for _, mc := range [][2]int{{16, 16}, {16, 24}, {12, 32}, {8, 32}, {16, 48}} {
		v[fmt.Sprintf("m%d-ef%d", mc[0], mc[1])] = splitVariant{apply: set(func() { hnswM, hnswEFConstruction = mc[0], mc[1] })}
	}
	for _, b := range []int{64, 128, 512, 1024} {
		v["batch"+strconv.Itoa(b)] = splitVariant{apply: set(func() { batchSize = b })}
	}
	for _, w := range []int{1, 4} {
		v["writers"+strconv.Itoa(w)] = splitVariant{apply: set(func() { writers = w })}
	}
	return v
}

// TestBuildSplit splits a RediSearch build's cost in Redis's one thread:
// each variant (ASSAY_SPLIT_VARIANTS, names in splitVariants) builds the
// corpus of a bench-scale data dir (ASSAY_SPLIT_DATA: corpus.jsonl,
// queries.jsonl, qrels/test.tsv) into a fresh throwaway server with the
// builtin embedder's vectors computed beforehand, and reports Redis's
// main-thread CPU a chunk (INFO cpu) while the chunks are written and in
// all, the wall rate, and what the index answers: the BM25 leg's top 100
// against the first variant's (same ids, same scores), the vector leg's
// recall@10 against exact inner products, nDCG@10 of each leg alone, and
// each leg's p50, for the caller who sees everything and for `public`.
//
//	ASSAY_TEST_REDISEARCH=../shared/redisearch ASSAY_SPLIT_DATA=dir ASSAY_SPLIT_VARIANTS="base text nooffsets" [ASSAY_SPLIT_EVERY=3] [ASSAY_SPLIT_VECTORS=cache file]
func TestBuildSplit(t *testing.T) {
	dir := os.Getenv("ASSAY_SPLIT_DATA")
	names := strings.Fields(os.Getenv("ASSAY_SPLIT_VARIANTS"))
	if dir == "" || len(names) == 0 {
		t.Skip("SKIPPED: build-cost measurement; set ASSAY_SPLIT_DATA (a bench-scale data dir) and ASSAY_SPLIT_VARIANTS")
	}
	all := splitVariants()
	for _, n := range names {
		if _, ok := all[strings.TrimSuffix(n, "!")]; !ok {
			t.Fatalf("ASSAY_SPLIT_VARIANTS: no variant %q", n)
		}
	}
	every := 3
	if s := os.Getenv("ASSAY_SPLIT_EVERY"); s != "" {
		fmt.Sscan(s, &every)
	}
	ctx := context.Background()
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	chunks := ch.SplitAll(docs)
	cache := os.Getenv("ASSAY_SPLIT_VECTORS")
	if cache == "" {
		cache = filepath.Join(t.TempDir(), "vectors")
	}
	start := time.Now()
	vecs := splitVectors(t, chunks, cache)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	fe := &fixedEmbedder{id: emb.ID(), dim: emb.Dim(), vec: make(map[string][]float32, len(chunks))}
	for i := range chunks {
		fe.vec[backend.EmbedText(&chunks[i])] = vecs[i]
	}
	qs, err := eval.LoadQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	qrels, err := eval.LoadQrels(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var queries []eval.Query
	for i, q := range qs {
		if i%every == 0 && len(qrels[q.ID]) > 0 {
			queries = append(queries, q)
		}
	}
	qtexts := make([]string, len(queries))
	for i, q := range queries {
		qtexts[i] = q.Text
	}
	qvecs, err := emb.Embed(ctx, qtexts)
	if err != nil {
		t.Fatal(err)
	}
	allGroups := scaleGroups()
	callers := []struct {
		name   string
		groups []string
	}{{"all", allGroups}, {"public", []string{"public"}}}
	// The exact top 10 by inner product among each caller's visible chunks.
	exact := map[string][][]string{}
	for _, c := range callers {
		for _, q := range qvecs {
			type sc struct {
				id string
				s  float64
			}
			var top []sc
			for i := range chunks {
				if !corpus.Visible(chunks[i].ACL, c.groups) {
					continue
				}
				var d float64
				for j, x := range q {
					d += float64(x) * float64(vecs[i][j])
				}
				top = append(top, sc{chunks[i].ID, d})
			}
			sort.Slice(top, func(a, b int) bool { return top[a].s > top[b].s })
			ids := make([]string, 0, 10)
			for _, s := range top[:min(10, len(top))] {
				ids = append(ids, s.id)
			}
			exact[c.name] = append(exact[c.name], ids)
		}
	}
	docOf := make(map[string]string, len(chunks))
	for i := range chunks {
		docOf[chunks[i].ID] = chunks[i].DocID
	}
	t.Logf("%d chunks, %d queries (every %d-th with judgements), vectors and exact top 10 in %v", len(chunks), len(queries), every, time.Since(start).Round(time.Millisecond))

	srv := redistest.Start(t)
	// A long read timeout: a FLUSHALL of the previous variant's index,
	// or INFO behind it, takes seconds on a loaded machine.
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, Protocol: 2, ReadTimeout: 2 * time.Minute})
	defer rdb.Close()
	cpu := func() float64 {
		info, err := rdb.InfoMap(ctx, "cpu").Result()
		if err != nil {
			t.Fatal(err)
		}
		var u, s float64
		fmt.Sscan(info["CPU"]["used_cpu_user_main_thread"], &u)
		fmt.Sscan(info["CPU"]["used_cpu_sys_main_thread"], &s)
		return u + s
	}
	type answer struct {
		ids    []string
		scores []float64
	}
	var ref map[string][]answer // the first variant's BM25 answers per caller
	for vi, vname := range names {
		v := all[strings.TrimSuffix(vname, "!")]
		restore := v.apply()
		if err := rdb.FlushAll(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		rdb.ConfigResetStat(ctx)
		o := BuildOptions{Embedder: fe}
		if v.noVec {
			o.Embedder = nil
		}
		if v.flat {
			o.Vector = FLAT
		}
		c0 := cpu()
		var cw float64
		var tw time.Duration
		t0 := time.Now()
		o.Progress = func(_ string, done, total int) {
			if done == total {
				cw, tw = cpu(), time.Since(t0)
			}
		}
		name := fmt.Sprintf("split%d", vi)
		_, st, err := Build(ctx, rdb, name, chunks, o)
		took := time.Since(t0)
		c1 := cpu()
		restore()
		if err != nil {
			t.Fatalf("%s: %v", vname, err)
		}
		info, _ := rdb.Do(ctx, "FT.INFO", name).Result()
		sizes := map[string]string{}
		if kv, ok := info.([]any); ok {
			for i := 0; i+1 < len(kv); i += 2 {
				k := fmt.Sprint(kv[i])
				switch k {
				case "inverted_sz_mb", "offset_vectors_sz_mb", "vector_index_sz_mb", "doc_table_size_mb", "num_records":
					sizes[k] = fmt.Sprint(kv[i+1])
				}
			}
		}
		cs, _ := rdb.InfoMap(ctx, "commandstats", "memory").Result()
		n := float64(st.Chunks)
		t.Logf("%-12s Redis CPU %.1f s = %.3f ms/chunk (chunk writes %.3f ms/chunk, %.1f s wall; tables %.1f s); wall %.1f s = %.0f chunks/s; used_memory %s; %v; hset %s",
			vname, c1-c0, 1000*(c1-c0)/n, 1000*(cw-c0)/n, tw.Seconds(), c1-cw, took.Seconds(), n/took.Seconds(),
			cs["Memory"]["used_memory_human"], sizes, cs["Commandstats"]["cmdstat_hset"])
		if strings.HasSuffix(vname, "!") { // build only
			continue
		}
		ix, err := Open(ctx, rdb, name, Options{CacheChunks: -1})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]answer{}
		for _, c := range callers {
			f := backend.Filter{Groups: c.groups}
			var bmLat, vLat []time.Duration
			var ndBM, ndV, recall float64
			same, diff := 0, 0
			for pass := range 2 {
				for qi, q := range queries {
					st := time.Now()
					hits, err := ix.SearchText(ctx, q.Text, f, 100)
					if err != nil {
						t.Fatal(err)
					}
					d := time.Since(st)
					if pass == 0 {
						a := answer{}
						for _, h := range hits {
							a.ids = append(a.ids, h.ChunkID)
							a.scores = append(a.scores, h.Score)
						}
						got[c.name] = append(got[c.name], a)
						continue
					}
					bmLat = append(bmLat, d)
					ndBM += ndcg10(hits, docOf, qrels[q.ID])
					if ref != nil {
						r, a := ref[c.name][qi], got[c.name][qi]
						if slices.Equal(r.ids, a.ids) && slices.EqualFunc(r.scores, a.scores, func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) }) {
							same++
						} else {
							diff++
						}
					}
					if v.noVec {
						continue
					}
					st = time.Now()
					vh, _, err := ix.SearchVector(ctx, qvecs[qi], f, 10)
					if err != nil {
						t.Fatal(err)
					}
					vLat = append(vLat, time.Since(st))
					ndV += ndcg10(vh, docOf, qrels[q.ID])
					want := exact[c.name][qi]
					hit := 0
					for _, h := range vh {
						if slices.Contains(want, h.ChunkID) {
							hit++
						}
					}
					recall += float64(hit) / float64(len(want))
				}
			}
			nq := float64(len(queries))
			line := fmt.Sprintf("  %-7s bm25: p50 %.2f ms, nDCG@10 %.4f", c.name, p50ms(bmLat), ndBM/nq)
			if ref != nil {
				line += fmt.Sprintf(", top 100 as %s's: %d of %d", names[0], same, same+diff)
			}
			if !v.noVec {
				line += fmt.Sprintf("; vector leg: p50 %.2f ms, recall@10 %.4f, nDCG@10 %.4f", p50ms(vLat), recall/nq, ndV/nq)
			}
			t.Log(line)
		}
		if ref == nil {
			ref = got
		}
	}
}

// ndcg10 is nDCG@10 of hits by document (a document's first chunk
// counts; later ones are skipped) against graded judgements rel.
func ndcg10(hits []backend.Hit, docOf map[string]string, rel map[string]int) float64 {
	seen := map[string]bool{}
	var dcg float64
	r := 0
	for _, h := range hits {
		d := docOf[h.ChunkID]
		if seen[d] {
			continue
		}
		seen[d] = true
		if g := rel[d]; g > 0 {
			dcg += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(r+2))
		}
		r++
		if r == 10 {
			break
		}
	}
	var gains []int
	for _, g := range rel {
		if g > 0 {
			gains = append(gains, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(gains)))
	var idcg float64
	for i, g := range gains[:min(10, len(gains))] {
		idcg += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}
