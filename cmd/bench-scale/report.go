package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Report is report.json (schema assay.bench.scale/v1).
type Report struct {
	Schema   string    `json:"schema"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
	Machine  Machine   `json:"machine"`
	// Callers are the callers searched: "all" (every group), then
	// restricted callers named by their one group. K is the results per
	// search. SearchWarmup is how many unmeasured passes over the same
	// queries each assay search made before its measured one (absent: 0,
	// reports before round 24, whose searches were one cold pass; the
	// Lucene peer always makes one).
	Callers      []string `json:"callers"`
	K            int      `json:"k"`
	SearchWarmup int      `json:"search_warmup,omitempty"`
	Seed         uint64   `json:"seed"`
	Sizes        []Size   `json:"sizes"`
}

// Machine is where the numbers were measured.
type Machine struct {
	CPUs     int    `json:"cpus"`
	CPUModel string `json:"cpu_model"`
	// CPUFamily is /proc/cpuinfo's "family F model M" (a hypervisor may
	// show every AMD EPYC under one model name), and CPUFeatures the
	// flags among vectorFlags it has: which kernels the scans take
	// (internal/vectors), so two sittings on other CPUs are not compared
	// unawares.
	CPUFamily   string   `json:"cpu_family,omitempty"`
	CPUFeatures []string `json:"cpu_features,omitempty"`
	MemBytes    int64    `json:"mem_bytes"`
	Go          string   `json:"go"`
	Assay       string   `json:"assay_version"`
}

// Size is one corpus: its size, Lucene's numbers and each backend's.
type Size struct {
	Target    int `json:"target_chunks"`
	Chunks    int `json:"chunks"`
	Documents int `json:"documents"`
	// LoadAvg is /proc/loadavg when the size's measurements started and
	// ended: other work on the machine moves every number.
	LoadAvg [2]string `json:"loadavg"`
	// Visible counts the documents each caller may see.
	Visible  map[string]int `json:"visible_documents"`
	Lucene   *Lucene        `json:"lucene,omitempty"`
	Backends []Run          `json:"backends"`
}

// Lucene is the peer's BM25 on the same corpus (run.sh).
type Lucene struct {
	Docs   int     `json:"docs"`
	IndexS float64 `json:"index_s"`
	P50MS  float64 `json:"p50_ms"`
	P99MS  float64 `json:"p99_ms"`
	NDCG10 float64 `json:"ndcg_10"`
	Error  string  `json:"error,omitempty"`
}

// Run is one backend on one corpus.
type Run struct {
	Backend      string  `json:"backend"`
	BuildS       float64 `json:"build_s"`
	BuildPeakRSS int64   `json:"build_peak_rss_bytes"`
	// IndexBytes is the bleve index's disk use, or Redis's used_memory
	// after the build.
	IndexBytes int64 `json:"index_bytes"`
	// Vectors is the vector layout the build says it made (`assay index`'s
	// "vectors …" summary: since round 43 "HNSW (hnsw+small-flat: N ACL
	// groups with an index of their own, M of them FLAT)"; an older
	// binary's says "HNSW" alone); empty when the output names none.
	Vectors string `json:"vectors,omitempty"`
	// WorkerRSS is assay dev's VmRSS once it is ready (index open);
	// WorkerHWM its VmHWM after the end-to-end run.
	WorkerRSS int64    `json:"worker_rss_bytes"`
	WorkerHWM int64    `json:"worker_hwm_bytes"`
	Search    []Search `json:"search"`
	E2E       []E2E    `json:"e2e"`
	// Costs is what a question of the end-to-end run cost: CPU always,
	// the rest with -costs.
	Costs *Costs `json:"costs,omitempty"`
	// E2EStart is the page cache and writeback when the end-to-end
	// window opened (bleve).
	E2EStart *PageState `json:"e2e_start,omitempty"`
	// E2EBeforeWarm is the page cache before -e2e-warm read the index.
	E2EBeforeWarm *PageState `json:"e2e_before_warm,omitempty"`
	// RedisMemory is where Redis's memory went after the build (-costs).
	RedisMemory map[string]float64 `json:"redis_memory,omitempty"`
	Errors      []string           `json:"errors,omitempty"`
}

// Search is one mode and caller over SciFact's test claims (assay search
// batch mode).
type Search struct {
	Mode    string   `json:"mode"`
	Caller  string   `json:"caller"` // "all" or a restricted caller's group
	P50MS   float64  `json:"p50_ms"`
	P99MS   float64  `json:"p99_ms"`
	NDCG10  *float64 `json:"ndcg_10,omitempty"` // full-access caller only
	PeakRSS int64    `json:"peak_rss_bytes"`    // the assay search process's
}

// E2E is one concurrency level of assay bench against assay dev. Errors
// are questions the gateway did not answer; Failed the completed runs
// that ended with a failure's stop reason (bench.Failure: search_error,
// ...), counted here from StopReasons so that a binary whose assay bench
// predates its own count is read the same way.
type E2E struct {
	Concurrency int    `json:"concurrency"`
	Completed   int    `json:"completed"`
	Errors      int    `json:"errors"`
	FirstError  string `json:"first_error,omitempty"`
	Failed      int    `json:"failed"`
	// FirstFailure is assay bench's first failed run with the service's
	// detail (empty from a binary whose assay bench does not say).
	FirstFailure string  `json:"first_failure,omitempty"`
	PerSecond    float64 `json:"questions_per_second"`
	P50MS        float64 `json:"p50_ms"`
	P95MS        float64 `json:"p95_ms"`
	P99MS        float64 `json:"p99_ms"`
	// StopReasons counts the measured questions by stop reason.
	StopReasons map[string]int `json:"stop_reasons,omitempty"`
}

func (r Run) search(mode, caller string) (Search, bool) {
	for _, s := range r.Search {
		if s.Mode == mode && s.Caller == caller {
			return s, true
		}
	}
	return Search{}, false
}

func (r Run) e2e(conc int) (E2E, bool) {
	for _, e := range r.E2E {
		if e.Concurrency == conc {
			return e, true
		}
	}
	return E2E{}, false
}

func describeMachine(assay string) Machine {
	m := Machine{CPUs: runtime.NumCPU(), Go: runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		m.readCPUInfo(f)
		f.Close()
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var kb int64
			if _, err := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); err == nil {
				m.MemBytes = kb * 1024
				break
			}
		}
		f.Close()
	}
	if out, err := exec.Command(assay, "version").Output(); err == nil {
		m.Assay = strings.TrimSpace(string(out))
	}
	return m
}

// vectorFlags are the /proc/cpuinfo flags that choose internal/vectors'
// kernels: AVX-512 VPOPCNTDQ (the 1-bit scan), AVX-512 BW or AVX2 (the
// int8 dot product), POPCNT (the scan without AVX-512).
var vectorFlags = []string{"popcnt", "avx2", "avx512f", "avx512bw", "avx512_vpopcntdq"}

// readCPUInfo sets the model name, family and vector features from
// /proc/cpuinfo's first processor.
func (m *Machine) readCPUInfo(r io.Reader) {
	var family, model string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
scan:
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "model name":
			m.CPUModel = v
		case "cpu family":
			family = v
		case "model":
			model = v
		case "flags":
			have := map[string]bool{}
			for _, f := range strings.Fields(v) {
				have[f] = true
			}
			m.CPUFeatures = []string{}
			for _, f := range vectorFlags {
				if have[f] {
					m.CPUFeatures = append(m.CPUFeatures, f)
				}
			}
		case "processor":
			if v != "0" {
				break scan // the first processor's lines only
			}
		}
	}
	if family != "" {
		m.CPUFamily = "family " + family + " model " + model
	}
}

// cpuWords is the CPU as the reports' first line gives it: the model
// name, then the family and the vector features when /proc/cpuinfo gave
// them.
func (m Machine) cpuWords() string {
	s := m.CPUModel
	if m.CPUFamily != "" {
		s += ", " + m.CPUFamily
	}
	if m.CPUFeatures != nil && len(m.CPUFeatures) == 0 {
		return s + "; none of " + strings.Join(vectorFlags, " ")
	}
	if m.CPUFeatures != nil {
		f := strings.Join(m.CPUFeatures, " ")
		if !slices.Contains(m.CPUFeatures, "avx512_vpopcntdq") {
			f += "; no AVX-512 VPOPCNTDQ"
		}
		s += "; " + f
	}
	return s
}

// loadAvg is the first three fields of /proc/loadavg.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func (rep Report) write(dir string) error {
	if err := writeReport(dir, "report", rep, rep.markdown); err != nil {
		return err
	}
	var svg strings.Builder
	rep.svg(&svg)
	return os.WriteFile(filepath.Join(dir, "scaling.svg"), []byte(svg.String()), 0o644)
}

// String is "82% (64%); 12 MiB".
func (ps *PageState) String() string {
	if ps == nil {
		return "—"
	}
	pct := func(part, whole int64) string {
		if whole == 0 {
			return "—"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(part)/float64(whole))
	}
	return fmt.Sprintf("%s (%s); %.0f MiB", pct(ps.IndexCached, ps.IndexBytes), pct(ps.VectorsCache, ps.VectorsBytes), float64(ps.DirtyBytes)/(1<<20))
}

// writeReport writes v as dir/name.json and what markdown writes as
// dir/name.md.
func writeReport(dir, name string, v any, markdown func(io.Writer)) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	markdown(&md)
	return os.WriteFile(filepath.Join(dir, name+".md"), []byte(md.String()), 0o644)
}

func mib(b int64) string {
	if b <= 0 {
		return "—"
	}
	if b >= 10<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

func ms(v float64) string {
	switch {
	case v <= 0:
		return "—"
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// column is one backend on one corpus: a column of the table.
type column struct {
	size Size
	run  Run
}

// markdown writes the one table: a row per measure, a column per corpus
// size and backend.
func (rep Report) markdown(w io.Writer) {
	var cols []column
	for _, s := range rep.Sizes {
		for _, r := range s.Backends {
			cols = append(cols, column{s, r})
		}
	}
	fmt.Fprintf(w, "Scale benchmark (%s), %s; %d CPUs (%s), %.0f GiB; %s; k=%d; %d warm-up passes before each search's measured one (Lucene: 1).\n\n",
		Schema, rep.Started.Format("2006-01-02 15:04 MST"), rep.Machine.CPUs, rep.Machine.cpuWords(), float64(rep.Machine.MemBytes)/(1<<30), rep.Machine.Assay, rep.K, rep.SearchWarmup)
	fmt.Fprint(w, "| measure |")
	for _, c := range cols {
		fmt.Fprintf(w, " %s chunks, %s |", thousands(c.size.Chunks), c.run.Backend)
	}
	fmt.Fprint(w, "\n|---|")
	for range cols {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	row := func(name string, cell func(c column) string) {
		fmt.Fprintf(w, "| %s |", name)
		for _, c := range cols {
			fmt.Fprintf(w, " %s |", cell(c))
		}
		fmt.Fprintln(w)
	}
	if slices.ContainsFunc(rep.Sizes, func(s Size) bool { return s.LoadAvg[0] != "" }) {
		row("load average at start; end (1, 5, 15 min)", func(c column) string { return c.size.LoadAvg[0] + "; " + c.size.LoadAvg[1] })
	}
	row("documents", func(c column) string { return thousands(c.size.Documents) })
	for _, caller := range rep.Callers[1:] {
		row("documents "+caller+" may see", func(c column) string { return thousands(c.size.Visible[caller]) })
	}
	row("build, s (chunks/s)", func(c column) string {
		if c.run.BuildS == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f (%s)", c.run.BuildS, thousands(int(float64(c.size.Chunks)/c.run.BuildS)))
	})
	row("index: bleve on disk / Redis used_memory", func(c column) string { return mib(c.run.IndexBytes) })
	if slices.ContainsFunc(rep.Sizes, func(s Size) bool { return slices.ContainsFunc(s.Backends, func(r Run) bool { return r.Vectors != "" }) }) {
		row("vectors, as the build reported them", func(c column) string { return cmp.Or(c.run.Vectors, "—") })
	}
	row("worker (assay dev) VmRSS after open / VmHWM after e2e", func(c column) string {
		return mib(c.run.WorkerRSS) + " / " + mib(c.run.WorkerHWM)
	})
	for _, m := range modes {
		for _, caller := range rep.Callers {
			who := "caller sees everything"
			if caller != callerAll {
				who = "caller sees " + caller + " only"
			}
			row(m+" p50 / p99 ms, "+who, func(c column) string {
				s, ok := c.run.search(m, caller)
				if !ok {
					return "—"
				}
				return ms(s.P50MS) + " / " + ms(s.P99MS)
			})
		}
		row(m+" p50, restricted ÷ full ("+strings.Join(rep.Callers[1:], ", ")+")", func(c column) string {
			a, ok := c.run.search(m, callerAll)
			if !ok || a.P50MS == 0 {
				return "—"
			}
			var parts []string
			for _, caller := range rep.Callers[1:] {
				t, ok := c.run.search(m, caller)
				if !ok {
					parts = append(parts, "—")
					continue
				}
				parts = append(parts, fmt.Sprintf("×%.2f", t.P50MS/a.P50MS))
			}
			return strings.Join(parts, ", ")
		})
	}
	row("nDCG@10 SciFact test, full access: bm25 / hybrid+rerank", func(c column) string {
		var parts []string
		for _, m := range modes {
			s, ok := c.run.search(m, callerAll)
			if !ok || s.NDCG10 == nil {
				parts = append(parts, "—")
				continue
			}
			parts = append(parts, fmt.Sprintf("%.4f", *s.NDCG10))
		}
		return strings.Join(parts, " / ")
	})
	for _, conc := range []int{1, 8} {
		row(fmt.Sprintf("end to end, anonymous, %d in flight: q/s (p50 ms)", conc), func(c column) string {
			e, ok := c.run.e2e(conc)
			if !ok {
				return "—"
			}
			s := fmt.Sprintf("%.1f (%s)", e.PerSecond, ms(e.P50MS))
			if e.Errors > 0 {
				s += fmt.Sprintf(", %d errors", e.Errors)
			}
			if e.Failed > 0 {
				s += fmt.Sprintf(", %d failed", e.Failed)
			}
			return s
		})
	}
	if slices.ContainsFunc(cols, func(c column) bool { return c.run.E2EStart != nil }) {
		row("end to end, when measuring began: index in page cache (vectors.f32); dirty + writeback", func(c column) string {
			return c.run.E2EStart.String()
		})
	}
	if slices.ContainsFunc(cols, func(c column) bool { return c.run.E2EBeforeWarm != nil }) {
		row("end to end, before -e2e-warm read the index: index in page cache (vectors.f32); dirty + writeback", func(c column) string {
			if c.run.E2EBeforeWarm == nil {
				return ""
			}
			return c.run.E2EBeforeWarm.String()
		})
	}
	if slices.ContainsFunc(cols, func(c column) bool { return c.run.Costs != nil }) {
		costRows(row)
	}
	lucene := func(f func(l *Lucene) string) func(c column) string {
		return func(c column) string {
			if c.size.Lucene == nil || c.size.Lucene.Error != "" {
				return "—"
			}
			return f(c.size.Lucene)
		}
	}
	row("Lucene 8 BM25, same corpus: p50 / p99 ms", lucene(func(l *Lucene) string { return ms(l.P50MS) + " / " + ms(l.P99MS) }))
	row("Lucene 8 BM25: index s, nDCG@10", lucene(func(l *Lucene) string { return fmt.Sprintf("%.1f, %.4f", l.IndexS, l.NDCG10) }))
	row("bm25 p50 ÷ Lucene p50 (full access)", func(c column) string {
		s, ok := c.run.search("bm25", callerAll)
		if !ok || c.size.Lucene == nil || c.size.Lucene.P50MS == 0 {
			return "—"
		}
		return fmt.Sprintf("×%.1f", s.P50MS/c.size.Lucene.P50MS)
	})
	var errs []string
	for _, c := range cols {
		for _, e := range c.run.Errors {
			errs = append(errs, fmt.Sprintf("%d chunks, %s: %s", c.size.Chunks, c.run.Backend, e))
		}
		if c.run.Backend == Bleve && c.size.Lucene != nil && c.size.Lucene.Error != "" {
			errs = append(errs, fmt.Sprintf("%d chunks, lucene: %s", c.size.Chunks, c.size.Lucene.Error))
		}
	}
	if len(errs) > 0 {
		fmt.Fprintln(w, "\nFailed measurements:")
		for _, e := range errs {
			fmt.Fprintln(w, "- "+e)
		}
	}
}

// series is one line of the scaling picture.
type series struct {
	name  string
	color string
	dash  string       // SVG stroke-dasharray; empty for a solid line
	pts   [][2]float64 // chunks, p50 ms
}

// svg draws retrieval p50 against corpus size, both axes logarithmic: a
// line per backend, mode and caller, and Lucene's BM25.
func (rep Report) svg(w io.Writer) {
	colors := map[string][]string{Bleve: {"#1f77b4", "#17becf"}, RediSearch: {"#d62728", "#ff7f0e"}}
	var ss []*series
	dashes := []string{"", "6 4", "2 3"} // by caller: all, then restricted ones
	get := func(name, color string, dash string) *series {
		for _, s := range ss {
			if s.name == name {
				return s
			}
		}
		s := &series{name: name, color: color, dash: dash}
		ss = append(ss, s)
		return s
	}
	for _, size := range rep.Sizes {
		x := float64(size.Chunks)
		if size.Lucene != nil && size.Lucene.P50MS > 0 {
			s := get("Lucene 8 BM25", "#000000", "")
			s.pts = append(s.pts, [2]float64{x, size.Lucene.P50MS})
		}
		for _, r := range size.Backends {
			for mi, m := range modes {
				for ci, caller := range rep.Callers {
					sr, ok := r.search(m, caller)
					if !ok || sr.P50MS <= 0 {
						continue
					}
					who := "all"
					if caller != callerAll {
						who = caller
					}
					s := get(fmt.Sprintf("%s %s, %s", r.Backend, m, who), colors[r.Backend][mi%2], dashes[min(ci, len(dashes)-1)])
					s.pts = append(s.pts, [2]float64{x, sr.P50MS})
				}
			}
		}
	}
	const (
		width, height         = 820, 460
		left, right, top, bot = 70, 310, 40, 50
	)
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, p := range s.pts {
			xmin, xmax = math.Min(xmin, p[0]), math.Max(xmax, p[0])
			ymin, ymax = math.Min(ymin, p[1]), math.Max(ymax, p[1])
		}
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(w, `<text x="%d" y="22" font-size="14">Retrieval p50 (ms, k=%d) against corpus size (chunks), log-log</text>`+"\n", left, rep.K)
	if len(ss) == 0 {
		fmt.Fprintln(w, `<text x="70" y="80">no measurements</text></svg>`)
		return
	}
	// Whole decades around the data.
	x0, x1 := math.Floor(math.Log10(xmin)), math.Ceil(math.Log10(xmax))
	y0, y1 := math.Floor(math.Log10(ymin)), math.Ceil(math.Log10(ymax))
	if x1 == x0 {
		x1++
	}
	if y1 == y0 {
		y1++
	}
	pw, ph := float64(width-left-right), float64(height-top-bot)
	px := func(v float64) float64 { return float64(left) + (math.Log10(v)-x0)/(x1-x0)*pw }
	py := func(v float64) float64 { return float64(top) + ph - (math.Log10(v)-y0)/(y1-y0)*ph }
	fmt.Fprintf(w, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#888"/>`+"\n", left, top, pw, ph)
	for d := x0; d <= x1; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if math.Log10(v) > x1 {
				break
			}
			x := px(v)
			fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.0f" stroke="#eee"/>`+"\n", x, top, x, float64(top)+ph)
			fmt.Fprintf(w, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x, float64(top)+ph+16, compact(v))
		}
	}
	for d := y0; d <= y1; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if math.Log10(v) > y1 {
				break
			}
			y := py(v)
			fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`+"\n", left, y, float64(left)+pw, y)
			fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, compact(v))
		}
	}
	fmt.Fprintf(w, `<text x="%.0f" y="%d" text-anchor="middle">chunks</text>`+"\n", float64(left)+pw/2, height-12)
	fmt.Fprintf(w, `<text x="16" y="%.0f" transform="rotate(-90 16 %.0f)" text-anchor="middle">p50 ms</text>`+"\n", float64(top)+ph/2, float64(top)+ph/2)
	for i, s := range ss {
		dash := ""
		if s.dash != "" {
			dash = ` stroke-dasharray="` + s.dash + `"`
		}
		var pts []string
		for _, p := range s.pts {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(p[0]), py(p[1])))
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n", strings.Join(pts, " "), s.color, dash)
		for _, p := range s.pts {
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(p[0]), py(p[1]), s.color)
		}
		ly := top + 10 + i*18
		lx := width - right + 14
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", lx, ly, lx+24, ly, s.color, dash)
		fmt.Fprintf(w, `<text x="%d" y="%d">%s</text>`+"\n", lx+30, ly+4, s.name)
	}
	fmt.Fprintln(w, "</svg>")
}

// compact prints an axis value: 0.5, 2, 50, 5k, 500k, 5M.
func compact(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%gk", v/1e3)
	}
	return fmt.Sprintf("%g", v)
}
