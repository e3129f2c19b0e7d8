package redisearch

import (
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/percentile"
)

// TestKNNLegForms measures the vector leg's KNN on an index already built
// in a running server (docs/log/performance-scale.md, "RediSearch: the vector
// leg and the build rate"): for the caller who sees every group, `public`
// and one team, each query form's Redis time per FT.SEARCH (INFO
// commandstats), client p50, and recall@k against the exact top k over
// the caller's visible chunks (HYBRID_POLICY ADHOC_BF, which computes
// every visible chunk's distance). ASSAY_KNN_REDIS=host:port
// ASSAY_KNN_NAME=index ASSAY_KNN_DATA=<bench-scale data dir of one size>
// [ASSAY_KNN_EVERY=3] [ASSAY_KNN_FORMS=name,...].
func TestKNNLegForms(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "KNN", "DATA", 3)
	k := 100
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	// ASSAY_KNN_EXACT names another index of the same chunks whose exact
	// ranking is the reference (a FLOAT32 index for a BFLOAT16 one).
	ref := ix
	if e := os.Getenv("ASSAY_KNN_EXACT"); e != "" {
		ref = openBuilt(t, addr, e)
	}
	texts := sampleQueries(t, filepath.Join(dir, "queries.jsonl"), every)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	qvecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Groups map[string]int `json:"group_documents"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "synth.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	var all []string
	for g := range st.Groups {
		all = append(all, g)
	}
	sort.Strings(all)
	callers := []struct {
		name   string
		groups []string
	}{{"all", all}, {"public", []string{"public"}}, {"team-07", []string{"team-07"}}}
	depth := k + vectorMargin
	ef := max(vectorEF, depth)
	type form struct {
		name string
		knn  func(filter string) string // the query
	}
	// Every form but batches-auto is one vectorForm can choose; they are
	// written with the same vectorQuery.
	with := func(ef, batch int) func(string) string {
		return func(filter string) string { return vectorQuery(filter, depth, ef, batch) }
	}
	batches := func(b, ef int) func(string) string { return with(ef, b) }
	nofilter := func(ef int) func(string) string {
		return func(string) string { return vectorQuery("", depth, ef, 0) }
	}
	forms := []form{
		{"default", with(ef, 0)},
		{"batches-auto", func(filter string) string { // BATCHES with the engine's batch size
			return strings.Replace(vectorQuery(filter, depth, ef, 0), " EF_RUNTIME", " HYBRID_POLICY BATCHES EF_RUNTIME", 1)
		}},
		{"batches-232", batches(2*depth, ef)},
		{"batches-464", batches(4*depth, ef)},
		{"batches-232-ef116", batches(2*depth, depth)},
		{"batches-232-ef200", batches(2*depth, 200)},
		{"batches-232-ef300", batches(2*depth, 300)},
		{"batches-232-ef400", batches(2*depth, 400)},
		{"batches-232-ef600", batches(2*depth, 600)},
		{"batches-232-ef800", batches(2*depth, 800)},
		{"batches-464-ef800", batches(4*depth, 800)},
		{"batches-232-ef1600", batches(2*depth, 1600)},
		{"nofilter", nofilter(ef)},
		{"nofilter-ef116", nofilter(depth)},
		{"nofilter-ef200", nofilter(200)},
		{"nofilter-ef300", nofilter(300)},
		{"nofilter-ef400", nofilter(400)},
		{"nofilter-ef600", nofilter(600)},
		{"nofilter-ef800", nofilter(800)},
		{"nofilter-ef1600", nofilter(1600)},
	}
	if s := os.Getenv("ASSAY_KNN_FORMS"); s != "" {
		want := strings.Split(s, ",")
		forms = slices.DeleteFunc(forms, func(f form) bool { return !slices.Contains(want, f.name) })
	}
	runOn := func(ix *Index, q string, vec []float32, n int) ([]string, time.Duration, error) {
		start := time.Now()
		res, err := ix.rdb.FTSearchWithArgs(ctx, ix.vn, q, &redis.FTSearchOptions{
			Return:         []redis.FTSearchReturn{{FieldName: fieldDistance}},
			SortBy:         []redis.FTSearchSortBy{{FieldName: fieldDistance, Asc: true}},
			Limit:          n,
			Params:         map[string]any{"B": vectorBytes(vec, ix.m.vectorType())},
			DialectVersion: 2,
			// No FT.SEARCH timeout: the exact reference over 500,000
			// chunks takes about 400 ms quiet, and under the server's
			// default (500 ms, ON_TIMEOUT RETURN) a slower one came back
			// empty, which recallAt counts as recall 1 (round 32's
			// 0.979 for the caller who sees everything;
			// docs/log/round-33-p33-knn.md).
			Timeout: noTimeout,
		}).Result()
		if err != nil {
			return nil, 0, err
		}
		ids := make([]string, len(res.Docs))
		for i, d := range res.Docs {
			ids[i] = strings.TrimPrefix(d.ID, chunkPrefix(ix.vn))
		}
		return ids, time.Since(start), nil
	}
	run := func(q string, vec []float32, n int) ([]string, time.Duration, error) {
		return runOn(ix, q, vec, n)
	}
	searchUsec := func() (calls, usec float64) { return redisUsec(t, ix, "FT.SEARCH") }
	for _, c := range callers {
		filter := FilterQuery(backend.Filter{Groups: c.groups})
		exact := make([][]string, len(qvecs))
		exactForm := "(" + filter + ")=>[KNN " + strconv.Itoa(k) + " @" + fieldVector + " $B HYBRID_POLICY ADHOC_BF AS " + fieldDistance + "]"
		var ex []time.Duration
		c0, u0 := searchUsec()
		for i, v := range qvecs {
			ids, d, err := runOn(ref, exactForm, v, k)
			if err != nil {
				t.Fatalf("%s exact: %v", c.name, err)
			}
			if len(ids) == 0 {
				t.Fatalf("%s exact: no neighbours for query %d", c.name, i)
			}
			exact[i], ex = ids, append(ex, d)
		}
		c1, u1 := searchUsec()
		t.Logf("%-8s %-20s redis %7.2f ms/search  client p50 %7.2f ms  recall@%d 1 (the reference)", c.name, "exact (ADHOC_BF)", (u1-u0)/(c1-c0)/1000, p50ms(ex), k)
		for _, f := range forms {
			if strings.HasPrefix(f.name, "nofilter") && c.name != "all" {
				continue
			}
			var ds []time.Duration
			var recall, recall10 float64
			c0, u0 := searchUsec()
			for i, v := range qvecs {
				ids, d, err := run(f.knn(filter), v, depth)
				if err != nil {
					t.Fatalf("%s %s: %v", c.name, f.name, err)
				}
				ds = append(ds, d)
				recall += recallAt(exact[i], ids, k)
				recall10 += recallAt(exact[i], ids, 10)
			}
			c1, u1 := searchUsec()
			t.Logf("%-8s %-20s redis %7.2f ms/search  client p50 %7.2f ms  recall@%d %.4f  recall@10 %.4f", c.name, f.name, (u1-u0)/(c1-c0)/1000, p50ms(ds), k, recall/float64(len(qvecs)), recall10/float64(len(qvecs)))
		}
	}
	fmt.Fprintln(os.Stderr, "queries:", len(qvecs))
}

// p50ms is the nearest-rank median of ds in milliseconds.
func p50ms(ds []time.Duration) float64 {
	return float64(percentile.NearestRank(ds, 50).Microseconds()) / 1000
}

// recallAt is the share of exact's first n ids among got's first n (1
// when exact is empty).
func recallAt(exact, got []string, n int) float64 {
	exact, got = exact[:min(n, len(exact))], got[:min(n, len(got))]
	if len(exact) == 0 {
		return 1
	}
	hit := 0
	for _, id := range exact {
		if slices.Contains(got, id) {
			hit++
		}
	}
	return float64(hit) / float64(len(exact))
}
