package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"assay"}, args...), func(string) string { return "" }, &out, &errb)
	return out.String(), errb.String(), err
}

// TestIndexAndSearch builds the Hollin index with `assay index`, rebuilds
// it incrementally, and searches it one query at a time and in batch.
func TestIndexAndSearch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ix")
	out, _, err := runCmd(t, "index", "--corpus", "../../testdata/hollin/corpus.jsonl", "--index", dir, "--quiet")
	if err != nil {
		t.Fatalf("assay index error: %v", err)
	}
	if !strings.Contains(out, "indexed 33 documents as 33 chunks") || !strings.Contains(out, "embedded 33, reused 0, removed 0") {
		t.Errorf("assay index summary = %q", out)
	}
	out, _, err = runCmd(t, "index", "--corpus", "../../testdata/hollin/corpus.jsonl", "--index", dir, "--quiet")
	if err != nil || !strings.Contains(out, "embedded 0, reused 33, removed 0") {
		t.Errorf("assay index again = %q, %v; want everything reused", out, err)
	}

	out, _, err = runCmd(t, "search", "--index", dir, "--as", "staff", "--k", "3", "case 30455")
	if err != nil {
		t.Fatalf("assay search error: %v", err)
	}
	if first := strings.Split(out, "\n")[1]; !strings.Contains(first, "tkt-30455#0") {
		t.Errorf("assay search (staff) first line = %q, want tkt-30455#0\n%s", first, out)
	}
	out, _, err = runCmd(t, "search", "--index", dir, "--json", "--mode", "bm25", "case 30455")
	if err != nil {
		t.Fatal(err)
	}
	var res retrieval.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("assay search --json output is not a Result: %v\n%s", err, out)
	}
	for _, h := range res.Hits {
		if strings.HasPrefix(h.DocID, "tkt-") {
			t.Errorf("public search returned staff ticket %s", h.DocID)
		}
	}
	if len(res.Stages) == 0 || res.Stages[0].Name != "bm25" {
		t.Errorf("assay search --mode bm25 stages = %+v", res.Stages)
	}

	queries := filepath.Join(t.TempDir(), "queries.jsonl")
	os.WriteFile(queries, []byte(`{"_id": "q12", "text": "HL-X300-UK"}`+"\n"+`{"_id": "q17", "text": "Cleckheaton"}`+"\n"), 0o644)
	runFile := filepath.Join(t.TempDir(), "out.trec")
	if _, _, err := runCmd(t, "search", "--index", dir, "--queries", queries, "--run", runFile, "--k", "5", "--mode", "hybrid+rerank"); err != nil {
		t.Fatalf("assay search batch error: %v", err)
	}
	got, err := eval.LoadRun(runFile)
	if err != nil {
		t.Fatalf("the run file does not read back: %v", err)
	}
	if len(got["q12"]) == 0 || got["q12"][0].DocID != "man-x300-specs" || got["q17"][0].DocID != "ntc-repair-centre-move" {
		t.Errorf("run = %+v, want man-x300-specs first for q12 and ntc-repair-centre-move for q17", got)
	}
	b, _ := os.ReadFile(runFile)
	// A warm-up pass changes the timing only: the same run, and the
	// summary says how many passes went unmeasured.
	warmRun := filepath.Join(t.TempDir(), "warm.trec")
	out, _, err = runCmd(t, "search", "--index", dir, "--queries", queries, "--run", warmRun, "--k", "5", "--mode", "hybrid+rerank", "--warmup", "1")
	if err != nil || !strings.Contains(out, "warm-up passes 1") {
		t.Errorf("assay search --warmup 1 = %q, %v; want a summary naming its warm-up pass", out, err)
	}
	if wb, _ := os.ReadFile(warmRun); string(wb) != string(b) {
		t.Errorf("the run after a warm-up pass differs:\n%s\nwithout one:\n%s", wb, b)
	}
	if line := strings.Split(string(b), "\n")[0]; !strings.HasSuffix(line, "assay-hybrid-rerank") || !strings.HasPrefix(line, "q12 Q0 man-x300-specs 1 ") {
		t.Errorf("first run line = %q, want `q12 Q0 man-x300-specs 1 <score> assay-hybrid-rerank`", line)
	}
}

func TestSearchUsageErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ix")
	if _, _, err := runCmd(t, "index", "--corpus", "../../testdata/hollin/corpus.jsonl", "--index", dir, "--quiet", "--embedder", "none"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"search", "q"}, "--index DIR (or --backend redisearch --name N) is required"},
		{[]string{"search", "--index", dir}, "give the query"},
		{[]string{"search", "--index", dir, "--mode", "semantic", "q"}, "mode"},
		{[]string{"search", "--index", dir, "q", "--k", "3"}, "flag --k after the arguments"},
		{[]string{"search", "--index", dir, "q", "-x"}, "flag -x after the query"},
		{[]string{"ask", "why", "--json"}, "flag --json after the arguments"},
		{[]string{"search", "--index", dir, "--queries", "x.jsonl"}, "--queries and --run"},
		{[]string{"search", "--index", dir, "--queries", "x.jsonl", "--run", "r", "--warmup", "-1"}, "--warmup -1"},
		// a warm-up outside batch mode was ignored, the search served as if
		// it had none (round-24 rv24b)
		{[]string{"search", "--index", dir, "--warmup", "2", "kettle"}, "--warmup 2: warm-up passes are for batch mode"},
		{[]string{"search", "--index", dir, "--warmup", "-1", "kettle"}, "--warmup -1"},
		{[]string{"index", "--corpus", "x"}, "--corpus and --index (or --backend redisearch --name N) are required"},
		{[]string{"index", "--corpus", "x", "--index", dir, "--embedder", "magic"}, "embed.provider"},
		{[]string{"index", "--corpus", "x", "--index", dir, "--chunk-tokens", "4"}, "max_tokens"},
	}
	for _, tt := range tests {
		_, _, err := runCmd(t, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("assay %v error = %v, want one mentioning %q", tt.args, err, tt.want)
		}
	}
	// a BM25-only index serves bm25 and says why it cannot serve vectors
	_, _, err := runCmd(t, "search", "--index", dir, "--mode", "hybrid", "kettle")
	var u usageError
	if err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), "needs vectors") {
		t.Errorf("hybrid search on a BM25-only index: error = %v, want an unsupported error saying it needs vectors", err)
	}
	if out, _, err := runCmd(t, "search", "--index", dir, "kettle"); err != nil || !strings.Contains(out, "mode bm25") {
		t.Errorf("default search on a BM25-only index = %q, %v; want it served by bm25", out, err)
	}
}

// TestWorkerNeedsIndexOrCorpus: a worker with no index and no corpus to
// build one from stops at once, saying what to set; it never falls back
// on the sample corpus (only `assay dev` does).
func TestWorkerNeedsIndexOrCorpus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	_, _, err := runCmd(t, "worker", "--index-dir", dir, "--temporal-address", "127.0.0.1:1")
	if err == nil || !strings.Contains(err.Error(), "no index in "+dir) || !strings.Contains(err.Error(), "index.corpus (--corpus)") {
		t.Fatalf("assay worker with no index and no corpus: err = %v, want it to name the missing index and --corpus", err)
	}
	if _, statErr := os.Stat(dir); statErr == nil {
		t.Errorf("assay worker created %s; it must not build an index from a default corpus", dir)
	}
}

// TestBuildActivities: the worker's one builder returns complete
// activities; without a model endpoint every route is builtin.
func TestBuildActivities(t *testing.T) {
	cfg := hollinIndexConfig(t)
	ix, acts := workerOn(t, cfg)
	if acts.Models.Assessor != nil || acts.Models.Generator != nil || acts.Routing.SmallModel != "" || acts.Tokens != nil {
		t.Errorf("without an endpoint: assessor set %v, generator set %v, routing %+v; want builtin only", acts.Models.Assessor != nil, acts.Models.Generator != nil, acts.Routing)
	}
	cfg.LLM.BaseURL, cfg.LLM.SmallModel = "http://127.0.0.1:1/v1", "small-m"
	acts, err := buildActivities(ix, cfg, nil, slog.New(slog.DiscardHandler))
	if err != nil || acts.Models.Assessor == nil || acts.Routing.SmallModel != "small-m" {
		t.Errorf("with an endpoint: err %v, routing %+v; want model routes to small-m", err, acts.Routing)
	}
}

// TestBuildActivitiesThesaurus: the builtin generator reads the one
// thesaurus the index opened for the builtin assessor (loop.thesaurus),
// and none without one. Skipped without WordNet.
func TestBuildActivitiesThesaurus(t *testing.T) {
	if _, err := os.Stat(filepath.Join(thesaurus.DefaultDir, "index.noun")); err != nil {
		t.Skipf("no WordNet at %s", thesaurus.DefaultDir)
	}
	cfg := hollinIndexConfig(t)
	for _, th := range []string{thesaurus.DefaultDir, ""} {
		cfg.Loop.Thesaurus = th
		ix, acts := workerOn(t, cfg)
		gen, ok := acts.Models.BuiltinGenerator.(*generate.Extractive)
		if !ok {
			t.Fatalf("builtin generator %T, want *generate.Extractive", acts.Models.BuiltinGenerator)
		}
		if got := gen.Thesaurus(); got != ix.Thesaurus() || (got == nil) != (th == "") {
			t.Errorf("loop.thesaurus %q: generator's thesaurus %v, index's %v; want the index's, set when configured", th, got, ix.Thesaurus())
		}
	}
}

// hollinIndexConfig indexes the Hollin corpus (bleve, no embedder) in a
// temporary directory and returns the default configuration serving it.
func hollinIndexConfig(t *testing.T) config.Config {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ix")
	if _, _, err := runCmd(t, "index", "--corpus", "../../testdata/hollin/corpus.jsonl", "--index", dir, "--quiet", "--embedder", "none"); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Embed.Provider = config.EmbedNone
	cfg.Index.Dir = dir
	return cfg
}

// TestLocalStages: Search runs as a local activity when it runs in
// process, or when Redis is all it calls and worker.local_redis_search
// allows it; worker.local_activities=false runs every stage as an
// activity.
func TestLocalStages(t *testing.T) {
	on := config.Default().Worker
	noRedis := on
	noRedis.LocalRedisSearch = false
	off := on
	off.LocalActivities = false
	for _, tc := range []struct {
		name                 string
		inProcess, redisOnly bool
		w                    config.Worker
		want                 wire.Local
	}{
		{"bleve", true, false, on, wire.Local{Search: true, Builtin: true}},
		{"redisearch", false, true, on, wire.Local{Search: true, Builtin: true}},
		{"redisearch, local_redis_search off", false, true, noRedis, wire.Local{Builtin: true}},
		{"bleve, local_redis_search off", true, false, noRedis, wire.Local{Search: true, Builtin: true}},
		{"an embedding endpoint", false, false, on, wire.Local{Builtin: true}},
		{"local_activities off", false, true, off, wire.Local{}},
		{"local_activities off, bleve", true, false, off, wire.Local{}},
	} {
		if got := localStages(tc.inProcess, tc.redisOnly, tc.w); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestBuildActivitiesRediSearchSearchesLocally: a worker on a RediSearch
// index with the builtin embedder runs Search as a local activity by
// default, and as an activity with worker.local_redis_search off.
func TestBuildActivitiesRediSearchSearchesLocally(t *testing.T) {
	srv := redistest.Start(t)
	name := redistest.Name("local")
	c := []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "kettle descaling", Status: corpus.Current, ACL: []string{"public"}}}
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	if _, _, err := redisearch.Build(context.Background(), srv.Client(t), name, c, redisearch.BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	cfg := redistest.IndexConfig(t, srv.Addr, name)
	ix, err := live.Open(context.Background(), cfg, slog.New(slog.DiscardHandler), false)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if inProcess, redisOnly := ix.Searching(context.Background()); inProcess || !redisOnly {
		t.Fatalf("RediSearch index: in process %v, Redis only %v; want false, true", inProcess, redisOnly)
	}
	acts, err := buildActivities(ix, cfg, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := localOf(t, acts), (wire.Local{Search: true, Builtin: true}); got != want {
		t.Errorf("RediSearch worker, defaults: local stages %+v, want %+v", got, want)
	}
	cfg.Worker.LocalRedisSearch = false
	if acts, err = buildActivities(ix, cfg, nil, slog.New(slog.DiscardHandler)); err != nil || localOf(t, acts).Search {
		t.Errorf("with worker.local_redis_search false: local stages %+v (err %v), want Search as an activity", localOf(t, acts), err)
	}
}

// workerOn opens cfg's index as a worker does and builds its activities;
// the index is closed when t ends.
func workerOn(t *testing.T, cfg config.Config) (*live.Index, *activities.Activities) {
	t.Helper()
	ix, err := live.Open(context.Background(), cfg, slog.New(slog.DiscardHandler), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	acts, err := buildActivities(ix, cfg, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("buildActivities: %v", err)
	}
	return ix, acts
}

// localOf is what a run starting now learns from the worker's
// RoutingPolicy: which stages it may run as local activities.
func localOf(t *testing.T, acts *activities.Activities) wire.Local {
	t.Helper()
	p, err := acts.RoutingPolicy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p.Local
}

// endpointNamed is a builtin embedder that a manifest records as an
// embedding endpoint's model (openai:MODEL): an index "embedded by an
// endpoint" without one to call at build time.
type endpointNamed struct {
	*embed.Hashed
	model string
}

func (e endpointNamed) ID() string { return "openai:" + e.model }

// TestLocalSearchFollowsTheVersionServed: whether Search runs as a local
// activity is decided at each run's start from the index version served
// then, not once when the worker starts. A worker configured with the
// openai embedder that serves a bleve index built with the builtin one
// searches in process (Search local); once the index is rebuilt with the
// endpoint's embedder and swapped in, a run starting after the rebuild
// runs Search as an activity (heartbeats, server-side retries), and the
// builtin models stay local.
func TestLocalSearchFollowsTheVersionServed(t *testing.T) {
	const hollin = "../../testdata/hollin/corpus.jsonl"
	dir := filepath.Join(t.TempDir(), "ix")
	if _, _, err := runCmd(t, "index", "--corpus", hollin, "--index", dir, "--quiet"); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Index.Dir = dir
	cfg.Embed.Provider, cfg.Embed.Model, cfg.Embed.Dim = config.EmbedOpenAI, "emb-m", 64
	cfg.Embed.BaseURL = "http://127.0.0.1:1/v1" // never called: the searches below are not run
	ix, acts := workerOn(t, cfg)
	if got, want := localOf(t, acts), (wire.Local{Search: true, Builtin: true}); got != want {
		t.Fatalf("serving a builtin-embedded bleve index (%s): local stages %+v, want %+v", ix.Version(), got, want)
	}
	before := ix.Version()

	hashed, err := embed.NewHashed(64)
	if err != nil {
		t.Fatal(err)
	}
	set := live.BuildSettings{Chunking: chunk.Default(), Embedder: endpointNamed{hashed, "emb-m"}, BM25: backend.DefaultBM25}
	if _, _, err := live.Build(context.Background(), hollin, dir, set); err != nil {
		t.Fatal(err)
	}
	if got, want := localOf(t, acts), (wire.Local{Builtin: true}); got != want {
		t.Errorf("after a rebuild with the endpoint's embedder: local stages %+v, want %+v (Search as an activity)", got, want)
	}
	if ix.Version() == before {
		t.Errorf("the rebuilt version was not swapped in: still %s", before)
	}
}

// TestFlagsAfterTerminator: a command's own flag written after its
// arguments is refused, but after "--", the usual end of the flags, every
// word is an argument: `assay ask -- "what does" --json mean` asks about
// "--json" rather than failing with "put flags before them", which left
// no way to ask it.
func TestFlagsAfterTerminator(t *testing.T) {
	for _, c := range []struct {
		args    []string
		refused bool
		rest    []string
	}{
		{[]string{"why", "--json"}, true, nil},
		{[]string{"why", "-json=false"}, true, nil},
		{[]string{"--", "what", "does", "--json", "mean"}, false, []string{"what", "does", "--json", "mean"}},
		{[]string{"--json", "--", "-json"}, false, []string{"-json"}},
		{[]string{"why", "--", "--json"}, true, nil},             // "--" after an argument is a word: the flag is still refused
		{[]string{"--server", "--", "why", "--json"}, true, nil}, // "--" is --server's value, not the end of the flags
		{[]string{"--server=--", "why"}, true, nil},
		{[]string{"--server", "http://x", "--", "why", "--json"}, false, []string{"why", "--json"}},
		{[]string{"--server", "--json", "why"}, true, nil}, // a flag is not --server's value
		{[]string{"--server", "-json=false", "why"}, true, nil},
		{[]string{"--server", "-x", "why"}, false, []string{"why"}}, // a value that is no flag of ours
	} {
		f := newFlags("ask", io.Discard)
		f.Bool("json", false, "")
		f.String("server", "", "")
		err := f.parse(c.args, -1)
		var u usageError
		if got := errors.As(err, &u); got != c.refused || err != nil && !got {
			t.Errorf("parse(%q) = %v, want refused %v", c.args, err, c.refused)
			continue
		}
		if !c.refused && !slices.Equal(f.Args(), c.rest) {
			t.Errorf("parse(%q): arguments %q, want %q", c.args, f.Args(), c.rest)
		}
	}
}
