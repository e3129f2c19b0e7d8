package clustertest

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestCluster brings the stack up on a fresh cluster while asking
// questions (none may be answered 500), then runs the end-to-end checks
// and the crash tests on it.
func TestCluster(t *testing.T) {
	start := time.Now()
	c := newCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()

	t.Run("startup", func(t *testing.T) { testStartup(ctx, t, c) })
	if t.Failed() {
		return
	}
	t.Logf("stack up %s after the test began", time.Since(start).Round(time.Second))
	hc := &apiclient.Client{BaseURL: c.base}

	var q02 string
	t.Run("q02-answered", func(t *testing.T) {
		id, q := stacktest.Ask(ctx, t, hc, "how many years is the X300 Pro motor covered for")
		q02 = id
		stacktest.CheckWarrantyAnswered(t, q)
		if body, status := sources(ctx, t, c, id); status != http.StatusOK {
			t.Errorf("GET /v1/questions/%s/sources: %d %s, want 200", id, status, body)
		}
	})

	t.Run("peru-stops", func(t *testing.T) {
		_, q := stacktest.Ask(ctx, t, hc, "what is the capital of Peru")
		if q.StopReason != "insufficient_context" || !strings.Contains(q.Answer, "could not find") || len(q.Citations) != 0 {
			t.Fatalf("got stop %s, answer %q, %d citations; want insufficient_context with the not-found answer", q.StopReason, q.Answer, len(q.Citations))
		}
	})

	t.Run("acl-sample", func(t *testing.T) { testACLSample(ctx, t, c) })

	t.Run("search-attributes", func(t *testing.T) {
		if q02 == "" {
			t.Skip("q02 did not run")
		}
		// SQL visibility is written after the run closes: poll briefly.
		query := "WorkflowType = 'AnswerWorkflow' AND AssayStopReason = 'answered' AND AssayStatus = 'completed' AND AssayPrincipal = 'anonymous'"
		var ids []string
		var out []byte
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
			var err error
			out, err = exec.CommandContext(ctx, c.cli, "workflow", "list", "--address", c.address(), "--namespace", c.namespace,
				"--query", query, "--output", "json").CombinedOutput()
			if err != nil {
				t.Fatalf("temporal workflow list --query %q: %v\n%s", query, err, out)
			}
			ids = listedIDs(t, out)
			if slices.Contains(ids, q02) {
				break
			}
		}
		if !slices.Contains(ids, q02) {
			t.Errorf("temporal workflow list --query %q lists %v, want q02's run %s\n%s", query, ids, q02, out)
		}
	})

	tc := c.dial()
	defer tc.Close()
	countAnswers := func() (int64, error) {
		resp, err := tc.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: "WorkflowType = 'AnswerWorkflow' AND TaskQueue = '" + c.taskQueue + "'"})
		return resp.GetCount(), err
	}
	before, err := countAnswers()
	if err != nil {
		t.Fatalf("count AnswerWorkflows: %v", err)
	}
	n := clusterN()
	var clean map[string]stacktest.Outcome
	t.Run("batch", func(t *testing.T) {
		phase := time.Now()
		clean = runBatch(ctx, t, c, n, nil)
		t.Logf("batch of %d: %d results in %s", n, len(clean), time.Since(phase).Round(time.Millisecond))
		if len(clean) != n {
			t.Fatalf("%d results for %d questions", len(clean), n)
		}
	})
	if clean == nil {
		return
	}

	t.Run("worker-sigkill", func(t *testing.T) {
		phase := time.Now()
		killed := false
		got := runBatch(ctx, t, c, n, func(done int) {
			if !killed && done >= 1 { // mid-batch: as soon as a question has ended
				killed = true
				t.Logf("SIGKILL worker 0 with %d of %d questions done", done, n)
				c.workers[0].kill()
				time.Sleep(time.Second)
				c.startWorker(0)
			}
		})
		lost, differ := stacktest.Compare(t, "worker SIGKILL", clean, got)
		t.Logf("worker SIGKILL: %d tried, %d lost, %d differ, in %s", n, lost, differ, time.Since(phase).Round(time.Millisecond))
		if !killed {
			t.Errorf("the batch finished before the worker could be killed")
		}
	})

	t.Run("server-sigkill", func(t *testing.T) {
		if c.external != "" {
			t.Skip("SKIPPED: the server SIGKILL test: the cluster at ASSAY_CLUSTER_ADDRESS is not ours to kill")
		}
		phase := time.Now()
		down := 5 * time.Second
		if d, err := time.ParseDuration(os.Getenv("ASSAY_CLUSTER_DOWN")); err == nil {
			down = d
		}
		restarted := false
		got := runBatch(ctx, t, c, n, func(done int) {
			if !restarted && done >= n/4 {
				restarted = true
				t.Logf("SIGKILL the Temporal server with %d of %d questions done; restarting it after %s", done, n, down)
				c.killServer()
				time.Sleep(down)
				c.restartServer()
			}
		})
		lost, differ := stacktest.Compare(t, "server SIGKILL", clean, got)
		t.Logf("server SIGKILL: %d tried, %d lost, %d differ, in %s", n, lost, differ, time.Since(phase).Round(time.Millisecond))
		if !restarted {
			t.Errorf("the batch finished before the server could be killed")
		}
	})

	t.Run("redisearch-shared-index", func(t *testing.T) { testRediSearch(ctx, t, c) })

	// One AnswerWorkflow per question per batch, none started twice.
	want := before + int64(3*n)
	var count int64
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		if count, err = countAnswers(); err == nil && count == want {
			break
		}
	}
	if count != want {
		t.Errorf("Temporal holds %d AnswerWorkflow executions on task queue %s, want %d (%d before the 3 batches of %d)",
			count, c.taskQueue, want, before, n)
	}
	t.Logf("cluster tests took %s", time.Since(start).Round(time.Second))
}

// testRediSearch runs two more workers and a gateway, on their own task
// queue, sharing one RediSearch index that `assay index` built: q02, the
// Peru stop and a batch. It skips without a RediSearch server
// (ASSAY_TEST_REDISEARCH, see internal/redistest).
func testRediSearch(ctx context.Context, t *testing.T, c *cluster) {
	srv := redistest.Start(t)
	name := redistest.Name("cluster")
	cfg := filepath.Join(c.dir, "assay-redisearch.yaml")
	body := fmt.Sprintf("auth:\n  allow_anonymous: true\nbatch:\n  concurrency: 8\ntemporal:\n  namespace: %s\n  task_queue: %s-redisearch\n",
		c.namespace, c.taskQueue)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	shared := []string{"--config", cfg, "--backend", "redisearch", "--redis-addr", srv.Addr, "--name", name}
	if out, err := exec.CommandContext(ctx, c.assay, append([]string{"index", "--corpus",
		filepath.Join(repoRoot, "testdata/hollin/corpus.jsonl")}, shared...)...).CombinedOutput(); err != nil {
		t.Fatalf("assay index: %v\n%s", err, out)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", stacktest.FreePort(t))
	var procs []*proc
	for i := range 2 {
		procs = append(procs, c.start("redisearch-worker-"+strconv.Itoa(i), nil, nil, c.assay,
			append([]string{"worker", "--temporal-address", c.address()}, shared...)...))
	}
	procs = append(procs, c.start("redisearch-gateway", nil, nil, c.assay, append([]string{"gateway",
		"--temporal-address", c.address(), "--http-addr", strings.TrimPrefix(base, "http://")}, shared...)...))
	defer func() {
		for _, p := range procs {
			p.stop(20 * time.Second)
		}
	}()
	rc := &cluster{t: t, base: base, dir: c.dir}
	rc.workers[0], rc.workers[1], rc.gateway = procs[0], procs[1], procs[2]
	rc.waitReady(2 * time.Minute)
	hc := &apiclient.Client{BaseURL: base}

	_, q := stacktest.Ask(ctx, t, hc, "how many years is the X300 Pro motor covered for")
	var cited []string
	for _, ci := range q.Citations {
		cited = append(cited, ci.DocID)
	}
	if q.StopReason != "answered" || !slices.Contains(cited, "pol-warranty-2026") {
		t.Errorf("q02 on the shared index: stop %s, cited %v; want answered citing pol-warranty-2026", q.StopReason, cited)
	}
	_, q = stacktest.Ask(ctx, t, hc, "what is the capital of Peru")
	if q.StopReason != "insufficient_context" {
		t.Errorf("Peru on the shared index: stop %s, want insufficient_context", q.StopReason)
	}
	const n = 24
	got := runBatch(ctx, t, rc, n, nil)
	if len(got) != n {
		t.Errorf("batch on the shared index: %d results for %d questions", len(got), n)
	}
}

// testACLSample asks, as the anonymous principal (group public), every
// public question of testdata/eval/hollin.jsonl, six at a time, and
// checks that none of the documents the file lists as forbidden to it
// appears in what a client can read: the answer, the trace, the sources.
func testACLSample(ctx context.Context, t *testing.T, c *cluster) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "testdata/eval/hollin.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type question struct {
		ID        string
		Question  string
		Groups    []string
		Forbidden []string
	}
	var qs []question
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var q question
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatal(err)
		}
		if slices.Equal(q.Groups, []string{"public"}) && len(q.Forbidden) > 0 {
			qs = append(qs, q)
		}
	}
	get := func(method, url, body string) ([]byte, int, error) {
		req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
		if err != nil {
			return nil, 0, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, 0, err
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		return out, resp.StatusCode, err
	}
	var mu sync.Mutex
	leaked := 0
	var wg sync.WaitGroup
	sem := make(chan struct{}, 6)
	for _, q := range qs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			body, _ := json.Marshal(map[string]string{"question": q.Question})
			resp, status, err := get(http.MethodPost, c.base+"/v1/questions?wait=60s", string(body))
			if err != nil || status != http.StatusOK {
				t.Errorf("%s: POST /v1/questions: %d %v %s", q.ID, status, err, resp)
				return
			}
			var r struct{ ID string }
			if err := json.Unmarshal(resp, &r); err != nil || r.ID == "" {
				t.Errorf("%s: no run id in %s", q.ID, resp)
				return
			}
			seen := string(resp)
			out, status, err := get(http.MethodGet, c.base+"/v1/questions/"+r.ID+"/trace", "")
			if err != nil || status != http.StatusOK {
				t.Errorf("%s: GET trace: %d %v %s", q.ID, status, err, out)
			}
			seen += "\n" + string(out)
			out, status = sources(ctx, t, c, r.ID)
			if status != http.StatusOK {
				t.Errorf("%s: GET sources: %d %s", q.ID, status, out)
			}
			seen += "\n" + string(out)
			for _, doc := range q.Forbidden {
				if strings.Contains(seen, doc) {
					mu.Lock()
					leaked++
					mu.Unlock()
					t.Errorf("%s %q as the public principal shows the forbidden %s:\n%.1500s", q.ID, q.Question, doc, seen)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("ACL sample: %d public questions, %d leaked", len(qs), leaked)
	if len(qs) < 20 {
		t.Errorf("only %d public questions with forbidden documents in hollin.jsonl", len(qs))
	}
}

// sources reads GET /v1/questions/{id}/sources. The gateway reads the
// passages from worker 0's index, which it opens at most every 10 s, and
// it started before the worker built it: a 503 is retried for 30 s.
func sources(ctx context.Context, t *testing.T, c *cluster, id string) ([]byte, int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Second) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/questions/"+id+"/sources", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("GET sources of %s: %v", id, err)
			return nil, 0
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			return body, resp.StatusCode
		}
	}
}

// testStartup starts both workers and the gateway on the fresh cluster
// (search attributes not yet registered) and asks questions from the
// moment the gateway listens until ten in a row are answered: a refusal
// while the stack comes up must be 503 with Retry-After, never 500.
func testStartup(ctx context.Context, t *testing.T, c *cluster) {
	c.startGateway()
	c.startWorker(0)
	c.startWorker(1)
	hc := &apiclient.Client{BaseURL: c.base, HTTP: &http.Client{Timeout: 30 * time.Second}}
	statuses := map[int]int{}
	var firstErr = map[int]string{}
	var mu sync.Mutex
	var answered, inARow atomic.Int64
	deadline := time.Now().Add(3 * time.Minute)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := 0; time.Now().Before(deadline) && inARow.Load() < 10; i++ {
				q := fmt.Sprintf("how many years is the X300 Pro motor covered for (%d/%d)", g, i)
				_, err := hc.Ask(ctx, api.QuestionRequest{Question: q}, 20*time.Second)
				var ae *apiclient.APIError
				status := 200
				switch {
				case err == nil:
					answered.Add(1)
					inARow.Add(1)
				case errors.As(err, &ae):
					status = ae.Status
					inARow.Store(0)
					time.Sleep(20 * time.Millisecond)
				default: // not listening yet
					status = 0
					inARow.Store(0)
					time.Sleep(50 * time.Millisecond)
				}
				mu.Lock()
				statuses[status]++
				if _, ok := firstErr[status]; !ok && err != nil {
					firstErr[status] = err.Error()
				}
				mu.Unlock()
				if status == http.StatusServiceUnavailable && ae.RetryAfter <= 0 {
					t.Errorf("503 without Retry-After: %v", err)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("questions while the stack came up, by HTTP status (0: not listening): %v; first errors: %v", statuses, firstErr)
	if statuses[http.StatusInternalServerError] != 0 {
		t.Errorf("%d questions answered 500 while the stack came up: %s", statuses[http.StatusInternalServerError], firstErr[500])
	}
	for s := range statuses {
		if s != 0 && s != 200 && s != http.StatusServiceUnavailable {
			t.Errorf("%d questions answered %d while the stack came up (%s); want 200 or 503", statuses[s], s, firstErr[s])
		}
	}
	if inARow.Load() < 10 {
		t.Fatalf("the stack did not answer ten questions in a row within 3 minutes\n%s", c.logs())
	}
	c.waitReady(time.Minute)
}

// listedIDs reads the workflow ids from `temporal workflow list -o json`
// (a JSON array, or one object per line).
func listedIDs(t *testing.T, out []byte) []string {
	t.Helper()
	type exec struct {
		Execution struct {
			WorkflowID string `json:"workflowId"`
		} `json:"execution"`
	}
	var list []exec
	if err := json.Unmarshal(out, &list); err != nil {
		list = nil
		sc := bufio.NewScanner(strings.NewReader(string(out)))
		for sc.Scan() {
			var e exec
			if json.Unmarshal([]byte(sc.Text()), &e) == nil {
				list = append(list, e)
			}
		}
	}
	var ids []string
	for _, e := range list {
		ids = append(ids, e.Execution.WorkflowID)
	}
	return ids
}

func clusterN() int {
	if n, err := strconv.Atoi(os.Getenv("ASSAY_CLUSTER_N")); err == nil && n > 0 {
		return n
	}
	return 120 // on a quiet machine 60 finished between two progress polls (1.2 s)
}

// runBatch runs n Hollin questions as one batch on c (see
// stacktest.RunBatch) and returns their outcomes by question id.
func runBatch(ctx context.Context, t *testing.T, c *cluster, n int, during func(done int)) map[string]stacktest.Outcome {
	t.Helper()
	qs := stacktest.Questions(t, repoRoot+"/testdata/hollin/questions.jsonl")
	return stacktest.RunBatch(ctx, t, &apiclient.Client{BaseURL: c.base}, qs, n, during, c.logs)
}

// TestClusterBench runs `assay bench` against two workers and a gateway
// on the cluster (ASSAY_CLUSTER_BENCH=1): the numbers behind
// docs/operations-cluster.md. ASSAY_TEMPORAL_DYNAMIC_CONFIG and
// ASSAY_TEMPORAL_SHARDS choose the server's settings;
// ASSAY_CLUSTER_BENCH_ARGS replaces the bench flags. ASSAY_CLUSTER_ENGINE=dev
// runs the same processes on the Temporal CLI's dev server instead (as
// `assay dev` starts it), for the side-by-side numbers.
func TestClusterBench(t *testing.T) {
	if os.Getenv("ASSAY_CLUSTER_BENCH") != "1" {
		t.Skip("SKIPPED: the cluster benchmark; set ASSAY_CLUSTER_BENCH=1 (and ASSAY_CLUSTER=1)")
	}
	var c *cluster
	engine := "Temporal server on PostgreSQL"
	if os.Getenv("ASSAY_CLUSTER_ENGINE") == "dev" {
		c, engine = newDevCluster(t), "Temporal CLI dev server"
	} else {
		c = newCluster(t)
	}
	c.startWorker(0)
	c.startWorker(1)
	c.startGateway()
	c.waitReady(3 * time.Minute)
	args := strings.Fields(os.Getenv("ASSAY_CLUSTER_BENCH_ARGS"))
	if len(args) == 0 {
		args = strings.Fields("-concurrency 1,8,32 -n 200 -warmup 20")
	}
	args = append([]string{"bench", "--server", c.base, "--questions", repoRoot + "/testdata/hollin/questions.jsonl"}, args...)
	out, err := exec.Command(c.assay, args...).CombinedOutput()
	t.Logf("assay %s on the %s (dynamic config %s, %s history shards):\n%s", strings.Join(args, " "), engine, c.dynamicConfig,
		cmp.Or(os.Getenv("ASSAY_TEMPORAL_SHARDS"), "4"), out)
	if err != nil {
		t.Fatalf("assay bench: %v", err)
	}
}
