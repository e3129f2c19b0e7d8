package bench

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/wire"
)

// fakeGateway answers every question at once, except "slow", which is
// still running after the wait, and "broken", whose run ends search_error;
// its one batch runs for two status polls.
func fakeGateway(t *testing.T) (*apiclient.Client, *atomic.Int64) {
	t.Helper()
	var asked atomic.Int64
	var polls atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/questions", func(w http.ResponseWriter, r *http.Request) {
		var req api.QuestionRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("question body: %v", err)
		}
		asked.Add(1)
		q := api.QuestionResponse{ID: "q", Status: api.Completed, StopReason: wire.Answered}
		switch req.Question {
		case "slow":
			q = api.QuestionResponse{ID: "q-slow", Status: api.Running}
		case "broken":
			q = api.QuestionResponse{ID: "q-broken", Status: api.Completed, StopReason: wire.SearchError,
				StopDetail: "search failed: release initial assesses with another model: deploy a worker for it"}
		}
		json.NewEncoder(w).Encode(q)
	})
	mux.HandleFunc("POST /v1/batches", func(w http.ResponseWriter, r *http.Request) {
		var req api.BatchRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Questions) != 3 || req.Questions[2].ID != "3" {
			t.Errorf("batch body %+v (%v), want 3 questions numbered from 1", req, err)
		}
		w.WriteHeader(http.StatusAccepted)
		json.NewEncoder(w).Encode(api.Accepted{ID: "b1", Status: api.Running})
	})
	mux.HandleFunc("GET /v1/batches/b1", func(w http.ResponseWriter, r *http.Request) {
		b := api.BatchResponse{ID: "b1", Status: api.Running}
		if polls.Add(1) > 2 {
			b.Status = api.Completed
			b.Aggregate = &wire.BatchAggregate{Total: 3, Done: 3, StopReasons: map[wire.StopReason]int{wire.Answered: 3}, LatencyP50MS: 4, LatencyP95MS: 9}
		}
		json.NewEncoder(w).Encode(b)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &apiclient.Client{BaseURL: srv.URL}, &asked
}

// TestRun: each level measures N questions after its warm-up, the
// levels print as one Markdown table, the batch is timed to its end.
func TestRun(t *testing.T) {
	c, asked := fakeGateway(t)
	qs := []api.BatchQuestion{{Question: "one"}, {Question: "two"}, {Question: "slow"}}
	var out strings.Builder
	var rep Report
	err := Run(context.Background(), c, Options{Questions: qs, N: 6, Warmup: 2, Concurrency: []int{1, 3}, Batch: 3}, &out, &rep)
	if err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 2*(6+2) {
		t.Errorf("asked %d questions, want 16 (6 measured and 2 warm-up at each of 2 levels)", n)
	}
	if len(rep.Rows) != 2 || rep.Rows[1].Concurrency != 3 {
		t.Fatalf("rows %+v, want levels 1 and 3", rep.Rows)
	}
	for _, r := range rep.Rows {
		// Round-robin over three questions: every third is "slow".
		if r.Completed != 4 || r.Errors != 2 || r.StopReasons[wire.Answered] != 4 || !strings.Contains(r.FirstError, "running after the wait") {
			t.Errorf("row %+v: want 4 completed, 2 errors (still running), 4 answered", r)
		}
		if r.PerSecond <= 0 || r.P50MS <= 0 || r.P99MS < r.P50MS || r.MaxMS < r.P99MS {
			t.Errorf("row %+v: want positive throughput and ordered percentiles", r)
		}
	}
	if b := rep.Batch; b == nil || b.Questions != 3 || b.Status != api.Completed || b.Done != 3 || b.RunP95MS != 9 || b.PerSecond <= 0 {
		t.Errorf("batch %+v, want 3 done, completed, run p95 9 ms", rep.Batch)
	}
	for _, want := range []string{"| concurrency | questions/s |", "| 3 | ", "concurrency 1, first error: ", "batch of 3: completed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestRunOneLevel prints the level's own table; a level where nothing
// completes is an error naming the level.
func TestRunOneLevel(t *testing.T) {
	c, _ := fakeGateway(t)
	var out strings.Builder
	var rep Report
	err := Run(context.Background(), c, Options{Questions: []api.BatchQuestion{{Question: "one"}}, N: 3, Concurrency: []int{2}}, &out, &rep)
	if err != nil || rep.Batch != nil {
		t.Fatalf("Run: %v, batch %+v; want no error and no batch", err, rep.Batch)
	}
	if !strings.Contains(out.String(), "3 of 3 completed (0 of them failed), 0 errors, concurrency 2") || !strings.Contains(out.String(), "answered") {
		t.Errorf("output:\n%s", out.String())
	}
	err = Run(context.Background(), c, Options{Questions: []api.BatchQuestion{{Question: "slow"}}, N: 2, Concurrency: []int{4}}, &out, &Report{})
	if err == nil || !strings.Contains(err.Error(), "concurrency 4: no question completed") {
		t.Errorf("Run with nothing completing: %v; want the level named", err)
	}
}

// TestFailedRuns: a run that completes with a failure's stop reason is
// counted and shown as failed (not only as a stop reason among answers);
// a level whose completed runs all failed is an error naming the stop
// reasons and the first failure's detail, and its row is kept.
func TestFailedRuns(t *testing.T) {
	c, _ := fakeGateway(t)
	var out strings.Builder
	var rep Report
	qs := []api.BatchQuestion{{Question: "one"}, {Question: "broken"}}
	if err := Run(context.Background(), c, Options{Questions: qs, N: 4, Concurrency: []int{1, 2}}, &out, &rep); err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Completed != 4 || r.Failed != 2 || r.Errors != 0 || !strings.Contains(r.FirstFailure, "q-broken stopped search_error: search failed: release initial") {
			t.Errorf("row %+v: want 4 completed, 2 of them failed, the first failure's detail", r)
		}
	}
	for _, want := range []string{"| errors | failed |", "| 0 | 2 |", "concurrency 1, first failure: question q-broken stopped search_error: search failed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	rep = Report{}
	if err := Run(context.Background(), c, Options{Questions: qs, N: 2, Concurrency: []int{1}}, &out, &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "2 of 2 completed (1 of them failed), 0 errors, concurrency 1") || !strings.Contains(out.String(), "first failure") {
		t.Errorf("one level's table:\n%s", out.String())
	}
	rep = Report{}
	err := Run(context.Background(), c, Options{Questions: []api.BatchQuestion{{Question: "broken"}}, N: 3, Concurrency: []int{2}}, &out, &rep)
	if err == nil || !strings.Contains(err.Error(), "concurrency 2: every question that completed failed (3 of 3; search_error 3): question q-broken stopped search_error: search failed: release initial") {
		t.Errorf("Run with every run failing: %v; want the level, the stop reasons and the first failure's detail", err)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].Failed != 3 {
		t.Errorf("rows %+v, want the failed level's row kept", rep.Rows)
	}
}
