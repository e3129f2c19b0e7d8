package redisearch_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/synth"
	"github.com/assay-rag/assay/internal/terms"
)

// scifactChunks returns SciFact's chunks with ACLs like a shared wiki's:
// half the documents public, the rest visible to one to three of 100
// teams (deterministic), or skips unless ASSAY_SCIFACT=1.
func scifactChunks(t testing.TB) []corpus.Chunk {
	t.Helper()
	if os.Getenv("ASSAY_SCIFACT") != "1" {
		t.Skip("SKIPPED: SciFact-scale measurement; set ASSAY_SCIFACT=1 (and ASSAY_SCIFACT_DIR)")
	}
	docs := scifactDocs(t)
	for i := range docs {
		docs[i].ACL = teamACL(docs[i].ID)
	}
	ch, _ := chunk.New(chunk.Default())
	return ch.SplitAll(docs)
}

// teamACL is a document's synthetic ACL: public for half the ids, else
// one to three of team00..team99.
func teamACL(id string) []string {
	h := fnv.New64a()
	h.Write([]byte(id))
	x := h.Sum64()
	if x%2 == 0 {
		return []string{"public"}
	}
	x /= 2
	n := 1 + int(x%3)
	x /= 3
	var acl []string
	for range n {
		g := fmt.Sprintf("team%02d", x%100)
		x /= 100
		if !slices.Contains(acl, g) {
			acl = append(acl, g)
		}
	}
	return acl
}

// synthChunks returns the chunks of the scale benchmark's synthetic corpus
// of about n chunks (internal/synth, default seed) made from SciFact's
// documents, with its ACLs (public, staff, team-NN).
func synthChunks(t testing.TB, n int) []corpus.Chunk {
	t.Helper()
	src := scifactDocs(t)
	var docs []corpus.Document
	if _, err := synth.Generate(src, synth.Options{Chunks: n}, func(d corpus.Document) error {
		docs = append(docs, d)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	return ch.SplitAll(docs)
}

// scifactDocs loads SciFact's corpus from ASSAY_SCIFACT_DIR (default
// ../shared/data/scifact beside the checkout).
func scifactDocs(t testing.TB) []corpus.Document {
	t.Helper()
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data", "scifact")
	}
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// envInts is the space-separated integers of the environment variable
// name, or def when it is unset.
func envInts(name string, def []int) []int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	var out []int
	for _, f := range strings.Fields(s) {
		var n int
		fmt.Sscan(f, &n)
		out = append(out, n)
	}
	return out
}

// replicate makes n chunks from chunks, repeating them under new ids.
func replicate(chunks []corpus.Chunk, n int) []corpus.Chunk {
	out := make([]corpus.Chunk, 0, n)
	for r := 0; len(out) < n; r++ {
		for _, c := range chunks {
			if len(out) == n {
				break
			}
			if r > 0 {
				c.DocID = fmt.Sprintf("%s-r%d", c.DocID, r)
				c.ID = corpus.ChunkID(c.DocID, c.Ordinal)
			}
			out = append(out, c)
		}
	}
	return out
}

func since(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }

// TestBuildRate measures the build rate at ASSAY_BUILD_CHUNKS chunks
// (default 50,000) with the builtin embedder: SciFact's chunks repeated,
// or with ASSAY_BUILD_SYNTH=1 the scale benchmark's synthetic corpus;
// ASSAY_BUILD_HNSW=M/EF_CONSTRUCTION overrides the graph's parameters.
func TestBuildRate(t *testing.T) {
	chunks := scifactChunks(t)
	n := 50000
	if s := os.Getenv("ASSAY_BUILD_CHUNKS"); s != "" {
		fmt.Sscan(s, &n)
	}
	if v := os.Getenv("ASSAY_BUILD_HNSW"); v != "" { // M/EF_CONSTRUCTION, e.g. 16/200 (RediSearch's defaults)
		var m, efc int
		fmt.Sscanf(strings.ReplaceAll(v, "/", " "), "%d %d", &m, &efc)
		om, oc, oe := redisearch.SetHNSW(m, efc, 200)
		t.Cleanup(func() { redisearch.SetHNSW(om, oc, oe) })
	}
	synthetic := os.Getenv("ASSAY_BUILD_SYNTH") == "1"
	if synthetic {
		chunks = synthChunks(t, n) // distinct chunks, the scale benchmark's corpus
	} else {
		chunks = replicate(chunks, n)
	}
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	var emb backend.Embedder
	if os.Getenv("ASSAY_BUILD_NOVECTORS") == "" {
		emb, _ = embed.NewHashed(embed.DefaultHashedDim)
	}
	start := time.Now()
	stages := map[string]time.Duration{}
	last, lastStage := time.Now(), ""
	name := redistest.Name("rate")
	_, st, err := redisearch.Build(context.Background(), rdb, name, chunks, redisearch.BuildOptions{Embedder: emb,
		Progress: func(stage string, done, total int) {
			stages[lastStage] += time.Since(last)
			last, lastStage = time.Now(), stage
		}})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	mem, _ := rdb.InfoMap(context.Background(), "memory", "commandstats").Result()
	for k, v := range mem["Commandstats"] {
		t.Logf("%s %s", k, v)
	}
	t.Logf("built %d chunks in %v: %.0f chunks/s (%+v); redis used_memory %s", st.Chunks, took.Round(time.Millisecond), float64(st.Chunks)/took.Seconds(), stages, mem["Memory"]["used_memory_human"])
	if !synthetic { // its callers are SciFact's team ACLs
		workerMemory(t, rdb, name, chunks, emb)
	}
}

// analyzedParts analyzes every chunk's title and text as the index does
// and returns the statistics of those terms with each chunk's terms: the
// exact scoring the tests compare the engine against.
func analyzedParts(an *terms.Analyzer, chunks []corpus.Chunk) (*backend.Parts, [][]string) {
	parts := backend.NewParts(nil)
	chunkTerms := make([][]string, len(chunks))
	for i := range chunks {
		chunkTerms[i] = append(an.Terms(chunks[i].Title), an.Terms(chunks[i].Text)...)
		parts.Add(&chunks[i], chunkTerms[i])
	}
	return parts, chunkTerms
}

// exactTop is the exhaustive exact BM25 (bleve's formula) over the chunks
// visible to groups, with their exact statistics: what the BM25 leg's
// over-fetch must agree with.
func exactTop(parts *backend.Parts, an *terms.Analyzer, chunks []corpus.Chunk, chunkTerms [][]string, groups []string, query string, k int) []backend.Hit {
	qterms := an.Terms(query)
	q := backend.NewBM25Query(parts.Visible(groups), backend.DefaultBM25, qterms)
	var hits []backend.Hit
	for i := range chunks {
		if !corpus.Visible(chunks[i].ACL, groups) {
			continue
		}
		tf := map[string]int{}
		for _, t := range chunkTerms[i] {
			tf[t]++
		}
		var sum float64
		matched := 0
		for j, t := range qterms {
			if f := tf[t]; f > 0 {
				matched++
				sum += q.Clause(j, f, float64(len(chunkTerms[i])))
			}
		}
		if matched > 0 {
			hits = append(hits, backend.Hit{ChunkID: chunks[i].ID, Score: q.Score(sum, matched)})
		}
	}
	return backend.SortHits(hits, k)
}

// TestRestrictedAgreement measures, on SciFact with team ACLs
// (ASSAY_SCIFACT=1), the BM25 leg's top-10 agreement with exhaustive exact
// scoring over the visible chunks, per caller and over-fetch factor, and
// its latency; and that the engine's average length of each caller's
// visible set (from the per-group length tables) is the exact mean.
func TestRestrictedAgreement(t *testing.T) {
	chunks := scifactChunks(t)
	ctx := context.Background()
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	ds, err := eval.LoadBEIR(dir, eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	an := terms.New()
	parts, chunkTerms := analyzedParts(an, chunks)
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	name := redistest.Name("agree")
	start := time.Now()
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("built %d chunks without vectors in %v", len(chunks), time.Since(start).Round(time.Millisecond))
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"public"}
	for g := range 100 {
		all = append(all, fmt.Sprintf("team%02d", g))
	}
	callers := []struct {
		name   string
		groups []string
	}{{"all", all}, {"public+team07", []string{"public", "team07"}}, {"team07+team42", []string{"team07", "team42"}}, {"team07", []string{"team07"}}, {"5 teams", []string{"team01", "team02", "team03", "team04", "team05"}}}
	for _, c := range callers {
		exact := parts.Visible(c.groups)
		got := ix.Visible(c.groups).(interface{ AvgLen() float64 }).AvgLen()
		t.Logf("%-14s N %d, average length %.3f tokens (from the engine %.3f)", c.name, exact.Len(), exact.AvgLen(), got)
		if got != exact.AvgLen() {
			t.Errorf("%s: average length from the engine %v, exact %v", c.name, got, exact.AvgLen())
		}
	}
	factors := envInts("ASSAY_OVERFETCH", []int{1, 2, 4, 8})
	for _, factor := range factors {
		old := redisearch.SetOverFetch(factor)
		for _, c := range callers {
			agree, total := 0, 0
			var lat []float64
			for _, q := range ds.Queries {
				want := exactTop(parts, an, chunks, chunkTerms, c.groups, q.Text, 10)
				st := time.Now()
				hits, err := ix.SearchText(ctx, q.Text, backend.Filter{Groups: c.groups}, 10)
				lat = append(lat, since(st))
				if err != nil {
					t.Fatal(err)
				}
				in := map[string]bool{}
				for _, h := range hits {
					in[h.ChunkID] = true
				}
				for _, h := range want {
					if in[h.ChunkID] {
						agree++
					}
				}
				total += len(want)
			}
			slices.Sort(lat)
			t.Logf("over-fetch factor %d, %-14s top-10 agreement %.4f (%d/%d), p50 %.2f ms (warm caches after the first factor)", factor, c.name, float64(agree)/float64(total), agree, total, lat[len(lat)/2])
			if factor == 8 && float64(agree) < 0.99*float64(total) {
				t.Errorf("over-fetch factor 8 (shipped), %s: top-10 agreement %.4f, want at least 0.99", c.name, float64(agree)/float64(total))
			}
		}
		redisearch.SetOverFetch(old)
	}
}

// workerMemory opens the index built as name, asks SciFact's test queries
// as five callers (one who sees all, four restricted), both legs, and logs
// the Go heap in use after a GC before and after: what a worker holds for
// the index.
func workerMemory(t *testing.T, rdb *redis.Client, name string, chunks []corpus.Chunk, emb backend.Embedder) {
	ctx := context.Background()
	ds, err := eval.LoadBEIR(os.Getenv("ASSAY_SCIFACT_DIR"), eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapInuse) / 1e6
	}
	chunks = nil // the build's input is not the worker's
	before := heap()
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opened := heap()
	all := []string{"public"}
	for g := range 100 {
		all = append(all, fmt.Sprintf("team%02d", g))
	}
	callers := [][]string{all, {"public", "team07"}, {"team07", "team42"}, {"team07"}, {"team01", "team02", "team03", "team04", "team05"}}
	lat := map[string][]float64{}
	for _, groups := range callers {
		for _, q := range ds.Queries {
			st := time.Now()
			if _, err := ix.SearchText(ctx, q.Text, backend.Filter{Groups: groups}, 100); err != nil {
				t.Fatal(err)
			}
			lat[fmt.Sprint("bm25 ", groups[:min(2, len(groups))])] = append(lat[fmt.Sprint("bm25 ", groups[:min(2, len(groups))])], since(st))
			if emb != nil {
				v, _ := emb.Embed(ctx, []string{q.Text})
				st := time.Now()
				if _, _, err := ix.SearchVector(ctx, v[0], backend.Filter{Groups: groups}, 100); err != nil {
					t.Fatal(err)
				}
				lat[fmt.Sprint("knn ", groups[:min(2, len(groups))])] = append(lat[fmt.Sprint("knn ", groups[:min(2, len(groups))])], since(st))
			}
		}
	}
	after := heap()
	t.Logf("worker heap in use: %.1f MB before Open, %.1f MB open, %.1f MB after %d searches (%d chunks in the index)", before, opened, after, len(callers)*len(ds.Queries), ix.Len())
	for k, l := range lat {
		slices.Sort(l)
		t.Logf("  %-28s k=100 p50 %.2f ms, p99 %.2f ms", k, l[len(l)/2], l[len(l)*99/100])
	}
	runtime.KeepAlive(ix)
}

// TestHoldingsCost compares, on SciFact with team ACLs (ASSAY_SCIFACT=1),
// Holdings as shipped (the rare terms' postings read, the common terms'
// combinations checked for existence) with reading every visible posting
// of each term (NOCONTENT searches), for the test queries' terms:
// agreement of the held term sets and p50 latency.
func TestHoldingsCost(t *testing.T) {
	chunks := scifactChunks(t)
	ctx := context.Background()
	ds, err := eval.LoadBEIR(os.Getenv("ASSAY_SCIFACT_DIR"), eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	name := redistest.Name("held")
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	vn := strings.TrimSuffix(strings.TrimPrefix(ix.Version(), "redisearch "), fmt.Sprintf(" (alias %s, built %s)", name, ix.RedisManifest().BuiltAt.Format(time.RFC3339)))
	an := terms.New()
	postings := func(groups, ts []string) map[uint64]int {
		pipe := rdb.Pipeline()
		cmds := make([]*redis.FTSearchCmd, len(ts))
		for i, term := range ts {
			cmds[i] = pipe.FTSearchWithArgs(ctx, vn, redisearch.TextQuery([]string{term}, backend.Filter{Groups: groups}), &redis.FTSearchOptions{Verbatim: true, NoContent: true, Limit: 10000, DialectVersion: 2})
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatal(err)
		}
		held := map[string]uint64{}
		for i, c := range cmds {
			for _, d := range c.Val().Docs {
				held[d.ID] |= 1 << i
			}
		}
		out := map[uint64]int{}
		for _, m := range held {
			out[m]++
		}
		return out
	}
	for _, groups := range [][]string{{"public", "team07"}, {"team07"}} {
		var a, b []float64
		same, cannot, n := 0, 0, 0
		for _, q := range ds.Queries {
			ts := slices.Compact(slices.Sorted(slices.Values(an.Terms(q.Text))))
			if len(ts) > 12 {
				ts = ts[:12]
			}
			st := time.Now()
			got := held(t, ix.Visible(groups), ctx, ts, nil)
			a = append(a, since(st))
			st = time.Now()
			want := postings(groups, ts)
			b = append(b, since(st))
			n++
			switch {
			case got == nil:
				cannot++
			case heldSets(got) == heldSets(want): // the values of checked sets are 1, not counts
				same++
			}
		}
		slices.Sort(a)
		slices.Sort(b)
		t.Logf("%v: Holdings p50 %.2f ms p99 %.2f ms; by postings p50 %.2f ms p99 %.2f ms; %d/%d the same, %d cannot tell", groups, a[len(a)/2], a[len(a)*99/100], b[len(b)/2], b[len(b)*99/100], same, n, cannot)
	}
}
