package main

import (
	"context"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"io"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/workflows"
)

// info is a trimmed INFO commandstats, stats, cpu answer from Redis 7.4.
func info(searchCalls, searchUS, in, out int, cpuUser, cpuSys float64) string {
	return strings.Join([]string{
		"# Commandstats",
		"cmdstat_info:calls=9,usec=900,usec_per_call=100.00,rejected_calls=0,failed_calls=0",
		"cmdstat_FT.SEARCH:calls=" + strconv.Itoa(searchCalls) + ",usec=" + strconv.Itoa(searchUS) + ",usec_per_call=1.00,rejected_calls=0,failed_calls=0",
		"cmdstat_hmget:calls=40,usec=80,usec_per_call=2.00,rejected_calls=0,failed_calls=0",
		"",
		"# Stats",
		"total_connections_received:3",
		"total_net_input_bytes:" + strconv.Itoa(in),
		"total_net_output_bytes:" + strconv.Itoa(out),
		"",
		"# CPU",
		"used_cpu_sys:" + ftoa6(cpuSys),
		"used_cpu_user:" + ftoa6(cpuUser),
		"used_cpu_sys_children:7.000000",
		"used_cpu_user_main_thread:1.000000",
	}, "\r\n")
}

func ftoa6(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

func TestPerQuestionFromRedisInfo(t *testing.T) {
	var before, after costCounters
	if err := parseRedisInfo(info(100, 5000, 1000, 9000, 1.5, 0.5), &before); err != nil {
		t.Fatal(err)
	}
	if err := parseRedisInfo(info(140, 9000, 5000, 49000, 2.5, 0.7), &after); err != nil {
		t.Fatal(err)
	}
	before.at, after.at = time.Unix(100, 0), time.Unix(110, 0)
	before.assayCPU, after.assayCPU = 1, 1.4
	before.temporal, after.temporal = 2, 3
	before.temporalWriteBytes, after.temporalWriteBytes = 100, 40100
	c := perQuestion(before, after, 20)
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("elapsed_s", c.ElapsedS, 10)
	near("assay_cpu_ms", c.AssayCPUMS, 20)
	near("temporal_cpu_ms", c.TemporalCPUMS, 50)
	near("temporal_write_bytes", c.TemporalWriteBytes, 2000)
	if c.Redis == nil {
		t.Fatal("no Redis costs")
	}
	near("redis cpu_ms", c.Redis.CPUMS, 60) // (3.2 - 2.0) s / 20; children and main-thread lines not added
	near("net_input_bytes", c.Redis.NetInBytes, 200)
	near("net_output_bytes", c.Redis.NetOutBytes, 2000)
	// hmget did not move and INFO is left out: FT.SEARCH alone.
	if len(c.Redis.Commands) != 1 || c.Redis.Commands[0].Name != "FT.SEARCH" {
		t.Fatalf("commands = %+v, want FT.SEARCH alone", c.Redis.Commands)
	}
	near("FT.SEARCH calls", c.Redis.Commands[0].Calls, 2)
	near("FT.SEARCH usec", c.Redis.Commands[0].USec, 200)
	near("calls", c.Redis.Calls, 2)
	near("command_usec", c.Redis.CommandUSec, 200)
}

func TestParseRedisInfoWantsEveryCounter(t *testing.T) {
	var c costCounters
	err := parseRedisInfo("# Stats\r\ntotal_net_input_bytes:5\r\n", &c)
	if err == nil || !strings.Contains(err.Error(), "used_cpu_user") {
		t.Fatalf("err = %v, want one naming the missing counters", err)
	}
}

func TestPerQuestionWithoutRedis(t *testing.T) {
	c := perQuestion(costCounters{assayCPU: 1}, costCounters{assayCPU: 2}, 10)
	if c.Redis != nil || c.AssayCPUMS != 100 {
		t.Fatalf("costs = %+v, want no Redis and 100 ms assay CPU", c)
	}
}

func TestMarkdownCostRows(t *testing.T) {
	rep := sampleReport()
	rep.Sizes[0].Backends[1].Costs = &Costs{Questions: 220, AssayCPUMS: 4.5, TemporalCPUMS: 11.25, TemporalWriteBytes: 3072,
		Redis:               &RedisCosts{CPUMS: 2.5, Calls: 12, CommandUSec: 1800, NetInBytes: 2048, NetOutBytes: 40960, Commands: []CommandCost{{Name: "FT.SEARCH", Calls: 4, USec: 1500}, {Name: "hmget", Calls: 8, USec: 300}}},
		History:             &HistoryCosts{Sampled: 20, Events: 11, Bytes: 12345.6},
		TemporalPersistence: map[string]float64{"UpdateWorkflowExecution": 2, "CreateWorkflowExecution": 1, "visibility RecordWorkflowExecutionStarted": 1, "GetWorkflowExecution": 0.5}}
	rep.Sizes[0].Backends[1].RedisMemory = map[string]float64{"used_memory": 6250 * 8000, "ft.total_index_memory_sz_mb": 25, "ft.vector_index_sz_mb": 20, "ft.inverted_sz_mb": 5,
		"ft.graphs.total_index_memory_sz_mb": 15, "ft.graphs.count": 2}
	var b strings.Builder
	rep.markdown(&b)
	md := b.String()
	tableHas(t, md,
		"| Redis bytes per chunk: used_memory / FT.INFO total index / vector index / inverted index; the groups' graphs' total index (graphs) | — | 8,000 / 4,194 / 3,355 / 838; 2,516 (2) | — | — |",
		"| per question, end to end: CPU ms assay dev / Temporal dev server / redis-server | — | 4.50 / 11.25 / 2.50 (220 questions) | — | — |",
		"| per question: Temporal store requests, all (most frequent) | — | 4.5 (UpdateWorkflowExecution 2.0; CreateWorkflowExecution 1.0; visibility RecordWorkflowExecutionStarted 1.0) | — | — |",
		"| per question: Temporal history events / bytes (runs read) | — | 11.0 / 12,345 (20) | — | — |",
		"| per question: Redis commands, µs in commands; network in / out, KiB | — | 12.0, 1800 µs; 2.0 / 40.0 | — | — |",
		"| per question: Redis commands by time (calls, µs) | — | FT.SEARCH 4.0, 1500 µs; hmget 8.0, 300 µs | — | — |",
	)
}

// metricsText is a trimmed /metrics page of the Temporal dev server.
const metricsText = `# HELP persistence_requests persistence_requests counter
# TYPE persistence_requests counter
persistence_requests{namespace="default",operation="UpdateWorkflowExecution",service_name="history"} 40
persistence_requests{namespace="system",operation="UpdateWorkflowExecution",service_name="history"} 2
persistence_requests{namespace="default",operation="CreateWorkflowExecution",service_name="history"} 20
# HELP visibility_persistence_requests visibility_persistence_requests counter
# TYPE visibility_persistence_requests counter
visibility_persistence_requests{namespace="default",operation="RecordWorkflowExecutionStarted",service_name="history"} 20
# HELP persistence_latency persistence_latency histogram
# TYPE persistence_latency histogram
persistence_latency_bucket{operation="UpdateWorkflowExecution",le="+Inf"} 42
persistence_latency_sum{operation="UpdateWorkflowExecution"} 1
persistence_latency_count{operation="UpdateWorkflowExecution"} 42
`

// TestTemporalMetrics finds a /metrics endpoint among the ports this test
// process listens on, as -costs does for the dev server, and sums its
// persistence requests by operation across namespaces.
func TestTemporalMetrics(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, metricsText)
	}))
	defer srv.Close()
	other := httptest.NewServer(http.NotFoundHandler()) // a port that serves no metrics
	defer other.Close()
	url, err := temporalMetricsURL(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if url != srv.URL+"/metrics" {
		t.Fatalf("found %s, want %s/metrics", url, srv.URL)
	}
	got, err := persistenceRequests(url)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"UpdateWorkflowExecution": 42, "CreateWorkflowExecution": 20, "visibility RecordWorkflowExecutionStarted": 20}
	if !maps.Equal(got, want) {
		t.Fatalf("requests = %v, want %v", got, want)
	}
}

// TestCostProbeOnDevServer reads the counters -costs reads from a real
// dev server, this test process standing in for assay dev (the server is
// its child), around three question-shaped runs.
func TestCostProbeOnDevServer(t *testing.T) {
	bin := devservertest.Binary(t)
	ctx := context.Background()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := devserver.Start(ctx, devserver.Options{Bin: bin, DataDir: t.TempDir(), Port: port})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(5 * time.Second)
	probe, err := newCostProbe(os.Getpid(), "", true)
	if err != nil {
		t.Fatal(err)
	}
	defer probe.close()
	tc, err := client.DialContext(ctx, client.Options{HostPort: srv.Address(), Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	w := worker.New(tc, "costs-test", worker.Options{})
	w.RegisterWorkflowWithOptions(func(workflow.Context) (string, error) { return "ok", nil }, workflow.RegisterOptions{Name: workflows.AnswerWorkflowName})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	before, err := probe.read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const runs = 3
	for range runs {
		run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "costs-test"}, workflows.AnswerWorkflowName)
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	after, err := probe.read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := perQuestion(before, after, runs)
	if c.TemporalCPUMS <= 0 || c.Redis != nil {
		t.Errorf("costs = %+v, want Temporal CPU and no Redis", c)
	}
	if got := c.TemporalPersistence["CreateWorkflowExecution"]; got != 1 {
		t.Errorf("CreateWorkflowExecution per run = %v, want 1 (%v)", got, c.TemporalPersistence)
	}
	h, err := temporalHistory(ctx, srv.Address(), before.at)
	if err != nil {
		t.Fatal(err)
	}
	// Started, task scheduled, started and completed, execution completed.
	if h.RunsByType[workflows.AnswerWorkflowName] != runs || h.Sampled != runs || h.Events != 5 || h.Bytes <= 0 ||
		h.EventTypes["WorkflowExecutionCompleted"] != 1 {
		t.Errorf("history = %+v, want %d runs of 5 events each", h, runs)
	}
}

// TestAttributeMachineCPU splits the machine's busy CPU a question into
// the bench client's and the rest's (steal apart).
func TestAttributeMachineCPU(t *testing.T) {
	before := costCounters{assayCPU: 10, temporal: 5, machineBusy: 100, steal: 1}
	after := costCounters{assayCPU: 12, temporal: 6, machineBusy: 106, steal: 1.5}
	c := perQuestion(before, after, 100)
	c.attribute(400 * time.Millisecond)
	for name, got := range map[string][2]float64{
		"machine": {c.MachineCPUMS, 60}, "steal": {c.StealMS, 5}, "assay": {c.AssayCPUMS, 20}, "temporal": {c.TemporalCPUMS, 10},
		"bench": {c.BenchCPUMS, 4}, "other": {c.OtherCPUMS, 21}, // 60 - 5 - 20 - 10 - 4
	} {
		if math.Abs(got[0]-got[1]) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got[0], got[1])
		}
	}
	if in, err := vmstat("pgpgin"); err != nil || in < 0 {
		t.Errorf("vmstat(pgpgin) = %v, %v", in, err)
	}
	if _, err := vmstat("no_such_counter"); err == nil {
		t.Error("vmstat(no_such_counter): no error")
	}
	busy, steal, err := machineCPU()
	if err != nil || busy <= 0 || steal < 0 || steal > busy {
		t.Errorf("machineCPU() = %v, %v, %v: want busy > 0 and 0 ≤ steal ≤ busy", busy, steal, err)
	}
}
