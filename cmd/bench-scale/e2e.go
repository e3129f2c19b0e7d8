package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

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
	Index    string    `json:"index"`
	Data     string    `json:"data"`
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
var e2eOnlyExcluded = []string{"n", "scifact", "redisearch", "redisearch-args", "backends", "lucene", "team", "partial", "seed", "render", "search"}

// indexLayout is where bench-scale leaves a bleve index: OUT/work/bleve-N/index.
var indexLayout = regexp.MustCompile(`^bleve-(\d+)$`)

// runE2EOnly checks -e2e-only's flags and runs the alternation.
func runE2EOnly(ctx context.Context, fs *flag.FlagSet, o options, stdout io.Writer) error {
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
	if o.index == "" {
		return fmt.Errorf("-e2e-only needs -index, the bleve index dir to serve (e.g. OUT/work/bleve-500000/index of an earlier bench-scale run)")
	}
	var err error
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

	rep := E2EReport{Schema: E2ESchema, Started: time.Now().UTC(), Machine: machine, Index: o.index, Data: o.data,
		Concurrency: concs, N: o.e2eN, Warmup: o.e2eWarmup, Prewarm: o.e2ePrewarm, Binaries: bins}
	if st, err := os.ReadFile(filepath.Join(o.data, synth.StatsFile)); err == nil {
		var s struct{ Chunks int }
		if json.Unmarshal(st, &s) == nil {
			rep.Chunks = s.Chunks
		}
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
	return nil
}

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
	t := Trial{Binary: i, Round: round, Started: time.Now().UTC(), Run: Run{Backend: Bleve}}
	t.LoadAvg[0] = loadAvg()
	fmt.Fprintf(stdout, "round %d, %s (%s), load %s\n", round, b.Label, t.Started.Format("15:04:05 MST"), t.LoadAvg[0])
	work := filepath.Join(o.out, "work", "e2e", fmt.Sprintf("%02d-%c", (round-1)*len(o.assays)+i+1, 'A'+i%26))
	err := os.RemoveAll(work)
	if err == nil {
		err = os.MkdirAll(work, 0o755)
	}
	if err == nil {
		err = os.Symlink(o.index, filepath.Join(work, "index"))
	}
	if err == nil {
		err = measureE2E(ctx, o, b.Path, &t.Run, []string{"--index", filepath.Join(work, "index")}, "",
			filepath.Join(o.data, synth.CorpusFile), o.data, work, log, stdout)
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

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// checkServed fails when assay dev replaced -e2e-only's index symlink in
// work: it rebuilt the index (the corpus or the binary's index settings
// differ from those it was built with), so it measured something else.
// The index itself is untouched: a rebuild swaps the symlink, not its
// target.
func (o options) checkServed(work string) error {
	if !o.e2eOnly {
		return nil
	}
	fi, err := os.Lstat(filepath.Join(work, "index"))
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("assay dev rebuilt the index instead of serving %s (corpus or index settings differ from the build's); not measured", o.index)
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
	fmt.Fprintf(w, "End to end (%s), %s; %d CPUs (%s); %s chunks, index %s; assay bench -concurrency %s -n %d -warmup %d",
		E2ESchema, rep.Started.Format("2006-01-02 15:04 MST"), rep.Machine.CPUs, rep.Machine.CPUModel, chunks, rep.Index,
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
		for _, e := range t.Run.Errors {
			fmt.Fprintf(w, "; **failed**: %s", e)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\nBinaries:")
	for _, b := range rep.Binaries {
		fmt.Fprintf(w, "- %s: %s (%s)\n", b.Label, b.Path, b.Version)
	}
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
