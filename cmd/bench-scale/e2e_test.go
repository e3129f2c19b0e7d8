package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/synth"
)

// fakeLayout makes OUT/work/bleve-N/index (a manifest only) and
// OUT/data/N (corpus and questions) as bench-scale leaves them.
func fakeLayout(t *testing.T, n int) (out, index string) {
	t.Helper()
	out = t.TempDir()
	index = filepath.Join(out, "work", fmt.Sprintf("bleve-%d", n), "index")
	data := filepath.Join(out, "data", fmt.Sprint(n))
	for _, d := range []string{index, data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(index, "manifest.json"), filepath.Join(data, synth.CorpusFile), filepath.Join(data, synth.QuestionsFile)} {
		if err := os.WriteFile(f, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out, index
}

func TestE2EOnlyFlags(t *testing.T) {
	out, index := fakeLayout(t, 300)
	elsewhere := t.TempDir() // an index outside the layout
	if err := os.WriteFile(filepath.Join(elsewhere, "manifest.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable() // a file that exists, standing in for assay
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-e2e-only"}, "-e2e-only needs -index"},
		{[]string{"-e2e-only", "-index", out}, "no manifest.json"},
		{[]string{"-e2e-only", "-index", index, "-n", "500000"}, "-e2e-only measures an index built before: -n does not apply"},
		{[]string{"-e2e-only", "-index", index, "-lucene", "x", "-search=false"}, "-lucene, -search does not apply"},
		{[]string{"-e2e-only", "-index", index, "-rounds", "0"}, "-rounds: want at least 1, got 0"},
		{[]string{"-e2e-only", "-index", elsewhere}, "is not at OUT/work/bleve-N/index: say where its corpus is with -data"},
		{[]string{"-e2e-only", "-index", elsewhere, "-data", t.TempDir()}, "corpus.jsonl: no such file"},
		{[]string{"-e2e-only", "-index", index, "-assay", self + ",/no/such/assay"}, "-assay: stat /no/such/assay"},
		{[]string{"-e2e-only", "-index", index, "-assay", self, "-e2e-concurrency", "1,x"}, `-e2e-concurrency: want positive numbers separated by commas, got "1,x"`},
		{[]string{"-index", index}, "-index: only with -e2e-only"},
		{[]string{"-rounds", "3", "-data", out}, "-data, -rounds: only with -e2e-only"},
		{[]string{"-assay", "a,b"}, "-assay: several binaries (a, b) only with -e2e-only"},
		{[]string{"-assay", ","}, "-assay: no binary given"},
		{[]string{"-e2e-prewarm", "-1"}, "must not be negative"},
		{[]string{"-e2e-only", "extra"}, `unexpected arguments ["extra"]`},
		{[]string{"-e2e-only", "-redisearch", out, "-redis-addr", "127.0.0.1:1"}, "-redisearch (a throwaway server, built here) or -redis-addr (an index built before), not both"},
		{[]string{"-e2e-only", "-redisearch", out}, "-redisearch: stat " + filepath.Join(out, "redis-server")},
		{[]string{"-e2e-only", "-redisearch", out, "-index", index}, "-index does not apply"},
		{[]string{"-e2e-only", "-redis-addr", "127.0.0.1:1"}, "-e2e-only -redis-addr needs -index, the name"},
		{[]string{"-e2e-only", "-redis-addr", "127.0.0.1:1", "-index", "scale1"}, "-e2e-only on RediSearch needs -data"},
		{[]string{"-e2e-only", "-redis-addr", "127.0.0.1:1", "-index", "scale1", "-data", t.TempDir()}, "corpus.jsonl: no such file"},
		{[]string{"-redis-addr", "127.0.0.1:1"}, "-redis-addr: only with -e2e-only"},
	} {
		err := run(context.Background(), c.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

func TestLabelBinaries(t *testing.T) {
	bins := []Binary{{Path: "/s/assay-main"}, {Path: "/a/bin/assay"}, {Path: "/b/bin/assay"}}
	labelBinaries(bins)
	want := []string{"A assay-main", "B /a/bin/assay", "C /b/bin/assay"}
	for i, b := range bins {
		if b.Label != want[i] {
			t.Errorf("label %d = %q, want %q", i, b.Label, want[i])
		}
	}
}

// sampleE2E is two binaries alternated twice, the second's second run
// failed.
func sampleE2E() E2EReport {
	run := func(q1, q8, cpu, tcpu float64, hwm int64) Run {
		return Run{Backend: Bleve, WorkerHWM: hwm << 20, Costs: &Costs{AssayCPUMS: cpu, TemporalCPUMS: tcpu},
			E2E: []E2E{{Concurrency: 1, PerSecond: q1, P50MS: 40}, {Concurrency: 8, PerSecond: q8, P50MS: 150}}}
	}
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	trial := func(bin, round int, r Run) Trial {
		at = at.Add(time.Minute)
		return Trial{Binary: bin, Round: round, Started: at, Finished: at.Add(50 * time.Second), LoadAvg: [2]string{"1.00 0.50 0.20", "1.50 0.60 0.20"}, Run: r}
	}
	failed := run(99, 99, 99, 99, 999)
	failed.Errors = []string{"assay dev: exited"}
	return E2EReport{Schema: E2ESchema, Backend: Bleve, Chunks: 500000, Index: "/x/index", Concurrency: []int{1, 8}, N: 200, Warmup: 20,
		Binaries: []Binary{{Label: "A assay-main", Path: "/s/assay-main"}, {Label: "B assay", Path: "/w/bin/assay"}},
		Trials: []Trial{
			trial(0, 1, run(20, 40, 30, 15, 880)),
			trial(1, 1, run(22, 50, 24, 15, 870)),
			trial(0, 2, run(20, 44, 34, 17, 884)),
			trial(1, 2, failed),
		}}
}

func TestE2EMarkdown(t *testing.T) {
	var b strings.Builder
	sampleE2E().markdown(&b)
	md := b.String()
	tableHas(t, md,
		"500,000 chunks, index /x/index; assay bench -concurrency 1,8 -n 200 -warmup 20.",
		"| measure | A assay-main (2 runs) | B assay (2 runs) | B ÷ A, ratio of means |",
		"|---|---|---|---|",
		// 50 against the mean of 40 and 44: the failed run counts in no mean.
		"| questions/s, 8 in flight | 40.0 / 44.0 | 50.0 / — | ×1.19 |",
		"| questions/s, 1 in flight | 20.0 / 20.0 | 22.0 / — | ×1.10 |",
		"| CPU a question, assay dev, ms | 30.0 / 34.0 | 24.0 / — | ×0.75 |",
		"| CPU a question, both, ms | 45.0 / 51.0 | 39.0 / — | ×0.81 |",
		"| assay dev peak resident (VmHWM), MiB | 880 / 884 | 870 / — | ×0.99 |",
		"1. 10:01:00–10:01:50 UTC, load 1.00 0.50 0.20 → 1.50 0.60 0.20: A assay-main, round 1",
		"4. 10:04:00–10:04:50 UTC, load 1.00 0.50 0.20 → 1.50 0.60 0.20: B assay, round 2; **failed**: assay dev: exited",
		"- B assay: /w/bin/assay",
	)

	// RediSearch, built by the first binary; stop reasons per level.
	rep := sampleE2E()
	rep.Backend, rep.Index, rep.BuildS = RediSearch, "redisearch assay:scale500000:v1 (alias scale500000, built 2026-12-02T13:00:00Z), Redis at 127.0.0.1:6400", 312.4
	rep.Trials[0].Run.E2E[1].StopReasons = map[string]int{"answered": 110, "insufficient_context": 89, "budget_exhausted": 1}
	b.Reset()
	rep.markdown(&b)
	tableHas(t, b.String(),
		"500,000 chunks, index RediSearch redisearch assay:scale500000:v1 (alias scale500000, built 2026-12-02T13:00:00Z), Redis at 127.0.0.1:6400 (built in 312.4 s by A assay-main); assay bench",
		"1. 10:01:00–10:01:50 UTC, load 1.00 0.50 0.20 → 1.50 0.60 0.20: A assay-main, round 1; stops at 8 in flight: answered 110, insufficient_context 89, budget_exhausted 1",
	)
}

// sourceBEIR writes a small BEIR dataset for the generator: docs
// abstracts and a few judged claims.
func sourceBEIR(t *testing.T, docs int) string {
	t.Helper()
	dir := t.TempDir()
	var c, q bytes.Buffer
	for i := range docs {
		var sents []string
		for j := range 6 {
			sents = append(sents, fmt.Sprintf("Study %d finds that protein k%d raises the growth of cell type c%d by %d percent.", i, i*7+j, j, 10+j))
		}
		fmt.Fprintf(&c, `{"_id": "%d", "title": "Protein study %d", "text": %q, "metadata": {}}`+"\n", 1000+i, i, strings.Join(sents, " "))
	}
	var qrels strings.Builder
	qrels.WriteString("query-id\tcorpus-id\tscore\n")
	for i := range 4 {
		fmt.Fprintf(&q, `{"_id": "q%d", "text": "does protein k%d raise the growth of cell type c0"}`+"\n", i, i*7)
		fmt.Fprintf(&qrels, "q%d\t%d\t1\n", i, 1000+i)
	}
	for name, b := range map[string][]byte{"corpus.jsonl": c.Bytes(), "queries.jsonl": q.Bytes(), "qrels.tsv": []byte(qrels.String())} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// twoBinaries builds assay and links it under a second name (two binaries
// to alternate), and finds the Temporal CLI.
func twoBinaries(t *testing.T) (temporal, bin, other string) {
	t.Helper()
	temporal = devservertest.Binary(t)
	bin = filepath.Join(t.TempDir(), "assay")
	if out, err := exec.Command("go", "build", "-o", bin, "../assay").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	other = filepath.Join(t.TempDir(), "assay-b")
	if err := os.Symlink(bin, other); err != nil {
		t.Fatal(err)
	}
	return temporal, bin, other
}

// TestE2EOnlyOnBuiltIndex runs the whole benchmark on a small generated
// corpus (build and end to end), then -e2e-only on the index it left,
// with two binaries (the same one under two names) alternated twice; then
// against another corpus, which assay dev would rebuild the index for:
// that run fails and the index stays as it was.
func TestE2EOnlyOnBuiltIndex(t *testing.T) {
	temporal, bin, other := twoBinaries(t)
	src := sourceBEIR(t, 40)
	out := t.TempDir()
	ctx := context.Background()
	small := []string{"-e2e-settle", "5s", "-e2e-n", "6", "-e2e-warmup", "2", "-e2e-concurrency", "1,2", "-temporal-bin", temporal, "-out", out}
	if err := run(ctx, append([]string{"-assay", bin, "-scifact", src, "-n", "200", "-backends", "bleve", "-search=false"}, small...), io.Discard); err != nil {
		t.Fatal(err)
	}
	var whole Report
	readJSON(t, filepath.Join(out, "report.json"), &whole)
	if r := whole.Sizes[0].Backends[0]; len(r.Errors) > 0 || len(r.E2E) != 2 || r.Costs == nil || r.Costs.AssayCPUMS <= 0 {
		t.Fatalf("the whole benchmark's run = %+v, want two end-to-end rows and CPU a question without -costs", r)
	}
	index := filepath.Join(out, "work", "bleve-200", "index")
	manifest, err := os.ReadFile(filepath.Join(index, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}

	var stdout strings.Builder
	if err := run(ctx, append([]string{"-e2e-only", "-index", index, "-assay", bin + "," + other, "-rounds", "2", "-e2e-prewarm", "3", "-e2e-warm", "-profile", "1s", "-profile-delay", "0s"}, small...), &stdout); err != nil {
		t.Fatal(err)
	}
	var rep E2EReport
	readJSON(t, filepath.Join(out, "e2e.json"), &rep)
	if rep.Schema != E2ESchema || rep.Data != filepath.Join(out, "data", "200") || rep.Chunks < 200 || len(rep.Binaries) != 2 {
		t.Fatalf("report = %+v", rep)
	}
	var order []int
	for _, tr := range rep.Trials {
		order = append(order, tr.Binary)
		r := tr.Run
		if len(r.Errors) > 0 {
			t.Fatalf("trial %d of binary %d failed: %v", tr.Round, tr.Binary, r.Errors)
		}
		if fi, err := os.Stat(tr.Profile); err != nil || fi.Size() == 0 {
			t.Errorf("trial %d of binary %d: profile %q: %v", tr.Round, tr.Binary, tr.Profile, err)
		}
		for _, end := range []string{"start", "end"} {
			p := strings.TrimSuffix(tr.Profile, ".pprof") + ".allocs-" + end + ".pprof"
			if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
				t.Errorf("trial %d of binary %d: allocation profile %q: %v", tr.Round, tr.Binary, p, err)
			}
		}
		if len(r.E2E) != 2 || r.E2E[0].Completed != 6 || r.E2E[1].Concurrency != 2 || r.Costs == nil || r.Costs.AssayCPUMS <= 0 ||
			r.Costs.TemporalCPUMS <= 0 || r.Costs.BenchCPUMS <= 0 || r.Costs.MachineCPUMS <= 0 || r.Costs.Questions != 16 || r.WorkerHWM <= 0 || r.E2EStart == nil || r.E2EStart.IndexCached <= 0 {
			t.Errorf("trial %+v: want two levels of 6 questions, CPU a question over 16, a peak RSS and the index in the page cache", tr)
		}
		if b, s := r.E2EBeforeWarm, r.E2EStart; b == nil || s == nil || b.IndexBytes != s.IndexBytes || s.IndexCached != s.IndexBytes || s.VectorsCache != s.VectorsBytes || s.VectorsBytes == 0 {
			t.Errorf("trial %d of binary %d with -e2e-warm: before %+v, when measuring began %+v, want the whole index cached then", tr.Round, tr.Binary, b, s)
		}
	}
	if fmt.Sprint(order) != "[0 1 0 1]" {
		t.Errorf("binaries ran in order %v, want alternated [0 1 0 1]", order)
	}
	tableHas(t, stdout.String(), "| measure | A assay (2 runs) | B assay-b (2 runs) | B ÷ A, ratio of means |", "| CPU a question, assay dev, ms |")
	md, err := os.ReadFile(filepath.Join(out, "e2e.md"))
	if err != nil || !strings.Contains(string(md), "| questions/s, 2 in flight |") || !strings.Contains(string(md), "| vectors.f32 in page cache before -e2e-warm, % |") {
		t.Errorf("e2e.md: %v\n%s", err, md)
	}

	// Another corpus: assay dev would rebuild; the symlink is replaced,
	// the run fails and the index is untouched.
	ds, err := eval.LoadBEIR(src, eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	data2 := smallCorpus(t, ds, 99)
	out2 := t.TempDir()
	if err := run(ctx, []string{"-e2e-only", "-index", index, "-data", data2, "-assay", bin, "-e2e-n", "2", "-e2e-warmup", "0",
		"-temporal-bin", temporal, "-out", out2}, io.Discard); err == nil || !strings.Contains(err.Error(), "1 of 1 runs failed") || !strings.Contains(err.Error(), "A assay, round 1: ") {
		t.Errorf("run with its one run failed: %v; want an error naming the failed run", err)
	}
	var rep2 E2EReport
	readJSON(t, filepath.Join(out2, "e2e.json"), &rep2)
	if errs := rep2.Trials[0].Run.Errors; len(errs) != 1 || !strings.Contains(errs[0], "rebuilt the index instead of serving") {
		t.Errorf("errors = %q, want the rebuild refused", errs)
	}
	after, err := os.ReadFile(filepath.Join(index, "manifest.json"))
	if err != nil || !bytes.Equal(after, manifest) {
		t.Errorf("the served index's manifest changed (%v)", err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestPageState reads what bench-scale reports of an index when the
// end-to-end window opens: files just written are in the page cache, and
// vectors.f32 is counted apart; a symlink to the index is followed.
func TestPageState(t *testing.T) {
	files := map[string]int{"vectors.f32": 3*os.Getpagesize() + 100, "bleve/store": 5000, "manifest.json": 10, "empty": 0}
	link := fakeIndex(t, files, nil)
	ps, err := readPageState(link)
	if err != nil {
		t.Fatal(err)
	}
	total := int64(3*os.Getpagesize() + 100 + 5000 + 10)
	if ps.IndexBytes != total || ps.IndexCached != total || ps.VectorsBytes != int64(files["vectors.f32"]) || ps.VectorsCache != ps.VectorsBytes || ps.DirtyBytes < 0 {
		t.Errorf("page state = %+v, want %d bytes, all cached, vectors %d", ps, total, files["vectors.f32"])
	}
	if got := (&PageState{IndexBytes: 200, IndexCached: 50, VectorsBytes: 100, VectorsCache: 100, DirtyBytes: 3 << 20}).String(); got != "25% (100%); 3 MiB" {
		t.Errorf("String() = %q", got)
	}
}

// TestE2EOnlyRediSearch: -e2e-only on RediSearch, both ways. With
// -redisearch the first binary builds the generated corpus into a
// throwaway server once and the binaries alternate on it, Redis's costs
// read (-costs); with -redis-addr an index built before is served as it
// is, and a corpus assay dev would rebuild it for fails the trial. Needs
// ASSAY_TEST_REDISEARCH (a directory with redis-server and
// redisearch.so).
func TestE2EOnlyRediSearch(t *testing.T) {
	dir := os.Getenv(redistest.DirEnv)
	if dir == "" {
		t.Skipf("SKIPPED: set %s to a directory with redis-server and redisearch.so (e.g. ../shared/redisearch)", redistest.DirEnv)
	}
	temporal, bin, other := twoBinaries(t)
	ds, err := eval.LoadBEIR(sourceBEIR(t, 40), eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	data := smallCorpus(t, ds, synth.DefaultSeed)
	ctx := context.Background()
	small := []string{"-e2e-settle", "0", "-e2e-n", "6", "-e2e-warmup", "2", "-e2e-concurrency", "1,2", "-temporal-bin", temporal}

	out := t.TempDir()
	var stdout strings.Builder
	if err := run(ctx, append([]string{"-e2e-only", "-redisearch", dir, "-data", data, "-assay", bin + "," + other, "-costs", "-out", out}, small...), &stdout); err != nil {
		t.Fatal(err)
	}
	var rep E2EReport
	readJSON(t, filepath.Join(out, "e2e.json"), &rep)
	if rep.Backend != RediSearch || rep.BuildS <= 0 || !strings.Contains(rep.Index, "redisearch ") || !strings.Contains(rep.Index, "Redis at 127.0.0.1:") || len(rep.Trials) != 2 {
		t.Fatalf("report: backend %q, build %.1fs, index %q, %d trials; want RediSearch built once, two trials", rep.Backend, rep.BuildS, rep.Index, len(rep.Trials))
	}
	for _, tr := range rep.Trials {
		r := tr.Run
		if len(r.Errors) > 0 {
			t.Fatalf("trial of binary %d failed: %v", tr.Binary, r.Errors)
		}
		stops := 0
		for _, n := range r.E2E[0].StopReasons {
			stops += n
		}
		if r.Backend != RediSearch || len(r.E2E) != 2 || r.E2E[0].Completed != 6 || stops != 6 || r.Costs == nil || r.Costs.Redis == nil || r.Costs.Redis.Calls <= 0 || r.E2EStart != nil {
			t.Errorf("trial %+v: want two levels of 6 questions with their stop reasons, Redis's commands a question, no page-cache reading", tr)
		}
	}
	tableHas(t, stdout.String(), "index RediSearch redisearch ", "| measure | A assay (1 run) | B assay-b (1 run) | B ÷ A, ratio of means |", "; stops at 1 in flight: ")

	// An index built before, in a server of the test's; then a corpus
	// assay dev would rebuild it for.
	srv := redistest.Start(t)
	name := redistest.Name("e2e")
	if out, err := exec.Command(bin, append(append([]string{"index"}, redisWhere(srv.Addr, name)...), "--corpus", filepath.Join(data, synth.CorpusFile), "--quiet")...).CombinedOutput(); err != nil {
		t.Fatalf("assay index: %v\n%s", err, out)
	}
	out2 := t.TempDir()
	if err := run(ctx, append([]string{"-e2e-only", "-redis-addr", srv.Addr, "-index", name, "-data", data, "-assay", bin, "-out", out2}, small...), io.Discard); err != nil {
		t.Fatal(err)
	}
	var rep2 E2EReport
	readJSON(t, filepath.Join(out2, "e2e.json"), &rep2)
	if rep2.BuildS != 0 || len(rep2.Trials) != 1 || len(rep2.Trials[0].Run.Errors) > 0 || len(rep2.Trials[0].Run.E2E) != 2 {
		t.Fatalf("served as built: build %.1fs, trials %+v; want no build and one trial measured", rep2.BuildS, rep2.Trials)
	}
	data2 := smallCorpus(t, ds, 99)
	out3 := t.TempDir()
	if err := run(ctx, append([]string{"-e2e-only", "-redis-addr", srv.Addr, "-index", name, "-data", data2, "-assay", bin, "-out", out3}, small...), io.Discard); err == nil || !strings.Contains(err.Error(), "1 of 1 runs failed") {
		t.Errorf("run with its one run failed: %v; want an error naming the failed run", err)
	}
	var rep3 E2EReport
	readJSON(t, filepath.Join(out3, "e2e.json"), &rep3)
	if errs := rep3.Trials[0].Run.Errors; len(errs) != 1 || !strings.Contains(errs[0], "rebuilt the index instead of serving "+rep2.Index[:strings.Index(rep2.Index, ", Redis at")]) {
		t.Errorf("errors = %q, want the rebuild refused", errs)
	}
}

// TestFailedLevels: a level's runs that stopped with a failure's stop
// reason are counted as failed from the stop reasons (so an assay bench
// that predates its own count reads the same); a level whose questions
// all failed is an error naming the binary, the level, the stop reasons
// and the first failure (or, without one, where to look); a level where
// some answered is not.
func TestFailedLevels(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e2e.json")
	old := `{"schema":"assay.bench/v1","rows":[
		{"concurrency":1,"completed":4,"errors":0,"questions_per_second":0.7,"p50_ms":1400,"stop_reasons":{"search_error":4}},
		{"concurrency":8,"completed":4,"errors":0,"questions_per_second":9,"p50_ms":800,"stop_reasons":{"answered":3,"assessment_error":1}}]}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := readBenchRows(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Failed != 4 || rows[1].Failed != 1 {
		t.Fatalf("rows %+v, want 4 and 1 failed", rows)
	}
	err = allFailed("assay-base", rows)
	if err == nil || !strings.Contains(err.Error(), "assay-base: every question at 1 in flight failed (0 errors; 4 runs stopped search_error 4): its assay bench gives no detail") {
		t.Errorf("allFailed = %v; want the binary, the level, the stop reasons and where to look", err)
	}
	rows[0].FirstFailure = "question q1 stopped search_error: release initial assesses with … deploy a worker for it"
	if err := allFailed("assay-base", rows); err == nil || !strings.Contains(err.Error(), "deploy a worker for it; not measured") {
		t.Errorf("allFailed = %v; want the first failure's detail", err)
	}
	if err := allFailed("assay-base", rows[1:]); err != nil {
		t.Errorf("allFailed with 3 of 4 answered = %v, want nil", err)
	}
	if err := allFailed("assay-base", []E2E{{Concurrency: 2, Errors: 5, FirstError: "connection refused"}}); err == nil || !strings.Contains(err.Error(), "(5 errors; 0 runs stopped none): connection refused") {
		t.Errorf("allFailed with no question completed = %v", err)
	}
}

// TestFirstStageFailure reads the first stage failure assay dev logged in
// a trial's part of the log, its error unquoted.
func TestFirstStageFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e2e.log")
	before := `time=2026-12-03T14:09:10Z level=WARN msg="stage failed" component=temporal-sdk stage=search error="an earlier trial's"` + "\n"
	log := before + `time=2026-12-03T14:09:17Z level=INFO msg="serving release" release=x
time=2026-12-03T14:09:17Z level=WARN msg="stage failed" component=temporal-sdk WorkflowType=AnswerWorkflow Attempt=1 stage=search error="Search: release.Serve: release bench-1 generates with {builtin:extractive-v17 }, this worker with {builtin:extractive-v16 }: deploy a worker for it (type: assay.unavailable, retryable: true)"
time=2026-12-03T14:09:18Z level=WARN msg="stage failed" stage=search error="the second"
`
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "Search: release.Serve: release bench-1 generates with {builtin:extractive-v17 }, this worker with {builtin:extractive-v16 }: deploy a worker for it (type: assay.unavailable, retryable: true)"
	if got := firstStageFailure(path, int64(len(before))); got != want {
		t.Errorf("firstStageFailure = %q, want %q", got, want)
	}
	if got := firstStageFailure(path, int64(len(log))); got != "" {
		t.Errorf("firstStageFailure past the end = %q, want none", got)
	}
}

// smallCorpus writes the 200-chunk synthetic corpus made from ds with
// seed into a new temporary directory and returns its path.
func smallCorpus(t *testing.T, ds *eval.Dataset, seed uint64) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "data")
	if _, err := synth.WriteDataset(data, ds, synth.Options{Chunks: 200, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return data
}
