package redisearch_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/synth"
)

func f32bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// f16bytes is v as IEEE half floats (round to nearest).
func f16bytes(v []float32) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], f16(x))
	}
	return b
}

func f16(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int((bits>>23)&0xff) - 127 + 15
	mant := bits & 0x7fffff
	switch {
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := uint16(mant >> shift)
		if (mant>>(shift-1))&1 != 0 {
			h++
		}
		return sign | h
	case exp >= 31:
		return sign | 0x7c00
	}
	h := sign | uint16(exp)<<10 | uint16(mant>>13)
	if mant&0x1000 != 0 {
		h++
	}
	return h
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestHNSWChoice measures vector index variants on SciFact's chunks
// (ASSAY_SCIFACT=1), or on the scale benchmark's synthetic corpus of
// ASSAY_HNSW_CHUNKS chunks made from them (internal/synth): insert rate
// (and Redis's own time per HSET), memory, and recall@10 of KNN against
// exact inner products, for a full-access caller and for restricted ones
// (the ACL filter inside the KNN query), per EF_RUNTIME.
// ASSAY_HNSW_VARIANTS lists TYPE/M/EF_CONSTRUCTION, or FLAT.
func TestHNSWChoice(t *testing.T) {
	chunks := scifactChunks(t)
	team := func(i int) string { return fmt.Sprintf("team%02d", i) }
	if s := os.Getenv("ASSAY_HNSW_CHUNKS"); s != "" {
		var n int
		fmt.Sscan(s, &n)
		chunks = synthChunks(t, n)
		team = synth.TeamGroup
	}
	ctx := context.Background()
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	texts := make([]string, len(chunks))
	for i := range chunks {
		texts[i] = backend.EmbedText(&chunks[i])
	}
	start := time.Now()
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("embedded %d chunks in %v (%.0f/s)", len(chunks), time.Since(start).Round(time.Millisecond), float64(len(chunks))/time.Since(start).Seconds())
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data", "scifact")
	}
	ds, err := eval.LoadBEIR(dir, eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	var qtexts []string
	for _, q := range ds.Queries {
		qtexts = append(qtexts, q.Text)
	}
	qvecs, _ := emb.Embed(ctx, qtexts)
	t7, t42 := team(7), team(42)
	callers := map[string][]string{"all": nil, "public+" + t7: {"public", t7}, t7: {t7}, t7 + "+" + t42: {t7, t42}}
	for g := range 100 {
		callers["all"] = append(callers["all"], team(g))
	}
	callers["all"] = append(callers["all"], "public", synth.StaffGroup)
	exact := func(groups []string, q []float32, k int) []int {
		var idx []int
		for i := range chunks {
			if corpus.Visible(chunks[i].ACL, groups) {
				idx = append(idx, i)
			}
		}
		score := make([]float64, len(chunks))
		for _, i := range idx {
			score[i] = dot(q, vecs[i])
		}
		sort.Slice(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
		return idx[:min(k, len(idx))]
	}
	order := []string{"all", "public+" + t7, t7 + "+" + t42, t7}
	want := map[string][][]int{}
	for _, who := range order {
		for _, q := range qvecs {
			want[who] = append(want[who], exact(callers[who], q, 10))
		}
	}
	t.Logf("exact top 10 of %d queries for %d callers in %v", len(qvecs), len(order), time.Since(start).Round(time.Millisecond))
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	variants := strings.Fields(os.Getenv("ASSAY_HNSW_VARIANTS"))
	if len(variants) == 0 {
		variants = []string{"FLOAT32/16/200", "FLOAT32/16/64", "FLOAT16/16/200", "FLOAT16/16/64"}
	}
	efs := envInts("ASSAY_HNSW_EF", []int{10, 50, 100})
	for vi, v := range variants {
		var typ string
		var m, efc int
		fmt.Sscanf(strings.ReplaceAll(v, "/", " "), "%s %d %d", &typ, &m, &efc)
		name := fmt.Sprintf("hnsw%d", vi)
		rdb.FlushAll(ctx)
		rdb.ConfigResetStat(ctx)
		before, _ := rdb.InfoMap(ctx, "memory").Result()
		vec := []any{"vec", "VECTOR", "HNSW", "10", "TYPE", typ, "DIM", emb.Dim(), "DISTANCE_METRIC", "IP", "M", m, "EF_CONSTRUCTION", efc}
		if typ == "FLAT" {
			typ = "FLOAT32"
			vec = []any{"vec", "VECTOR", "FLAT", "6", "TYPE", typ, "DIM", emb.Dim(), "DISTANCE_METRIC", "IP"}
		}
		if err := rdb.Do(ctx, append([]any{"FT.CREATE", name, "ON", "HASH", "PREFIX", "1", name + ":", "SCHEMA", "acl", "TAG", "SEPARATOR", ",", "CASESENSITIVE"}, vec...)...).Err(); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for s := 0; s < len(chunks); s += 256 {
			pipe := rdb.Pipeline()
			for i := s; i < min(s+256, len(chunks)); i++ {
				b := f32bytes(vecs[i])
				if typ == "FLOAT16" {
					b = f16bytes(vecs[i])
				}
				pipe.HSet(ctx, fmt.Sprintf("%s:%d", name, i), "acl", strings.Join(chunks[i].ACL, ","), "vec", b)
			}
			if _, err := pipe.Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		took := time.Since(start)
		after, _ := rdb.InfoMap(ctx, "memory").Result()
		var mb, ma float64
		fmt.Sscan(before["Memory"]["used_memory"], &mb)
		fmt.Sscan(after["Memory"]["used_memory"], &ma)
		cs, _ := rdb.InfoMap(ctx, "commandstats").Result()
		t.Logf("%s: inserted %d in %v (%.0f/s), used_memory +%.1f MB; redis %s", v, len(chunks), took.Round(time.Millisecond), float64(len(chunks))/took.Seconds(), (ma-mb)/1e6, cs["Commandstats"]["cmdstat_hset"])
		for _, who := range order {
			groups := callers[who]
			for _, ef := range efs {
				var recall float64
				var lat []time.Duration
				for qi, q := range qvecs {
					want := want[who][qi]
					qb := f32bytes(q)
					if typ == "FLOAT16" {
						qb = f16bytes(q)
					}
					tags := make([]string, len(groups))
					for i, g := range groups {
						tags[i] = strings.ReplaceAll(g, "-", `\-`)
					}
					knn := "=>[KNN 10 @vec $B EF_RUNTIME " + fmt.Sprint(ef) + " AS d]"
					if strings.HasPrefix(v, "FLAT") {
						knn = "=>[KNN 10 @vec $B AS d]"
					}
					query := "(@acl:{" + strings.Join(tags, " | ") + "})" + knn
					if who == "all" {
						query = "*" + knn
					}
					st := time.Now()
					res, err := rdb.FTSearchWithArgs(ctx, name, query, &redis.FTSearchOptions{NoContent: true, SortBy: []redis.FTSearchSortBy{{FieldName: "d", Asc: true}}, Limit: 10, Params: map[string]any{"B": qb}, DialectVersion: 2}).Result()
					lat = append(lat, time.Since(st))
					if err != nil {
						t.Fatal(err)
					}
					got := map[string]bool{}
					for _, d := range res.Docs {
						got[d.ID] = true
					}
					hit := 0
					for _, i := range want {
						if got[fmt.Sprintf("%s:%d", name, i)] {
							hit++
						}
					}
					if len(want) > 0 {
						recall += float64(hit) / float64(len(want))
					}
					_ = qi
				}
				slices.Sort(lat)
				t.Logf("  %-14s EF_RUNTIME %3d: recall@10 %.4f, p50 %.2f ms", who, ef, recall/float64(len(qvecs)), float64(lat[len(lat)/2].Microseconds())/1000)
			}
		}
	}
}
