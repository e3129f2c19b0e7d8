package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/prometheus/procfs"
	"github.com/redis/go-redis/v9"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/assay-rag/assay/workflows"
)

// historySample is how many question runs' histories -costs reads.
const historySample = 20

// metricsSettle is how long -costs waits before reading the dev server's
// /metrics (CPU, disk and Redis are read before it).
const metricsSettle = 3 * time.Second

// Costs is what the questions of the end-to-end run cost (-costs): the
// differences of counters read just before and just after `assay bench`,
// divided by the questions it asked (warm-up included: every question
// asked in the window is counted). CPU is user + system time.
type Costs struct {
	Questions int     `json:"questions"`
	ElapsedS  float64 `json:"elapsed_s"`
	// AssayCPUMS is the assay dev process's CPU per question (gateway and
	// worker in one process; the bench client is not counted).
	AssayCPUMS float64 `json:"assay_cpu_ms"`
	// TemporalCPUMS is the Temporal dev server's (assay dev's child).
	TemporalCPUMS float64 `json:"temporal_cpu_ms"`
	// MachineCPUMS is the whole machine's busy CPU per question
	// (/proc/stat: all but idle and iowait), StealMS the time the
	// hypervisor ran something else while this machine had work.
	MachineCPUMS float64 `json:"machine_cpu_ms"`
	StealMS      float64 `json:"steal_ms"`
	// BenchCPUMS is the assay bench client's, OtherCPUMS the machine's
	// busy CPU less assay dev's, the dev server's and the client's: other
	// work sharing the cores while the questions ran.
	BenchCPUMS float64 `json:"bench_cpu_ms"`
	OtherCPUMS float64 `json:"other_cpu_ms"`
	// DiskReadKiB is what the machine read from its disks per question
	// (/proc/vmstat pgpgin): pages of the index not in the page cache.
	DiskReadKiB float64 `json:"disk_read_kib"`
	// TemporalWriteBytes is the dev server's /proc/PID/io write_bytes
	// per question: what its SQLite database sent to the disk.
	TemporalWriteBytes float64 `json:"temporal_write_bytes"`
	// TemporalPersistence is the dev server's requests to its store per
	// question, by operation (persistence_requests; "visibility X" for
	// visibility_persistence_requests), from its /metrics.
	TemporalPersistence map[string]float64 `json:"temporal_persistence"`
	Redis               *RedisCosts        `json:"redis,omitempty"`
	History             *HistoryCosts      `json:"history,omitempty"`
}

// RedisCosts is the Redis server's share, per question.
type RedisCosts struct {
	// CPUMS is INFO cpu's used_cpu_user + used_cpu_sys (every thread of
	// the server); CommandUSec the time INFO commandstats charges to
	// commands, summed (the rest is network and event-loop work).
	CPUMS       float64 `json:"cpu_ms"`
	CommandUSec float64 `json:"command_usec"`
	Calls       float64 `json:"calls"`
	NetInBytes  float64 `json:"net_input_bytes"`
	NetOutBytes float64 `json:"net_output_bytes"`
	// Commands are INFO commandstats per command, most time first (INFO
	// itself left out).
	Commands []CommandCost `json:"commands"`
}

// CommandCost is one Redis command's calls and microseconds per question.
type CommandCost struct {
	Name  string  `json:"name"`
	Calls float64 `json:"calls"`
	USec  float64 `json:"usec"`
}

// HistoryCosts is Temporal's record of the questions: workflow runs
// started in the window by type, and the mean history of a sample of
// closed question runs (AnswerWorkflow).
type HistoryCosts struct {
	RunsByType map[string]int     `json:"runs_by_type"`
	Sampled    int                `json:"sampled"`
	Events     float64            `json:"events"` // mean history length
	Bytes      float64            `json:"bytes"`  // mean history size
	EventTypes map[string]float64 `json:"event_types"`
}

// costProbe reads the counters -costs compares.
type costProbe struct {
	assayPID    int
	redis       *redis.Client // nil in bleve mode
	temporalPID int
	metricsURL  string
}

// costCounters is one reading.
type costCounters struct {
	at                  time.Time
	assayCPU, temporal  float64 // seconds
	machineBusy, steal  float64 // seconds, every CPU
	pgpgin              float64 // KiB read from disks, the whole machine
	temporalWriteBytes  uint64
	persistence         map[string]float64
	redisCPU            float64 // seconds
	redisIn, redisOut   float64
	redisCalls, redisUS map[string]float64
}

// newCostProbe finds assay dev's Temporal dev server (its child process).
// Without metrics it reads CPU and disk only: no /metrics scrape (and no
// settling wait for it) and no Redis.
func newCostProbe(assayPID int, redisAddr string, metrics bool) (*costProbe, error) {
	procs, err := procfs.AllProcs()
	if err != nil {
		return nil, err
	}
	p := &costProbe{assayPID: assayPID}
	for _, pr := range procs {
		st, err := pr.Stat()
		if err != nil || st.PPID != assayPID {
			continue
		}
		if st.Comm == "temporal" {
			p.temporalPID = pr.PID
		}
	}
	if p.temporalPID == 0 {
		return nil, fmt.Errorf("assay dev (pid %d) has no child named temporal", assayPID)
	}
	if !metrics {
		return p, nil
	}
	if p.metricsURL, err = temporalMetricsURL(p.temporalPID); err != nil {
		return nil, err
	}
	if redisAddr != "" {
		p.redis = redis.NewClient(&redis.Options{Addr: redisAddr})
	}
	return p, nil
}

func (p *costProbe) close() {
	if p.redis != nil {
		p.redis.Close()
	}
}

func cpuSeconds(pid int) (float64, error) {
	pr, err := procfs.NewProc(pid)
	if err != nil {
		return 0, err
	}
	st, err := pr.Stat()
	if err != nil {
		return 0, err
	}
	return st.CPUTime(), nil
}

// machineCPU is /proc/stat's busy time of every CPU (all but idle and
// iowait; guest time is inside user) and its steal time, in seconds.
func machineCPU() (busy, steal float64, err error) {
	pfs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0, 0, err
	}
	st, err := pfs.Stat()
	if err != nil {
		return 0, 0, err
	}
	t := st.CPUTotal
	return t.User + t.Nice + t.System + t.IRQ + t.SoftIRQ + t.Steal, t.Steal, nil
}

// vmstat is one counter of /proc/vmstat.
func vmstat(name string) (float64, error) {
	b, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, " "); ok && k == name {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, fmt.Errorf("/proc/vmstat: no %s", name)
}

// attribute splits the machine's CPU a question: the bench client's
// (cpu over the q questions) and the rest's.
func (c *Costs) attribute(bench time.Duration) {
	c.BenchCPUMS = bench.Seconds() * 1000 / float64(c.Questions)
	c.OtherCPUMS = c.MachineCPUMS - c.StealMS - c.AssayCPUMS - c.TemporalCPUMS - c.BenchCPUMS
}

func (p *costProbe) read(ctx context.Context) (costCounters, error) {
	c := costCounters{at: time.Now()}
	var err error
	if c.assayCPU, err = cpuSeconds(p.assayPID); err != nil {
		return c, fmt.Errorf("assay dev CPU: %w", err)
	}
	if c.temporal, err = cpuSeconds(p.temporalPID); err != nil {
		return c, fmt.Errorf("temporal dev server CPU: %w", err)
	}
	if c.machineBusy, c.steal, err = machineCPU(); err != nil {
		return c, fmt.Errorf("/proc/stat: %w", err)
	}
	if c.pgpgin, err = vmstat("pgpgin"); err != nil {
		return c, err
	}
	pr, err := procfs.NewProc(p.temporalPID)
	if err == nil {
		var io procfs.ProcIO
		if io, err = pr.IO(); err == nil {
			c.temporalWriteBytes = io.WriteBytes
		}
	}
	if err != nil {
		return c, fmt.Errorf("temporal dev server /proc/%d/io: %w", p.temporalPID, err)
	}
	if p.redis != nil {
		info, err := p.redis.Info(ctx, "commandstats", "stats", "cpu").Result()
		if err != nil {
			return c, fmt.Errorf("redis INFO: %w", err)
		}
		if err := parseRedisInfo(info, &c); err != nil {
			return c, err
		}
	}
	if p.metricsURL == "" {
		return c, nil
	}
	// The server's counters reach /metrics when its metrics scope
	// reports, about once a second: the last second's would be missed.
	select {
	case <-ctx.Done():
		return c, ctx.Err()
	case <-time.After(metricsSettle):
	}
	if c.persistence, err = persistenceRequests(p.metricsURL); err != nil {
		return c, fmt.Errorf("temporal dev server metrics: %w", err)
	}
	return c, nil
}

// parseRedisInfo reads INFO's commandstats, network bytes and CPU into c.
func parseRedisInfo(info string, c *costCounters) error {
	c.redisCalls, c.redisUS = map[string]float64{}, map[string]float64{}
	seen := 0
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok {
			continue
		}
		if name, ok := strings.CutPrefix(k, "cmdstat_"); ok {
			// calls=12,usec=345,usec_per_call=28.75,rejected_calls=0,failed_calls=0
			for _, kv := range strings.Split(v, ",") {
				f, n, _ := strings.Cut(kv, "=")
				x, err := strconv.ParseFloat(n, 64)
				if err != nil {
					continue
				}
				switch f {
				case "calls":
					c.redisCalls[name] = x
				case "usec":
					c.redisUS[name] = x
				}
			}
			continue
		}
		switch k {
		case "used_cpu_user", "used_cpu_sys", "total_net_input_bytes", "total_net_output_bytes":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("INFO %s: %w", k, err)
			}
			switch k {
			case "total_net_input_bytes":
				c.redisIn = x
			case "total_net_output_bytes":
				c.redisOut = x
			default:
				c.redisCPU += x
			}
			seen++
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if seen != 4 {
		return fmt.Errorf("INFO: want used_cpu_user, used_cpu_sys, total_net_input_bytes and total_net_output_bytes, found %d of them", seen)
	}
	return nil
}

// perQuestion turns two readings into Costs for q questions.
func perQuestion(before, after costCounters, q int) Costs {
	n := float64(q)
	c := Costs{
		Questions:          q,
		ElapsedS:           after.at.Sub(before.at).Seconds(),
		AssayCPUMS:         (after.assayCPU - before.assayCPU) * 1000 / n,
		TemporalCPUMS:      (after.temporal - before.temporal) * 1000 / n,
		MachineCPUMS:       (after.machineBusy - before.machineBusy) * 1000 / n,
		StealMS:            (after.steal - before.steal) * 1000 / n,
		DiskReadKiB:        (after.pgpgin - before.pgpgin) / n,
		TemporalWriteBytes: float64(after.temporalWriteBytes-before.temporalWriteBytes) / n,
	}
	c.TemporalPersistence = map[string]float64{}
	for op, v := range after.persistence {
		if d := v - before.persistence[op]; d > 0 {
			c.TemporalPersistence[op] = d / n
		}
	}
	if after.redisCalls == nil {
		return c
	}
	r := &RedisCosts{
		CPUMS:       (after.redisCPU - before.redisCPU) * 1000 / n,
		NetInBytes:  (after.redisIn - before.redisIn) / n,
		NetOutBytes: (after.redisOut - before.redisOut) / n,
	}
	for name, calls := range after.redisCalls {
		d := calls - before.redisCalls[name]
		if d <= 0 || name == "info" {
			continue
		}
		cc := CommandCost{Name: name, Calls: d / n, USec: (after.redisUS[name] - before.redisUS[name]) / n}
		r.Commands = append(r.Commands, cc)
		r.Calls += cc.Calls
		r.CommandUSec += cc.USec
	}
	slices.SortFunc(r.Commands, func(a, b CommandCost) int {
		return cmp.Or(cmp.Compare(b.USec, a.USec), strings.Compare(a.Name, b.Name))
	})
	c.Redis = r
	return c
}

// temporalHistory counts the workflow runs started since since on the dev
// server at hostPort, by type, and reads the histories of up to
// historySample closed question runs.
func temporalHistory(ctx context.Context, hostPort string, since time.Time) (*HistoryCosts, error) {
	tc, err := client.DialContext(ctx, client.Options{HostPort: hostPort, Namespace: "default",
		Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		return nil, err
	}
	defer tc.Close()
	h := &HistoryCosts{RunsByType: map[string]int{}, EventTypes: map[string]float64{}}
	var sample []client.WorkflowRun
	query := fmt.Sprintf("StartTime >= '%s'", since.UTC().Format(time.RFC3339Nano))
	var token []byte
	for {
		resp, err := tc.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, PageSize: 1000, NextPageToken: token})
		if err != nil {
			return nil, fmt.Errorf("list workflows (%s): %w", query, err)
		}
		for _, e := range resp.Executions {
			typ := e.GetType().GetName()
			h.RunsByType[typ]++
			if typ == workflows.AnswerWorkflowName && e.GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING && len(sample) < historySample {
				sample = append(sample, tc.GetWorkflow(ctx, e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId()))
			}
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	for _, run := range sample {
		d, err := tc.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			return nil, fmt.Errorf("describe %s: %w", run.GetID(), err)
		}
		h.Events += float64(d.GetWorkflowExecutionInfo().GetHistoryLength())
		h.Bytes += float64(d.GetWorkflowExecutionInfo().GetHistorySizeBytes())
		it := tc.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return nil, fmt.Errorf("history of %s: %w", run.GetID(), err)
			}
			h.EventTypes[strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_")]++
		}
	}
	if h.Sampled = len(sample); h.Sampled > 0 {
		n := float64(h.Sampled)
		h.Events /= n
		h.Bytes /= n
		for k := range h.EventTypes {
			h.EventTypes[k] /= n
		}
	}
	return h, nil
}

// costRows adds the per-question cost rows to the report's table.
func costRows(row func(name string, cell func(c column) string)) {
	costs := func(f func(c *Costs) string) func(c column) string {
		return func(c column) string {
			if c.run.Costs == nil {
				return "—"
			}
			return f(c.run.Costs)
		}
	}
	redisCell := func(f func(r *RedisCosts) string) func(c column) string {
		return costs(func(c *Costs) string {
			if c.Redis == nil {
				return "—"
			}
			return f(c.Redis)
		})
	}
	row("Redis bytes per chunk: used_memory / FT.INFO total index / vector index / inverted index; the groups' graphs' total index (graphs)", func(c column) string {
		m := c.run.RedisMemory
		if m == nil || c.size.Chunks == 0 {
			return "—"
		}
		n, mb := float64(c.size.Chunks), float64(1<<20)
		return fmt.Sprintf("%s / %s / %s / %s; %s (%d)", thousands(int(m["used_memory"]/n)), thousands(int(m["ft.total_index_memory_sz_mb"]*mb/n)),
			thousands(int(m["ft.vector_index_sz_mb"]*mb/n)), thousands(int(m["ft.inverted_sz_mb"]*mb/n)),
			thousands(int(m["ft.graphs.total_index_memory_sz_mb"]*mb/n)), int(m["ft.graphs.count"]))
	})
	row("per question, end to end: CPU ms assay dev / Temporal dev server / redis-server", costs(func(c *Costs) string {
		r := "—"
		if c.Redis != nil {
			r = fmt.Sprintf("%.2f", c.Redis.CPUMS)
		}
		return fmt.Sprintf("%.2f / %.2f / %s (%d questions)", c.AssayCPUMS, c.TemporalCPUMS, r, c.Questions)
	}))
	row("per question, end to end: CPU ms assay bench client / other work on the machine / steal; disk reads KiB", costs(func(c *Costs) string {
		return fmt.Sprintf("%.2f / %.2f / %.2f; %.1f", c.BenchCPUMS, c.OtherCPUMS, c.StealMS, c.DiskReadKiB)
	}))
	row("per question: Temporal dev server disk writes, KiB", costs(func(c *Costs) string {
		return fmt.Sprintf("%.1f", c.TemporalWriteBytes/1024)
	}))
	row("per question: Temporal store requests, all (most frequent)", costs(func(c *Costs) string {
		type op struct {
			name string
			n    float64
		}
		var ops []op
		total := 0.0
		for k, v := range c.TemporalPersistence {
			ops = append(ops, op{k, v})
			total += v
		}
		if len(ops) == 0 {
			return "—"
		}
		slices.SortFunc(ops, func(a, b op) int { return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.name, b.name)) })
		var parts []string
		for _, o := range ops[:min(3, len(ops))] {
			parts = append(parts, fmt.Sprintf("%s %.1f", o.name, o.n))
		}
		return fmt.Sprintf("%.1f (%s)", total, strings.Join(parts, "; "))
	}))
	row("per question: Temporal history events / bytes (runs read)", costs(func(c *Costs) string {
		if c.History == nil || c.History.Sampled == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f / %s (%d)", c.History.Events, thousands(int(c.History.Bytes)), c.History.Sampled)
	}))
	row("per question: Redis commands, µs in commands; network in / out, KiB", redisCell(func(r *RedisCosts) string {
		return fmt.Sprintf("%.1f, %.0f µs; %.1f / %.1f", r.Calls, r.CommandUSec, r.NetInBytes/1024, r.NetOutBytes/1024)
	}))
	row("per question: Redis commands by time (calls, µs)", redisCell(func(r *RedisCosts) string {
		var parts []string
		for _, cc := range r.Commands[:min(3, len(r.Commands))] {
			parts = append(parts, fmt.Sprintf("%s %.1f, %.0f µs", cc.Name, cc.Calls, cc.USec))
		}
		return strings.Join(parts, "; ")
	}))
}

// persistenceMetrics are the dev server's counters of requests to its
// store, by operation: history and matching (persistence_requests) and
// visibility (visibility_persistence_requests).
var persistenceMetrics = map[string]string{"persistence_requests": "", "visibility_persistence_requests": "visibility "}

// temporalMetricsURL finds the dev server's Prometheus endpoint: the
// CLI's start-dev serves /metrics on a random port unless told one, so
// each TCP port the process listens on is asked in turn.
func temporalMetricsURL(pid int) (string, error) {
	pr, err := procfs.NewProc(pid)
	if err != nil {
		return "", err
	}
	fds, err := pr.FileDescriptorTargets()
	if err != nil {
		return "", err
	}
	inodes := map[uint64]bool{}
	for _, t := range fds {
		var ino uint64
		if _, err := fmt.Sscanf(t, "socket:[%d]", &ino); err == nil {
			inodes[ino] = true
		}
	}
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return "", err
	}
	var lines procfs.NetTCP
	for _, read := range []func() (procfs.NetTCP, error){fs.NetTCP, fs.NetTCP6} {
		l, err := read()
		if err == nil {
			lines = append(lines, l...)
		}
	}
	hc := http.Client{Timeout: 2 * time.Second}
	const listen = 0x0A
	for _, l := range lines {
		if l.St != listen || !inodes[l.Inode] {
			continue
		}
		url := fmt.Sprintf("http://127.0.0.1:%d/metrics", l.LocalPort)
		resp, err := hc.Get(url)
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		resp.Body.Close()
		if err == nil && resp.StatusCode == http.StatusOK && bytes.Contains(b, []byte("persistence_requests")) {
			return url, nil
		}
	}
	return "", fmt.Errorf("the Temporal dev server (pid %d) serves no /metrics with persistence_requests on any port it listens on", pid)
}

// persistenceRequests scrapes url and sums persistenceMetrics by
// operation, keyed "Operation" or "visibility Operation".
func persistenceRequests(url string) (map[string]float64, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	out := map[string]float64{}
	for name, prefix := range persistenceMetrics {
		f, ok := families[name]
		if !ok {
			continue
		}
		for _, m := range f.GetMetric() {
			op := ""
			for _, l := range m.GetLabel() {
				if l.GetName() == "operation" {
					op = l.GetValue()
				}
			}
			out[prefix+op] += m.GetCounter().GetValue()
		}
	}
	return out, nil
}
