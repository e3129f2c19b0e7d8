package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/internal/synth"
)

// E2ESchema names e2e.json's shape (-e2e-only).
const E2ESchema = "assay.bench.scale.e2e/v1"

// E2EReport is e2e.json: the end-to-end phase alone on an index built
// before, the binaries alternated in one sitting.
type E2EReport struct {
	Schema   string    `json:"schema"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
	Machine  Machine   `json:"machine"` // assay_version: the first binary's
	// Backend is the index's: bleve or redisearch.
	Backend string `json:"backend"`
	// Index is the bleve index's dir, or the RediSearch version served
	// and its server.
	Index string `json:"index"`
	Data  string `json:"data"`
	// BuildS is how long the first binary took to build the RediSearch
	// index into the throwaway server (-redisearch); 0 otherwise.
	BuildS float64 `json:"build_s,omitempty"`
	// Chunks is the corpus's size as synth.json gives it (0 when absent).
	Chunks      int      `json:"chunks"`
	Concurrency []int    `json:"concurrency"`
	N           int      `json:"n"`
	Warmup      int      `json:"warmup"`
	Prewarm     int      `json:"prewarm"`
	Binaries    []Binary `json:"binaries"`
	// Trials are the runs in the order they ran.
	Trials []Trial `json:"trials"`
}

// Binary is one assay binary measured.
type Binary struct {
	Label   string `json:"label"`
	Path    string `json:"path"`
	Version string `json:"version"`
	// Release is the release of its own the binary's runs serve on
	// RediSearch: made by it before the first run (assay release create,
	// the index as served, with its models, prompts, policy and loop
	// defaults) and promoted before each of its runs. Empty on bleve
	// (every run's data dir, and so its release store, is fresh) and for
	// a binary older than releases, whose assay dev serves none.
	Release string `json:"release,omitempty"`
}

// Trial is one binary's run: assay dev started on the index, assay bench
// against it. Run holds the rows, memory and CPU a question (the build
// and search fields stay empty).
type Trial struct {
	Binary   int       `json:"binary"` // index into Binaries
	Round    int       `json:"round"`  // 1-based
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	LoadAvg  [2]string `json:"loadavg"` // /proc/loadavg before and after
	Profile  string    `json:"profile,omitempty"`
	Run      Run       `json:"run"`
}

// e2eOnlyExcluded are flags of the whole benchmark that -e2e-only does not use.
var e2eOnlyExcluded = []string{"n", "scifact", "backends", "lucene", "team", "partial", "seed", "render", "search"}

// indexLayout is where bench-scale leaves a bleve index: OUT/work/bleve-N/index.
var indexLayout = regexp.MustCompile(`^bleve-(\d+)$`)

// runE2EOnly checks -e2e-only's flags and runs the alternation.
func runE2EOnly(ctx context.Context, fs *flag.FlagSet, o options, stdout io.Writer) (retErr error) {
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(e2eOnlyExcluded, f.Name) {
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) > 0 {
		return fmt.Errorf("-e2e-only measures an index built before: %s does not apply", strings.Join(bad, ", "))
	}
	if o.rounds < 1 {
		return fmt.Errorf("-rounds: want at least 1, got %d", o.rounds)
	}
	var err error
	switch {
	case o.redisearch != "" && o.redisAddr != "":
		return fmt.Errorf("-e2e-only: -redisearch (a throwaway server, built here) or -redis-addr (an index built before), not both")
	case o.redisearch != "":
		if o.index != "" {
			return fmt.Errorf("-e2e-only -redisearch builds -data's corpus into a throwaway server: -index does not apply (an index built before: -redis-addr and -index NAME)")
		}
		if _, err := os.Stat(filepath.Join(o.redisearch, "redis-server")); err != nil {
			return fmt.Errorf("-redisearch: %w", err)
		}
	case o.redisAddr != "":
		if o.index == "" {
			return fmt.Errorf("-e2e-only -redis-addr needs -index, the name of the RediSearch index to serve")
		}
	default:
		if o.index == "" {
			return fmt.Errorf("-e2e-only needs -index, the bleve index dir to serve (e.g. OUT/work/bleve-500000/index of an earlier bench-scale run), or -redisearch or -redis-addr")
		}
		if o.index, err = filepath.Abs(o.index); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(o.index, "manifest.json")); err != nil {
			return fmt.Errorf("-index %s: no manifest.json, not an index `assay index` built: %w", o.index, err)
		}
		if o.data == "" {
			parent := filepath.Dir(o.index) // OUT/work/bleve-N
			m := indexLayout.FindStringSubmatch(filepath.Base(parent))
			if filepath.Base(o.index) != "index" || m == nil || filepath.Base(filepath.Dir(parent)) != "work" {
				return fmt.Errorf("-index %s is not at OUT/work/bleve-N/index: say where its corpus is with -data", o.index)
			}
			o.data = filepath.Join(filepath.Dir(filepath.Dir(parent)), "data", m[1])
		}
	}
	if o.data == "" {
		return fmt.Errorf("-e2e-only on RediSearch needs -data, the corpus dir the index is (or is to be) built from (OUT/data/N of a bench-scale run)")
	}
	if o.data, err = filepath.Abs(o.data); err != nil {
		return err
	}
	for _, f := range []string{synth.CorpusFile, synth.QuestionsFile} {
		if _, err := os.Stat(filepath.Join(o.data, f)); err != nil {
			return fmt.Errorf("-data %s: %w", o.data, err)
		}
	}
	var concs []int
	for _, c := range strings.Split(o.e2eConc, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return fmt.Errorf("-e2e-concurrency: want positive numbers separated by commas, got %q", o.e2eConc)
		}
		concs = append(concs, n)
	}
	var bins []Binary
	for _, a := range o.assays {
		p, err := filepath.Abs(a)
		if err != nil {
			return err
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("-assay: %w", err)
		}
		bins = append(bins, Binary{Path: p})
	}
	machine := describeMachine(bins[0].Path)
	for i := range bins {
		if i == 0 {
			bins[i].Version = machine.Assay
			continue
		}
		bins[i].Version = describeMachine(bins[i].Path).Assay
	}
	labelBinaries(bins)
	if err := os.MkdirAll(filepath.Join(o.out, "logs"), 0o755); err != nil {
		return err
	}
	logf, err := os.Create(filepath.Join(o.out, "logs", "e2e.log"))
	if err != nil {
		return err
	}
	defer logf.Close()

	rep := E2EReport{Schema: E2ESchema, Started: time.Now().UTC(), Machine: machine, Data: o.data,
		Concurrency: concs, N: o.e2eN, Warmup: o.e2eWarmup, Prewarm: o.e2ePrewarm, Binaries: bins}
	if st, err := os.ReadFile(filepath.Join(o.data, synth.StatsFile)); err == nil {
		var s struct{ Chunks int }
		if json.Unmarshal(st, &s) == nil {
			rep.Chunks = s.Chunks
		}
	}
	served, buildS, stop, err := o.serve(ctx, bins[0], rep.Chunks, logf, stdout)
	if err != nil {
		return err
	}
	defer stop()
	o.served = &served
	rep.Backend, rep.Index, rep.BuildS = served.backend, served.String(), buildS
	if served.backend == RediSearch {
		// The release store is the index's, in Redis, shared by every
		// run: a binary's assay dev would otherwise serve the release
		// the first one made ("initial"), and with other models refuse
		// every question (search_error). Each binary gets its own.
		stamp := rep.Started.Format("20060102t150405")
		// The active set before (stable, canary, the previous stables
		// rollback returns to), put back as it was at the end, also
		// when the runs fail or are interrupted: with -redis-addr the
		// server may serve other workers, and promoting the bench's
		// releases changes all three.
		before, err := served.activeReleases(ctx)
		if err != nil {
			return fmt.Errorf("reading the active releases of %s: %w", served.name, err)
		}
		defer func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if rerr := served.restoreReleases(rctx, before); rerr != nil {
				fmt.Fprintf(stdout, "the active releases of %s could not be put back (%+v): %v\n", served.name, before, rerr)
				retErr = errors.Join(retErr, fmt.Errorf("putting back the active releases of %s (%+v): %w", served.name, before, rerr))
				return
			}
			fmt.Fprintf(stdout, "the active releases of %s are as before the runs: %s\n", served.name, describeActive(before))
		}()
		for i := range bins {
			name := fmt.Sprintf("bench-%s-%d", stamp, i+1)
			ok, err := served.ownRelease(ctx, logf, bins[i].Path, name, o.releaseDir())
			if err != nil {
				return fmt.Errorf("-assay %s: making its release on %s (assay release create): %w", bins[i].Label, served.name, err)
			}
			if !ok {
				fmt.Fprintf(stdout, "%s has no `assay release` (older than releases): its runs serve no release\n", bins[i].Label)
				continue
			}
			bins[i].Release = name
			fmt.Fprintf(stdout, "release %s: %s's models on the index served\n", name, bins[i].Label)
		}
		rep.Binaries = bins
	}
	for round := 1; round <= o.rounds; round++ {
		for i, b := range bins {
			t := runTrial(ctx, o, b, i, round, logf, stdout)
			rep.Trials = append(rep.Trials, t)
			if err := rep.write(o.out); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	rep.Finished = time.Now().UTC()
	if err := rep.write(o.out); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	rep.markdown(stdout)
	fmt.Fprintf(stdout, "\nwrote %s, %s\n", filepath.Join(o.out, "e2e.md"), filepath.Join(o.out, "e2e.json"))
	if failed := rep.failed(); len(failed) > 0 {
		return fmt.Errorf("%d of %d runs failed (each counts in no mean; %s lists them):\n%s", len(failed), len(rep.Trials),
			filepath.Join(o.out, "e2e.md"), strings.Join(failed, "\n"))
	}
	return nil
}

// failed lists the failed runs, each with its binary, round and errors.
func (rep E2EReport) failed() []string {
	var out []string
	for _, t := range rep.Trials {
		if len(t.Run.Errors) > 0 {
			out = append(out, fmt.Sprintf("- %s, round %d: %s", rep.Binaries[t.Binary].Label, t.Round, strings.Join(t.Run.Errors, "; ")))
		}
	}
	return out
}

// releaseDir is the data dir the release commands run with (on
// RediSearch the store is in Redis; nothing is written there).
func (o options) releaseDir() string { return filepath.Join(o.out, "work", "e2e-releases") }

// labelBinaries names each binary by its file name, or by its path when
// two share a name.
func labelBinaries(bins []Binary) {
	names := map[string]int{}
	for _, b := range bins {
		names[filepath.Base(b.Path)]++
	}
	for i := range bins {
		bins[i].Label = filepath.Base(bins[i].Path)
		if names[bins[i].Label] > 1 {
			bins[i].Label = bins[i].Path
		}
		bins[i].Label = string(rune('A'+i%26)) + " " + bins[i].Label
	}
}

// runTrial serves the index with one binary in a data dir of its own
// (OUT/work/e2e/NN-X: the index a symlink, the Temporal database fresh)
// and measures it. A failure is recorded in the trial's run.
func runTrial(ctx context.Context, o options, b Binary, i, round int, log io.Writer, stdout io.Writer) Trial {
	t := Trial{Binary: i, Round: round, Started: time.Now().UTC(), Run: Run{Backend: o.served.backend}}
	logFile, _ := log.(*os.File)
	logStart := int64(-1)
	if logFile != nil {
		if off, err := logFile.Seek(0, io.SeekCurrent); err == nil {
			logStart = off
		}
	}
	t.LoadAvg[0] = loadAvg()
	fmt.Fprintf(stdout, "round %d, %s (%s), load %s\n", round, b.Label, t.Started.Format("15:04:05 MST"), t.LoadAvg[0])
	work := filepath.Join(o.out, "work", "e2e", fmt.Sprintf("%02d-%c", (round-1)*len(o.assays)+i+1, 'A'+i%26))
	err := os.RemoveAll(work)
	if err == nil {
		err = os.MkdirAll(work, 0o755)
	}
	var where []string
	if err == nil {
		where, err = o.served.where(work)
	}
	if err == nil && b.Release != "" {
		if err = o.served.promote(ctx, log, b.Path, b.Release, o.releaseDir()); err != nil {
			err = fmt.Errorf("promoting its release %s: %w", b.Release, err)
		}
	}
	if err == nil {
		err = measureE2E(ctx, o, b.Path, &t.Run, where, o.served.redisAddr,
			filepath.Join(o.data, synth.CorpusFile), o.data, work, log, stdout)
	}
	var fl *failedLevel
	if errors.As(err, &fl) && logStart >= 0 {
		if why := firstStageFailure(logFile.Name(), logStart); why != "" {
			err = fmt.Errorf("%w; assay dev logged: %s", err, why)
		}
	}
	if err != nil {
		t.Run.Errors = append(t.Run.Errors, err.Error())
		fmt.Fprintf(stdout, "  end to end: %v\n", err)
	}
	if o.profile > 0 {
		if p := filepath.Join(work, "assay-dev.pprof"); fileExists(p) {
			t.Profile = p
		}
	}
	t.Finished = time.Now().UTC()
	t.LoadAvg[1] = loadAvg()
	return t
}

// stageFailed is the error of assay dev's log line for a stage that
// failed (`msg="stage failed" ... error="..."`).
var stageFailed = regexp.MustCompile(`msg="stage failed".* error=("(?:[^"\\]|\\.)*")`)

// firstStageFailure is the error of the first stage failure assay dev
// logged in path from offset from on (a trial's part of the log), or "".
func firstStageFailure(path string, from int64) string {
	b, err := os.ReadFile(path)
	if err != nil || from > int64(len(b)) {
		return ""
	}
	m := stageFailed.FindSubmatch(b[from:])
	if m == nil {
		return ""
	}
	s, err := strconv.Unquote(string(m[1]))
	if err != nil {
		return ""
	}
	return s
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// servedIndex is the index every -e2e-only trial serves.
type servedIndex struct {
	backend string
	// dir is bleve's index, linked into each trial's data dir.
	dir string
	// redisAddr and name address the RediSearch index; version is the
	// version every trial must serve (redisearch.Current's description).
	redisAddr, name, version string
}

// serve readies -e2e-only's index: bleve's -index as it is; on
// RediSearch the index -redis-addr holds, or -data's corpus built by bin
// into a throwaway server that stop stops (buildS is the build's time).
func (o options) serve(ctx context.Context, bin Binary, chunks int, log io.Writer, stdout io.Writer) (s servedIndex, buildS float64, stop func(), err error) {
	stop = func() {}
	switch {
	case o.redisearch != "":
		work := filepath.Join(o.out, "work", "e2e-redis")
		if err := os.MkdirAll(work, 0o755); err != nil {
			return s, 0, stop, err
		}
		srv, err := startRedis(o.redisearch, o.moduleArgs, work, log)
		if err != nil {
			return s, 0, stop, fmt.Errorf("redis-server: %w", err)
		}
		s = servedIndex{backend: RediSearch, redisAddr: srv.addr, name: fmt.Sprintf("scale%d", chunks)}
		fmt.Fprintf(stdout, "building %s into a throwaway Redis at %s with %s\n", o.data, srv.addr, bin.Label)
		c, err := buildIndex(ctx, log, bin.Path, o.vectorArgs(RediSearch, redisWhere(s.redisAddr, s.name)), filepath.Join(o.data, synth.CorpusFile))
		if err != nil {
			srv.stop()
			return s, 0, stop, fmt.Errorf("build: %w", err)
		}
		buildS, stop = c.took.Seconds(), func() { srv.stop() }
		fmt.Fprintf(stdout, "  built in %.1fs\n", buildS)
	case o.redisAddr != "":
		s = servedIndex{backend: RediSearch, redisAddr: o.redisAddr, name: o.index}
	default:
		return servedIndex{backend: Bleve, dir: o.index}, 0, stop, nil
	}
	c := redisearch.NewClient(s.redisAddr, "")
	defer c.Close()
	if s.version, err = redisearch.Current(ctx, c, s.name); err != nil {
		stop()
		return s, 0, func() {}, err
	}
	return s, buildS, stop, nil
}

// ownRelease makes release name with bin on the RediSearch index s
// (assay release create without --corpus: the index as served, and bin's
// models, prompts, routing policy and loop defaults). ok is false for a
// binary older than releases (no `assay release`): its assay dev serves
// no release, whatever the store holds.
func (s servedIndex) ownRelease(ctx context.Context, log io.Writer, bin, name, dataDir string) (ok bool, err error) {
	args := append([]string{"release", "create", name}, append(redisWhere(s.redisAddr, s.name), "--data-dir", dataDir,
		"--note", "bench-scale -e2e-only: the runs of "+bin)...)
	c, err := runChild(ctx, log, bin, args...)
	if err != nil {
		if strings.Contains(c.out, `unknown command "release"`) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// activeReleases is the active set of the RediSearch index s's release
// store (zero when no release was ever promoted), read from Redis.
func (s servedIndex) activeReleases(ctx context.Context) (release.Active, error) {
	st := s.releaseStore()
	defer st.Close()
	return st.Active(ctx)
}

// restoreReleases writes a back as the active set of s's release store:
// the stable release, any canary and the previous stables as they were,
// which promoting the bench's releases replaced. The bench's releases
// stay in the store.
func (s servedIndex) restoreReleases(ctx context.Context, a release.Active) error {
	st := s.releaseStore()
	defer st.Close()
	return st.SetActive(ctx, a)
}

func (s servedIndex) releaseStore() *release.RedisStore {
	return &release.RedisStore{RDB: redisearch.NewClient(s.redisAddr, ""), Prefix: release.RedisPrefix(s.name), Own: true}
}

// describeActive is an active set in words.
func describeActive(a release.Active) string {
	if a.Stable == "" {
		return "none promoted"
	}
	out := "stable " + a.Stable
	if a.Candidate != "" {
		out += fmt.Sprintf(", candidate %s at %d%%", a.Candidate, a.Share)
	}
	if len(a.Previous) > 0 {
		out += ", previous " + strings.Join(a.Previous, ", ")
	}
	return out
}

// promote makes release name stable (assay release promote), so that
// the next assay dev's runs serve it.
func (s servedIndex) promote(ctx context.Context, log io.Writer, bin, name, dataDir string) error {
	_, err := runChild(ctx, log, bin, append([]string{"release", "promote", name}, append(redisWhere(s.redisAddr, s.name), "--data-dir", dataDir)...)...)
	return err
}

func (s servedIndex) String() string {
	if s.backend == RediSearch {
		return fmt.Sprintf("%s, Redis at %s", s.version, s.redisAddr)
	}
	return s.dir
}

// where readies a trial's data dir work and returns the flags that give
// its assay dev the index: bleve's linked in as work/index, RediSearch's
// by address and name.
func (s servedIndex) where(work string) ([]string, error) {
	if s.backend == RediSearch {
		return redisWhere(s.redisAddr, s.name), nil
	}
	link := filepath.Join(work, "index")
	return []string{"--index", link}, os.Symlink(s.dir, link)
}

// check fails when a trial's assay dev serves another index than s: it
// rebuilt it (the corpus or the binary's index settings differ from those
// it was built with), so it measured something else. A bleve index is
// untouched (a rebuild swaps the trial's symlink, not its target); a
// RediSearch rebuild made a new version, which later trials, checked
// against the first, refuse too.
func (s servedIndex) check(ctx context.Context, work string) error {
	if s.backend == RediSearch {
		c := redisearch.NewClient(s.redisAddr, "")
		defer c.Close()
		v, err := redisearch.Current(ctx, c, s.name)
		if err != nil {
			return err
		}
		if v != s.version {
			return fmt.Errorf("assay dev rebuilt the index instead of serving %s (now %s; corpus or index settings differ from the build's); not measured", s.version, v)
		}
		return nil
	}
	fi, err := os.Lstat(filepath.Join(work, "index"))
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("assay dev rebuilt the index instead of serving %s (corpus or index settings differ from the build's); not measured", s.dir)
	}
	return nil
}

func (rep E2EReport) write(dir string) error { return writeReport(dir, "e2e", rep, rep.markdown) }

// markdown writes one table: a row per measure, a column per binary with
// each of its runs' values in the order they ran, then each later
// binary's ratio of means against the first. Failed runs count in no mean.
func (rep E2EReport) markdown(w io.Writer) {
	chunks := "?"
	if rep.Chunks > 0 {
		chunks = thousands(rep.Chunks)
	}
	index := rep.Index
	if rep.Backend == RediSearch {
		index = "RediSearch " + index
		if rep.BuildS > 0 {
			index += fmt.Sprintf(" (built in %.1f s by %s)", rep.BuildS, rep.Binaries[0].Label)
		}
	}
	fmt.Fprintf(w, "End to end (%s), %s; %d CPUs (%s); %s chunks, index %s; assay bench -concurrency %s -n %d -warmup %d",
		E2ESchema, rep.Started.Format("2006-01-02 15:04 MST"), rep.Machine.CPUs, rep.Machine.cpuWords(), chunks, index,
		joinInts(rep.Concurrency), rep.N, rep.Warmup)
	if rep.Prewarm > 0 {
		fmt.Fprintf(w, " after %d pre-warm questions", rep.Prewarm)
	}
	fmt.Fprint(w, ".\n\n| measure |")
	for bi, b := range rep.Binaries {
		n := rep.runs(bi)
		fmt.Fprintf(w, " %s (%d run%s) |", b.Label, n, map[bool]string{true: "s"}[n != 1])
	}
	for _, b := range rep.Binaries[1:] {
		fmt.Fprintf(w, " %s ÷ %s, ratio of means |", firstWord(strings.Fields(b.Label)), firstWord(strings.Fields(rep.Binaries[0].Label)))
	}
	fmt.Fprint(w, "\n|---|")
	for range len(rep.Binaries)*2 - 1 {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	row := func(name string, format string, value func(r Run) (float64, bool)) {
		fmt.Fprintf(w, "| %s |", name)
		means := make([]float64, len(rep.Binaries))
		for bi := range rep.Binaries {
			var vals []string
			sum, n := 0.0, 0
			for _, t := range rep.Trials {
				if t.Binary != bi {
					continue
				}
				v, ok := value(t.Run)
				if !ok || len(t.Run.Errors) > 0 {
					vals = append(vals, "—")
					continue
				}
				vals = append(vals, fmt.Sprintf(format, v))
				sum += v
				n++
			}
			if n > 0 {
				means[bi] = sum / float64(n)
			}
			fmt.Fprintf(w, " %s |", strings.Join(vals, " / "))
		}
		for bi := range rep.Binaries[1:] {
			if means[0] == 0 || means[bi+1] == 0 {
				fmt.Fprint(w, " — |")
				continue
			}
			fmt.Fprintf(w, " ×%.2f |", means[bi+1]/means[0])
		}
		fmt.Fprintln(w)
	}
	for _, c := range rep.Concurrency {
		row(fmt.Sprintf("questions/s, %d in flight", c), "%.1f", func(r Run) (float64, bool) {
			e, ok := r.e2e(c)
			return e.PerSecond, ok
		})
	}
	for _, c := range rep.Concurrency {
		row(fmt.Sprintf("p50 ms, %d in flight", c), "%.0f", func(r Run) (float64, bool) {
			e, ok := r.e2e(c)
			return e.P50MS, ok
		})
	}
	cpu := func(f func(c *Costs) float64) func(r Run) (float64, bool) {
		return func(r Run) (float64, bool) {
			if r.Costs == nil {
				return 0, false
			}
			return f(r.Costs), true
		}
	}
	row("CPU a question, assay dev, ms", "%.1f", cpu(func(c *Costs) float64 { return c.AssayCPUMS }))
	row("CPU a question, Temporal dev server, ms", "%.1f", cpu(func(c *Costs) float64 { return c.TemporalCPUMS }))
	row("CPU a question, both, ms", "%.1f", cpu(func(c *Costs) float64 { return c.AssayCPUMS + c.TemporalCPUMS }))
	row("CPU a question, assay bench client, ms", "%.1f", cpu(func(c *Costs) float64 { return c.BenchCPUMS }))
	row("CPU a question, other work on the machine (and steal), ms", "%.1f", cpu(func(c *Costs) float64 { return c.OtherCPUMS + c.StealMS }))
	row("disk reads a question (the machine's), KiB", "%.1f", cpu(func(c *Costs) float64 { return c.DiskReadKiB }))
	row("index in page cache when measuring began, %", "%.0f", func(r Run) (float64, bool) {
		if r.E2EStart == nil || r.E2EStart.IndexBytes == 0 {
			return 0, false
		}
		return 100 * float64(r.E2EStart.IndexCached) / float64(r.E2EStart.IndexBytes), true
	})
	row("vectors.f32 in page cache when measuring began, %", "%.0f", func(r Run) (float64, bool) {
		if r.E2EStart == nil || r.E2EStart.VectorsBytes == 0 {
			return 0, false
		}
		return 100 * float64(r.E2EStart.VectorsCache) / float64(r.E2EStart.VectorsBytes), true
	})
	row("vectors.f32 in page cache before -e2e-warm, %", "%.0f", func(r Run) (float64, bool) {
		if r.E2EBeforeWarm == nil || r.E2EBeforeWarm.VectorsBytes == 0 {
			return 0, false
		}
		return 100 * float64(r.E2EBeforeWarm.VectorsCache) / float64(r.E2EBeforeWarm.VectorsBytes), true
	})
	row("dirty + writeback when measuring began, MiB", "%.0f", func(r Run) (float64, bool) {
		if r.E2EStart == nil {
			return 0, false
		}
		return float64(r.E2EStart.DirtyBytes) / (1 << 20), true
	})
	row("assay dev peak resident (VmHWM), MiB", "%.0f", func(r Run) (float64, bool) {
		return float64(r.WorkerHWM) / (1 << 20), r.WorkerHWM > 0
	})
	fmt.Fprintln(w, "\nRuns, in the order they ran:")
	for n, t := range rep.Trials {
		fmt.Fprintf(w, "%d. %s–%s UTC, load %s → %s: %s, round %d", n+1, t.Started.Format("15:04:05"), t.Finished.Format("15:04:05"),
			t.LoadAvg[0], t.LoadAvg[1], rep.Binaries[t.Binary].Label, t.Round)
		if t.Profile != "" {
			fmt.Fprintf(w, "; profile %s", t.Profile)
		}
		for _, e := range t.Run.E2E {
			if len(e.StopReasons) > 0 {
				fmt.Fprintf(w, "; stops at %d in flight: %s", e.Concurrency, stopReasons(e.StopReasons))
			}
			if e.Failed > 0 || e.Errors > 0 {
				fmt.Fprintf(w, "; **at %d in flight %d failed, %d errors**", e.Concurrency, e.Failed, e.Errors)
				if e.FirstFailure != "" {
					fmt.Fprintf(w, " (first: %s)", e.FirstFailure)
				}
			}
		}
		for _, e := range t.Run.Errors {
			fmt.Fprintf(w, "; **failed**: %s", e)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\nBinaries:")
	for _, b := range rep.Binaries {
		fmt.Fprintf(w, "- %s: %s (%s)", b.Label, b.Path, b.Version)
		if b.Release != "" {
			fmt.Fprintf(w, "; its runs serve its own release %s", b.Release)
		}
		fmt.Fprintln(w)
	}
}

// stopReasons lists counts by stop reason, most first (then by name).
func stopReasons(m map[string]int) string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// runs counts binary bi's trials.
func (rep E2EReport) runs(bi int) int {
	n := 0
	for _, t := range rep.Trials {
		if t.Binary == bi {
			n++
		}
	}
	return n
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}
