// Command bench-scale is the scale benchmark (`make bench-scale`, issue
// 20): for each corpus size N it generates a synthetic corpus of N chunks
// from SciFact (internal/synth), builds it with each backend through the
// assay binary, and measures build time, index size, worker memory,
// retrieval latency for a full-access and a one-team caller, nDCG@10 on
// SciFact's test claims, end-to-end questions per second through `assay
// dev` + `assay bench`, and Lucene's BM25 on the same corpus in the same
// run. It writes one table as Markdown and JSON and the scaling curve as
// SVG.
//
//	go run ./cmd/bench-scale -assay bin/assay -scifact DIR [-n 5000,50000] [-redisearch DIR] [-backends bleve,redisearch] [-lucene DIR/run.sh] [-out .assay/bench-scale]
//
// With -e2e-only it measures the end-to-end phase alone, on a bleve index
// built before (-index), and alternates binaries in one sitting (an A/B
// harness, e2e.go):
//
//	go run ./cmd/bench-scale -e2e-only -index OUT/work/bleve-N/index -assay base,new [-rounds 3] [-profile 20s] [-out DIR]
//
// or on RediSearch: built once into a throwaway server (-redisearch DIR)
// by the first binary, or already built in a server (-redis-addr, -index
// NAME):
//
//	go run ./cmd/bench-scale -e2e-only -redisearch DIR -data OUT/data/N -assay base,new [-rounds 3] [-costs]
//	go run ./cmd/bench-scale -e2e-only -redis-addr HOST:PORT -index NAME -data OUT/data/N -assay base,new
//
// On RediSearch each binary serves a release of its own (made with its
// models before the first run, promoted before each of its runs): the
// release store is the server's, and a binary with other models would
// be refused by another's release.
//
// Every measurement runs the assay binary as a child process, so the
// numbers are those of the shipped commands and a child's memory is its
// own. A run whose questions all failed (errors, or runs stopped
// search_error, ...) is a failed run; bench-scale writes its reports and
// then exits 1 when any run or measurement failed.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/assay-rag/assay/internal/bench"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/synth"
	"github.com/assay-rag/assay/internal/wire"
)

// Schema names the JSON report's shape.
const Schema = "assay.bench.scale/v1"

// Backends measured.
const (
	Bleve      = "bleve"
	RediSearch = "redisearch"
)

// settleLimit is the dirty and under-writeback bytes -e2e-settle waits for.
const settleLimit = 64 << 20

// Modes and callers of the retrieval measurements.
var modes = []string{"bm25", "hybrid+rerank"}

const (
	callerAll  = "all"
	searchK    = 100
	ndcgCutoff = 10
)

type options struct {
	assay      string   // the binary measured (the first of assays)
	assays     []string // -assay's binaries; several only with -e2e-only
	scifact    string
	sizes      []int
	redisearch string
	moduleArgs []string
	backends   []string
	lucene     string
	out        string
	team       string
	partial    string
	seed       uint64
	e2eN       int
	e2eWarmup  int
	e2eConc    string
	search     bool
	// searchWarmup is the unmeasured passes each assay search makes
	// over the queries before its measured one (--warmup).
	searchWarmup int
	costs        bool
	// End to end (both modes).
	e2ePrewarm   int
	e2eWarm      bool
	e2eSettle    time.Duration
	temporalBin  string
	profile      time.Duration
	profileDelay time.Duration
	// -e2e-only.
	e2eOnly   bool
	index     string
	data      string
	rounds    int
	redisAddr string
	// served is the index every -e2e-only trial serves (set by runE2EOnly).
	served *servedIndex
	// vector is assay index's --vector for a RediSearch build; empty:
	// the binary's own default (hnsw+small-flat since round 43).
	vector string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench-scale", flag.ContinueOnError)
	var o options
	sizes := fs.String("n", "5000,50000", "corpus `sizes` in chunks, comma- or space-separated")
	assays := fs.String("assay", "bin/assay", "the assay `binary` to measure; with -e2e-only a comma-separated list, alternated (the first is the baseline of the ratios)")
	fs.StringVar(&o.scifact, "scifact", "../shared/data/scifact", "SciFact BEIR `dir` (corpus.jsonl, queries.jsonl, qrels)")
	fs.StringVar(&o.redisearch, "redisearch", "", "`dir` with redis-server and redisearch.so: also measure the RediSearch backend on a throwaway server")
	moduleArgs := fs.String("redisearch-args", "", "module `arguments` for the RediSearch server, space-separated (e.g. \"WORKERS 4\" for a build with worker threads; the one in ../shared/redisearch takes none)")
	backends := fs.String("backends", Bleve+","+RediSearch, "backends to measure, a comma-separated `list` of bleve and redisearch (redisearch only with -redisearch)")
	fs.StringVar(&o.lucene, "lucene", "", "Lucene peer `script` (../shared/peers/lucene/run.sh): also measure Lucene's BM25")
	fs.StringVar(&o.out, "out", ".assay/bench-scale", "output `dir`: report.md, report.json, scaling.svg, data/, work/, logs/")
	fs.StringVar(&o.vector, "vector", "", "RediSearch builds: assay index's --vector `algorithm` (hnsw, flat or hnsw+small-flat); empty: the binary's default (hnsw+small-flat since round 43; hnsw before)")
	fs.StringVar(&o.team, "team", synth.TeamGroup(7), "the small restricted caller's one `group` (about 2% of the documents)")
	fs.StringVar(&o.partial, "partial", "public", "a larger restricted caller's one `group` (public: about half, what the anonymous caller sees); empty to skip")
	seed := fs.Uint64("seed", synth.DefaultSeed, "corpus generator `seed`")
	render := fs.String("render", "", "measure nothing: rewrite report.md and scaling.svg in -out from this report.json `file`")
	fs.IntVar(&o.e2eN, "e2e-n", 200, "end to end: questions measured per concurrency level")
	fs.IntVar(&o.e2eWarmup, "e2e-warmup", 20, "end to end: questions asked first, not measured")
	fs.StringVar(&o.e2eConc, "e2e-concurrency", "1,8", "end to end: questions in flight, a comma-separated `list`")
	fs.BoolVar(&o.search, "search", true, "measure retrieval with assay search (latency, nDCG); -search=false measures build and end to end only")
	fs.IntVar(&o.searchWarmup, "search-warmup", 1, "retrieval: unmeasured `passes` over the same claims before each assay search's measured one (--warmup), as the Lucene peer makes one; 0 for a binary older than --warmup (round 24)")
	fs.BoolVar(&o.costs, "costs", false, "end to end: also measure what a question costs beyond CPU (Temporal store requests and history, Redis commands, bytes and CPU), docs/capacity.md; the CPU of assay dev and its Temporal dev server a question is always read")
	fs.IntVar(&o.e2ePrewarm, "e2e-prewarm", 0, "end to end: `questions` asked (8 in flight) once assay dev is ready, before anything is measured")
	fs.BoolVar(&o.e2eWarm, "e2e-warm", false, "end to end on bleve: read every index file (vectors.f32 included) once assay dev is ready, so the page cache holds the index when measuring begins; the share cached before the read is recorded beside the share after")
	fs.DurationVar(&o.e2eSettle, "e2e-settle", 2*time.Minute, "end to end: before assay dev starts, sync and wait up to this `long` until at most 64 MiB are dirty or under writeback (a build leaves gigabytes to write); 0 skips")
	fs.StringVar(&o.temporalBin, "temporal-bin", "", "end to end: the Temporal CLI `path` for assay dev (default assay's own, bin/temporal)")
	fs.DurationVar(&o.profile, "profile", 0, "end to end: also take a CPU profile of assay dev this long (`duration`), -profile-delay into assay bench; written beside its data as assay-dev.pprof, with the allocation profiles at its start and end (assay-dev.allocs-{start,end}.pprof; go tool pprof -base start end)")
	fs.DurationVar(&o.profileDelay, "profile-delay", 6*time.Second, "end to end: how long into assay bench the -profile starts")
	fs.BoolVar(&o.e2eOnly, "e2e-only", false, "measure end to end only, on one index: a bleve index built before (-index), or a RediSearch index built once by the first binary into a throwaway server (-redisearch, -data) or already built in a server (-redis-addr, -index); no corpus generation, retrieval or Lucene; the -assay binaries alternate -rounds times; writes e2e.md and e2e.json in -out")
	fs.StringVar(&o.index, "index", "", "with -e2e-only: the bleve index `dir` to serve (as bench-scale leaves it, OUT/work/bleve-N/index; assay dev opens it read-only through a symlink), or with -redis-addr the RediSearch index's name; a trial whose assay dev rebuilds it fails")
	fs.StringVar(&o.data, "data", "", "with -e2e-only: the corpus `dir` the index was built from (corpus.jsonl, questions.jsonl); default OUT/data/N beside an -index at OUT/work/bleve-N/index; required on RediSearch")
	fs.StringVar(&o.redisAddr, "redis-addr", "", "with -e2e-only: serve the RediSearch index -index already built in the Redis at this `address` (host:port; no password)")
	fs.IntVar(&o.rounds, "rounds", 1, "with -e2e-only: `runs` of each binary, alternated in one sitting")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags only)", fs.Args())
	}
	for _, a := range strings.Split(*assays, ",") {
		if a = strings.TrimSpace(a); a != "" {
			o.assays = append(o.assays, a)
		}
	}
	if len(o.assays) == 0 {
		return fmt.Errorf("-assay: no binary given")
	}
	o.assay = o.assays[0]
	if o.e2ePrewarm < 0 || o.e2eSettle < 0 || o.profile < 0 || o.profileDelay < 0 || o.searchWarmup < 0 {
		return fmt.Errorf("-e2e-prewarm, -e2e-settle, -profile, -profile-delay and -search-warmup must not be negative")
	}
	if o.e2eOnly {
		return runE2EOnly(ctx, fs, o, stdout)
	}
	var e2eOnlyFlags []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "index" || f.Name == "data" || f.Name == "rounds" || f.Name == "redis-addr" {
			e2eOnlyFlags = append(e2eOnlyFlags, "-"+f.Name)
		}
	})
	if len(e2eOnlyFlags) > 0 {
		return fmt.Errorf("%s: only with -e2e-only (end to end on an index built before)", strings.Join(e2eOnlyFlags, ", "))
	}
	if len(o.assays) > 1 {
		return fmt.Errorf("-assay: several binaries (%s) only with -e2e-only, which alternates them", strings.Join(o.assays, ", "))
	}
	o.seed = *seed
	o.moduleArgs = strings.Fields(*moduleArgs)
	if *render != "" {
		return rerender(*render, o.out, stdout)
	}
	for _, s := range strings.FieldsFunc(*sizes, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return fmt.Errorf("-n: want positive chunk counts, got %q", s)
		}
		o.sizes = append(o.sizes, n)
	}
	if len(o.sizes) == 0 {
		return fmt.Errorf("-n: no sizes given")
	}
	for _, b := range strings.FieldsFunc(*backends, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch {
		case b != Bleve && b != RediSearch:
			return fmt.Errorf("-backends: %q is not a backend (bleve, redisearch)", b)
		case b == RediSearch && o.redisearch == "":
			continue // measured only with -redisearch, as before
		}
		o.backends = append(o.backends, b)
	}
	if len(o.backends) == 0 {
		return fmt.Errorf("-backends %q: nothing to measure (redisearch needs -redisearch)", *backends)
	}
	var err error
	if o.assay, err = filepath.Abs(o.assay); err != nil {
		return err
	}
	if _, err := os.Stat(o.assay); err != nil {
		return fmt.Errorf("-assay: %w (run make build)", err)
	}
	if o.redisearch != "" {
		if _, err := os.Stat(filepath.Join(o.redisearch, "redis-server")); err != nil {
			return fmt.Errorf("-redisearch: %w", err)
		}
	}
	src, err := eval.LoadBEIR(o.scifact, eval.SplitTest)
	if err != nil {
		return fmt.Errorf("-scifact: %w", err)
	}
	for _, d := range []string{"data", "work", "logs"} {
		if err := os.MkdirAll(filepath.Join(o.out, d), 0o755); err != nil {
			return err
		}
	}
	logf, err := os.Create(filepath.Join(o.out, "logs", "bench-scale.log"))
	if err != nil {
		return err
	}
	defer logf.Close()

	rep := Report{Schema: Schema, Started: time.Now().UTC(), Machine: describeMachine(o.assay), Callers: o.callerNames(), K: searchK, SearchWarmup: o.searchWarmup, Seed: o.seed}
	for _, n := range o.sizes {
		size, err := measureSize(ctx, o, src, n, logf, stdout)
		if err != nil {
			return err
		}
		rep.Sizes = append(rep.Sizes, size)
		// Write after every size: a long run that is stopped keeps what it measured.
		if err := rep.write(o.out); err != nil {
			return err
		}
	}
	rep.Finished = time.Now().UTC()
	if err := rep.write(o.out); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	rep.markdown(stdout)
	fmt.Fprintf(stdout, "\nwrote %s, %s, %s\n", filepath.Join(o.out, "report.md"), filepath.Join(o.out, "report.json"), filepath.Join(o.out, "scaling.svg"))
	if failed := rep.failed(); len(failed) > 0 {
		return fmt.Errorf("%d measurements failed (report.md lists them):\n%s", len(failed), strings.Join(failed, "\n"))
	}
	return nil
}

// failed lists the failed measurements, each with its size and backend
// (or Lucene).
func (rep Report) failed() []string {
	var out []string
	for _, s := range rep.Sizes {
		if s.Lucene != nil && s.Lucene.Error != "" {
			out = append(out, fmt.Sprintf("- %d chunks, lucene: %s", s.Chunks, s.Lucene.Error))
		}
		for _, r := range s.Backends {
			for _, e := range r.Errors {
				out = append(out, fmt.Sprintf("- %d chunks, %s: %s", s.Chunks, r.Backend, e))
			}
		}
	}
	return out
}

// rerender rewrites the report files in dir from a report.json.
func rerender(path, dir string, stdout io.Writer) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if rep.Schema != Schema {
		return fmt.Errorf("%s: schema %q, want %s", path, rep.Schema, Schema)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := rep.write(dir); err != nil {
		return err
	}
	rep.markdown(stdout)
	return nil
}

// measureSize generates the corpus of n chunks and measures Lucene and
// every backend on it. A failed measurement is recorded in the report and
// the run goes on; only failing to make the corpus stops it.
func measureSize(ctx context.Context, o options, src *eval.Dataset, n int, log io.Writer, stdout io.Writer) (Size, error) {
	data := filepath.Join(o.out, "data", strconv.Itoa(n))
	fmt.Fprintf(stdout, "N=%d: generating the corpus in %s\n", n, data)
	st, err := synth.WriteDataset(data, src, synth.Options{Chunks: n, Seed: o.seed})
	if err != nil {
		return Size{}, err
	}
	size := Size{Target: n, Chunks: st.Chunks, Documents: st.Documents, Visible: map[string]int{callerAll: st.Documents}}
	size.LoadAvg[0] = loadAvg()
	for _, c := range o.callerNames()[1:] {
		size.Visible[c] = st.GroupDocs[c]
	}
	qrels, err := eval.LoadQrels(filepath.Join(data, synth.QrelsFile))
	if err != nil {
		return size, err
	}
	if o.lucene != "" {
		fmt.Fprintf(stdout, "N=%d: Lucene BM25\n", n)
		l, err := measureLucene(ctx, o, data, qrels, log)
		if err != nil {
			l.Error = err.Error()
			fmt.Fprintf(stdout, "  lucene: %v\n", err)
		}
		size.Lucene = &l
	}
	for _, b := range o.backends {
		fmt.Fprintf(stdout, "N=%d: %s\n", n, b)
		r := measureBackend(ctx, o, b, n, data, qrels, log, stdout)
		size.Backends = append(size.Backends, r)
	}
	size.LoadAvg[1] = loadAvg()
	return size, nil
}

// luceneLine is run.sh's summary line.
var luceneLine = regexp.MustCompile(`docs=(\d+) index_s=([0-9.]+) queries=(\d+) p50_ms=([0-9.]+) p99_ms=([0-9.]+)`)

func measureLucene(ctx context.Context, o options, data string, qrels eval.Qrels, log io.Writer) (Lucene, error) {
	runFile := filepath.Join(o.out, "work", "lucene-"+filepath.Base(data)+".run")
	c, err := runChild(ctx, log, "bash", o.lucene, data, runFile, strconv.Itoa(searchK))
	if err != nil {
		return Lucene{}, err
	}
	m := luceneLine.FindStringSubmatch(c.out)
	if m == nil {
		return Lucene{}, fmt.Errorf("lucene: no summary line (docs=... p50_ms=...) in: %s", tail(c.out, 300))
	}
	l := Lucene{}
	l.Docs, _ = strconv.Atoi(m[1])
	l.IndexS, _ = strconv.ParseFloat(m[2], 64)
	l.P50MS, _ = strconv.ParseFloat(m[4], 64)
	l.P99MS, _ = strconv.ParseFloat(m[5], 64)
	nd, err := ndcg(runFile, qrels)
	l.NDCG10 = nd
	return l, err
}

// measureBackend builds, searches and serves one backend on one corpus.
func measureBackend(ctx context.Context, o options, backend string, n int, data string, qrels eval.Qrels, log io.Writer, stdout io.Writer) Run {
	r := Run{Backend: backend}
	fail := func(step string, err error) {
		r.Errors = append(r.Errors, step+": "+err.Error())
		fmt.Fprintf(stdout, "  %s: %v\n", step, err)
	}
	work := filepath.Join(o.out, "work", fmt.Sprintf("%s-%d", backend, n))
	if err := os.RemoveAll(work); err != nil {
		fail("clean", err)
		return r
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		fail("clean", err)
		return r
	}
	corpusPath := filepath.Join(data, synth.CorpusFile)
	// where are the flags that choose and address the index, per backend.
	var where []string
	var redis *redisServer
	redisAddr := ""
	switch backend {
	case Bleve:
		where = []string{"--index", filepath.Join(work, "index")}
	case RediSearch:
		var err error
		redis, err = startRedis(o.redisearch, o.moduleArgs, work, log)
		if err != nil {
			fail("redis-server", err)
			return r
		}
		defer redis.stop()
		redisAddr = redis.addr
		where = redisWhere(redis.addr, fmt.Sprintf("scale%d", n))
	}

	// Build.
	c, err := buildIndex(ctx, log, o.assay, o.vectorArgs(backend, where), corpusPath)
	if err != nil {
		fail("build", err)
		return r
	}
	r.BuildS = c.took.Seconds()
	r.BuildPeakRSS = c.peakRSS
	r.Vectors = builtVectors(c.out)
	fmt.Fprintf(stdout, "  built in %.1fs\n", r.BuildS)
	switch backend {
	case Bleve:
		if r.IndexBytes, err = dirSize(filepath.Join(work, "index")); err != nil {
			fail("index size", err)
		}
	case RediSearch:
		if r.IndexBytes, err = redis.usedMemory(ctx); err != nil {
			fail("used_memory", err)
		}
		if o.costs {
			if r.RedisMemory, err = redis.memory(ctx, where[len(where)-1]); err != nil {
				fail("redis memory", err)
			}
		}
	}

	// Retrieval, straight on the index (assay search, batch mode).
	for _, m := range modes {
		for _, caller := range o.callerNames() {
			if !o.search {
				break
			}
			s, err := measureSearch(ctx, o, where, data, work, m, caller, o.groups(caller), qrels, log)
			if err != nil {
				fail("search "+m+" "+caller, err)
				continue
			}
			fmt.Fprintf(stdout, "  %s as %s: p50 %.2fms p99 %.2fms\n", m, caller, s.P50MS, s.P99MS)
			r.Search = append(r.Search, s)
		}
	}

	// End to end: assay dev on the built index, assay bench against it.
	if err := measureE2E(ctx, o, o.assay, &r, where, redisAddr, corpusPath, data, work, log, stdout); err != nil {
		fail("end to end", err)
	}
	return r
}

// redisWhere are the flags that give assay the RediSearch index name in
// the Redis at addr.
func redisWhere(addr, name string) []string {
	return []string{"--backend", "redisearch", "--redis-addr", addr, "--name", name}
}

// buildIndex builds the corpus at corpusPath into the index where names
// with bin (assay index).
func buildIndex(ctx context.Context, log io.Writer, bin string, where []string, corpusPath string) (child, error) {
	return runChild(ctx, log, bin, append(append([]string{"index"}, where...), "--corpus", corpusPath, "--quiet")...)
}

// builtVectors is what `assay index`'s summary line says of the vectors
// it built (the text after its last "; vectors " up to the line's end),
// or "" when its output names none.
func builtVectors(out string) string {
	i := strings.LastIndex(out, "; vectors ")
	if i < 0 {
		return ""
	}
	line, _, _ := strings.Cut(out[i+len("; vectors "):], "\n")
	return strings.TrimSpace(line)
}

// vectorArgs are where with -vector's --vector for a RediSearch build
// (where itself when -vector is empty or the backend is bleve).
func (o options) vectorArgs(backend string, where []string) []string {
	if backend != RediSearch || o.vector == "" {
		return where
	}
	return append(slices.Clip(where), "--vector", o.vector)
}

// callerNames are the callers searched: callerAll (every group), then the
// partial and the team caller, each seeing one group.
func (o options) callerNames() []string {
	out := []string{callerAll}
	if o.partial != "" {
		out = append(out, o.partial)
	}
	return append(out, o.team)
}

// groups is a caller's --as list: every group of the corpus for
// callerAll, else the caller's one group.
func (o options) groups(caller string) string {
	if caller != callerAll {
		return caller
	}
	all := []string{"public", synth.StaffGroup}
	for i := range synth.DefaultTeams {
		all = append(all, synth.TeamGroup(i))
	}
	return strings.Join(all, ",")
}

var searchLine = regexp.MustCompile(`p50 ([0-9.]+)ms, p99 ([0-9.]+)ms`)

func measureSearch(ctx context.Context, o options, where []string, data, work, mode, caller, groups string, qrels eval.Qrels, log io.Writer) (Search, error) {
	runFile := filepath.Join(work, strings.ReplaceAll(mode, "+", "-")+"-"+caller+".run")
	args := append([]string{"search"}, where...)
	args = append(args, "--queries", filepath.Join(data, synth.QueriesFile), "--run", runFile,
		"--mode", mode, "--as", groups, "--k", strconv.Itoa(searchK))
	if o.searchWarmup > 0 {
		args = append(args, "--warmup", strconv.Itoa(o.searchWarmup))
	}
	c, err := runChild(ctx, log, o.assay, args...)
	if err != nil {
		return Search{}, err
	}
	m := searchLine.FindStringSubmatch(c.out)
	if m == nil {
		return Search{}, fmt.Errorf("no p50/p99 in the output of assay search: %s", tail(c.out, 300))
	}
	s := Search{Mode: mode, Caller: caller, PeakRSS: c.peakRSS}
	s.P50MS, _ = strconv.ParseFloat(m[1], 64)
	s.P99MS, _ = strconv.ParseFloat(m[2], 64)
	if caller == callerAll {
		nd, err := ndcg(runFile, qrels)
		if err != nil {
			return s, err
		}
		s.NDCG10 = &nd
	}
	return s, nil
}

// ndcg is the mean nDCG@10 of a TREC run file against qrels.
func ndcg(runFile string, qrels eval.Qrels) (float64, error) {
	run, err := eval.LoadRun(runFile)
	if err != nil {
		return 0, err
	}
	ev, err := eval.Evaluate(qrels, run, eval.Options{})
	if err != nil {
		return 0, err
	}
	c, ok := ev.Mean.At(ndcgCutoff)
	if !ok {
		return 0, fmt.Errorf("%s: no nDCG@%d", runFile, ndcgCutoff)
	}
	return c.NDCG, nil
}

// benchReport is the part of `assay bench --json` (assay.bench/v1) read here.
type benchReport struct {
	Schema string `json:"schema"`
	Rows   []struct {
		Concurrency  int            `json:"concurrency"`
		Completed    int            `json:"completed"`
		Errors       int            `json:"errors"`
		FirstError   string         `json:"first_error"`
		FirstFailure string         `json:"first_failure"`
		PerSecond    float64        `json:"questions_per_second"`
		P50MS        float64        `json:"p50_ms"`
		P95MS        float64        `json:"p95_ms"`
		P99MS        float64        `json:"p99_ms"`
		StopReasons  map[string]int `json:"stop_reasons"`
	} `json:"rows"`
}

// measureE2E starts bin's assay dev on the index that where names (bleve:
// <work>/index, the data dir's) and runs assay bench against it: r gets
// the rows, assay dev's memory and what a question cost (CPU always; the
// rest with -costs).
func measureE2E(ctx context.Context, o options, bin string, r *Run, where []string, redisAddr, corpusPath, data, work string, log io.Writer, stdout io.Writer) error {
	var ports [4]int
	for i := range ports {
		p, err := freePort()
		if err != nil {
			return err
		}
		ports[i] = p
	}
	if o.e2eSettle > 0 {
		took, left, err := settleWriteback(ctx, settleLimit, o.e2eSettle)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  sync: %.1fs, %.0f MiB left dirty or under writeback\n", took.Seconds(), float64(left)/(1<<20))
	}
	addr := "127.0.0.1:" + strconv.Itoa(ports[0])
	args := []string{"dev", "--data-dir", work, "--corpus", corpusPath, "--http-addr", addr,
		"--temporal-port", strconv.Itoa(ports[1]), "--ui-port", strconv.Itoa(ports[2])}
	if where[0] != "--index" { // bleve's index is <data-dir>/index, where it was built
		args = append(args, where...)
	}
	if o.temporalBin != "" {
		args = append(args, "--temporal-bin", o.temporalBin)
	}
	pprofAddr := "127.0.0.1:" + strconv.Itoa(ports[3])
	if o.profile > 0 {
		args = append(args, "--pprof-addr", pprofAddr)
	}
	dev, err := startService(log, bin, args...)
	if err != nil {
		return err
	}
	defer dev.stop()
	if err := dev.waitHTTP("http://"+addr+"/readyz", 10*time.Minute); err != nil {
		return fmt.Errorf("assay dev: %w", err)
	}
	if r.WorkerRSS, _, err = dev.memory(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  assay dev ready: VmRSS %s\n", mib(r.WorkerRSS))
	if o.served != nil {
		if err := o.served.check(ctx, work); err != nil {
			return err
		}
	}
	askBench := func(conc string, n, warmup int, jsonOut string) (child, error) {
		return runChild(ctx, log, bin, "bench", "--server", "http://"+addr, "--questions", filepath.Join(data, synth.QuestionsFile),
			"-concurrency", conc, "-n", strconv.Itoa(n), "-warmup", strconv.Itoa(warmup), "--json", jsonOut)
	}
	if o.e2ePrewarm > 0 {
		if _, err := askBench("8", o.e2ePrewarm, 0, filepath.Join(work, "e2e-prewarm.json")); err != nil {
			return fmt.Errorf("pre-warm: %w", err)
		}
	}
	if where[0] == "--index" {
		if o.e2eWarm {
			cold, err := readPageState(filepath.Join(work, "index"))
			if err != nil {
				return err
			}
			r.E2EBeforeWarm = &cold
			t0 := time.Now()
			n, err := warmIndex(filepath.Join(work, "index"))
			if err != nil {
				return fmt.Errorf("-e2e-warm: %w", err)
			}
			fmt.Fprintf(stdout, "  before -e2e-warm, index in page cache (vectors.f32); dirty + writeback: %s; read %.0f MiB in %.1fs\n", cold.String(), float64(n)/(1<<20), time.Since(t0).Seconds())
		}
		ps, err := readPageState(filepath.Join(work, "index"))
		if err != nil {
			return err
		}
		r.E2EStart = &ps
		fmt.Fprintf(stdout, "  index in page cache (vectors.f32); dirty + writeback: %s\n", ps.String())
	}
	probe, err := newCostProbe(dev.cmd.Process.Pid, redisAddr, o.costs)
	if err != nil {
		return err
	}
	defer probe.close()
	before, err := probe.read(ctx)
	if err != nil {
		return err
	}
	profiled := make(chan error, 1)
	if o.profile > 0 {
		go func() {
			profiled <- takeProfile(ctx, "http://"+pprofAddr, o.profileDelay, o.profile, filepath.Join(work, "assay-dev.pprof"))
		}()
	}
	jsonOut := filepath.Join(work, "e2e.json")
	client, err := askBench(o.e2eConc, o.e2eN, o.e2eWarmup, jsonOut)
	if err != nil {
		// A binary's assay bench that fails a level (every question
		// failed) still writes its rows, kept in the report; its error
		// names the binary and the first failure.
		if rows, rerr := readBenchRows(jsonOut); rerr == nil {
			r.E2E = rows
			if ferr := allFailed(filepath.Base(bin), rows); ferr != nil {
				return ferr
			}
		}
		return err
	}
	after, err := probe.read(ctx)
	if err != nil {
		return err
	}
	if o.profile > 0 {
		if err := <-profiled; err != nil {
			return fmt.Errorf("profile: %w", err)
		}
	}
	levels := len(strings.Split(o.e2eConc, ","))
	c := perQuestion(before, after, (o.e2eWarmup+o.e2eN)*levels)
	c.attribute(client.cpu)
	if o.costs {
		if c.History, err = temporalHistory(ctx, "127.0.0.1:"+strconv.Itoa(ports[1]), before.at); err != nil {
			return err
		}
	}
	r.Costs = &c
	fmt.Fprintf(stdout, "  per question: CPU %.1f ms assay dev, %.1f ms Temporal dev server, %.1f ms assay bench, %.1f ms other work on the machine, %.1f ms steal; disk reads %.1f KiB\n",
		c.AssayCPUMS, c.TemporalCPUMS, c.BenchCPUMS, c.OtherCPUMS, c.StealMS, c.DiskReadKiB)
	if _, r.WorkerHWM, err = dev.memory(); err != nil {
		return err
	}
	if r.E2E, err = readBenchRows(jsonOut); err != nil {
		return err
	}
	for _, e := range r.E2E {
		fmt.Fprintf(stdout, "  end to end, %d in flight: %.1f q/s, p50 %.0fms; %d errors, %d failed\n", e.Concurrency, e.PerSecond, e.P50MS, e.Errors, e.Failed)
	}
	return allFailed(filepath.Base(bin), r.E2E)
}

// readBenchRows reads assay bench's --json rows, counting each level's
// failed runs from its stop reasons.
func readBenchRows(path string) ([]E2E, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var br benchReport
	if err := json.Unmarshal(b, &br); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if br.Schema != "assay.bench/v1" {
		return nil, fmt.Errorf("%s: schema %q, want assay.bench/v1", path, br.Schema)
	}
	var rows []E2E
	for _, row := range br.Rows {
		e := E2E{Concurrency: row.Concurrency, Completed: row.Completed, Errors: row.Errors, FirstError: row.FirstError,
			FirstFailure: row.FirstFailure, PerSecond: row.PerSecond, P50MS: row.P50MS, P95MS: row.P95MS, P99MS: row.P99MS, StopReasons: row.StopReasons}
		for _, n := range failedOnly(row.StopReasons) {
			e.Failed += n
		}
		rows = append(rows, e)
	}
	return rows, nil
}

// failedLevel is allFailed's error.
type failedLevel struct{ msg string }

func (e *failedLevel) Error() string { return e.msg }

// allFailed is an error when a level's questions all failed (errors and
// failed runs, none answered or declined), naming the binary, the stop
// reasons and the first failure: such a level measured how fast the
// service fails, not how fast it answers.
func allFailed(bin string, rows []E2E) error {
	for _, e := range rows {
		if e.Completed > e.Failed {
			continue
		}
		why := e.FirstFailure
		if why == "" {
			why = e.FirstError
		}
		if why == "" {
			why = "its assay bench gives no detail"
		}
		return &failedLevel{fmt.Sprintf("%s: every question at %d in flight failed (%d errors; %d runs stopped %s): %s; not measured (assay dev's log, in OUT/logs, says why)",
			bin, e.Concurrency, e.Errors, e.Failed, orNone(stopReasons(failedOnly(e.StopReasons))), why)}
	}
	return nil
}

// failedOnly is the failure stop reasons of m with their counts.
func failedOnly(m map[string]int) map[string]int {
	out := map[string]int{}
	for s, n := range m {
		if bench.Failure(wire.StopReason(s)) {
			out[s] = n
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// takeProfile waits delay, then saves a CPU profile of seconds from the
// pprof server at base into path.
func takeProfile(ctx context.Context, base string, delay, d time.Duration, path string) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(delay):
	}
	secs := max(1, int(d.Round(time.Second)/time.Second))
	allocs := strings.TrimSuffix(path, ".pprof") + ".allocs"
	if err := savePprof(base+"/debug/pprof/allocs", allocs+"-start.pprof"); err != nil {
		return err
	}
	if err := savePprof(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", base, secs), path); err != nil {
		return err
	}
	return savePprof(base+"/debug/pprof/allocs", allocs+"-end.pprof")
}

// savePprof saves what the pprof endpoint url answers into path. takeProfile
// saves the allocation profile (counted since assay dev started) at the CPU
// profile's start and end: go tool pprof -base START END is the window's.
func savePprof(url, path string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
