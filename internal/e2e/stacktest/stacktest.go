// Package stacktest drives a running assay stack (gateway and workers)
// from a test over the HTTP API: questions, batches and their outcomes,
// shared by the end-to-end tests (internal/e2e) and the cluster tests
// (internal/clustertest).
package stacktest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/wire"
)

// FreePort is a TCP port free on 127.0.0.1 when it is asked for, chosen
// at random between 20000 and 32000: below the kernel's ephemeral range
// (32768 on), so no outgoing connection's source port and no port a
// server asks the kernel for takes it between now and the moment the
// test's server binds it. (A port from the ephemeral range once did: the
// Temporal Web UI of a test lost its port and the dev server exited.) The
// range also fits the Temporal SQL schema's membership ports (smallint).
// A port is handed out once in a test binary: the port is closed again
// when FreePort returns, so without that two calls of one stack (the
// cluster's eleven ports) could get the same port, and the second server
// to bind it fails.
func FreePort(t testing.TB) int {
	t.Helper()
	handedMu.Lock()
	defer handedMu.Unlock()
	for range 200 {
		port := 20000 + rand.IntN(12000)
		if handed[port] {
			continue
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			ln.Close()
			handed[port] = true
			return port
		}
	}
	t.Fatal("no free port between 20000 and 32000 on 127.0.0.1")
	return 0
}

// handed holds the ports FreePort returned in this test binary.
var (
	handedMu sync.Mutex
	handed   = map[int]bool{}
)

// Questions reads the questions of a question file for a batch
// (apiclient.ReadQuestions), such as testdata/hollin/questions.jsonl.
func Questions(t testing.TB, path string) []string {
	t.Helper()
	qs, err := apiclient.ReadQuestions(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Question
	}
	return out
}

// Ask asks one question and waits for its end; it returns the run's id
// and what the run ended with.
func Ask(ctx context.Context, t testing.TB, hc *apiclient.Client, question string) (string, api.QuestionResponse) {
	t.Helper()
	id, err := hc.Submit(ctx, api.QuestionRequest{Question: question})
	if err != nil {
		t.Fatalf("Submit(%q): %v", question, err)
	}
	q, err := hc.Wait(ctx, id, 50*time.Millisecond, nil)
	if err != nil {
		t.Fatalf("Wait(%s): %v", id, err)
	}
	return id, q
}

// CheckWarrantyAnswered checks the run of Hollin's q02 ("how many years
// is the X300 Pro motor covered for"): completed and answered, with the
// key fact "5 years", citing pol-warranty-2026.
func CheckWarrantyAnswered(t testing.TB, q api.QuestionResponse) {
	t.Helper()
	if q.Status != api.Completed || q.StopReason != "answered" {
		t.Fatalf("status %s, stop reason %s; want completed, answered\n%+v", q.Status, q.StopReason, q)
	}
	if !strings.Contains(q.Answer, "5 years") {
		t.Errorf("answer %q does not contain the key fact %q", q.Answer, "5 years")
	}
	var cited []string
	for _, c := range q.Citations {
		cited = append(cited, c.DocID)
	}
	if !slices.Contains(cited, "pol-warranty-2026") {
		t.Errorf("citations %v do not include pol-warranty-2026", cited)
	}
}

// Outcome is what a question of a batch ended with.
type Outcome struct {
	Stop   wire.StopReason
	Answer string
	Run    string // the question's workflow id
}

// RunBatch runs n of questions (round and round) as one batch, ids q001
// on, and returns their outcomes by those ids. during is called with the
// number of questions done each time the batch is polled; polls that fail
// (the server may be down) are retried. logs is what the stack printed,
// shown when the batch does not finish before ctx ends.
func RunBatch(ctx context.Context, t testing.TB, hc *apiclient.Client, questions []string, n int, during func(done int), logs func() string) map[string]Outcome {
	t.Helper()
	var req api.BatchRequest
	for i := range n {
		req.Questions = append(req.Questions, api.BatchQuestion{ID: fmt.Sprintf("q%03d", i+1), Question: questions[i%len(questions)]})
	}
	id, err := hc.SubmitBatch(ctx, req)
	if err != nil {
		t.Fatalf("submit batch: %v\n%s", err, logs())
	}
	for {
		if ctx.Err() != nil {
			t.Fatalf("batch %s did not finish: %v\n%s", id, ctx.Err(), logs())
		}
		b, err := hc.GetBatch(ctx, id)
		if err == nil && b.Status != api.Running {
			break
		}
		if err == nil && during != nil && b.Aggregate != nil {
			during(b.Aggregate.Done)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var items []api.BatchResultItem
	for try := 0; ; try++ {
		if items, err = hc.AllBatchResults(ctx, id); err == nil || try == 20 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		// The stack's logs say why (a process that exited prints why).
		t.Fatalf("batch %s results: %v\n%s", id, err, logs())
	}
	out := map[string]Outcome{}
	for _, it := range items {
		if _, dup := out[it.ID]; dup {
			t.Errorf("question %s appears twice in the results", it.ID)
		}
		if it.Status != wire.ItemDone {
			t.Errorf("question %s: status %s (%s), want done", it.ID, it.Status, it.Error)
		}
		out[it.ID] = Outcome{it.StopReason, it.Answer, it.QuestionID}
	}
	return out
}

// Compare checks that every question of a crashed run ended (stop reason
// and answer) as in the clean run, and returns how many were lost or
// differ.
func Compare(t testing.TB, label string, clean, got map[string]Outcome) (lost, differ int) {
	t.Helper()
	for id, want := range clean {
		g, ok := got[id]
		switch {
		case !ok:
			lost++
			t.Errorf("%s: question %s lost", label, id)
		case g.Stop != want.Stop || g.Answer != want.Answer:
			differ++
			t.Errorf("%s: question %s ended %s %.80q, the clean run %s %.80q", label, id, g.Stop, g.Answer, want.Stop, want.Answer)
		}
	}
	if len(got) != len(clean) {
		t.Errorf("%s: %d results, the clean run had %d", label, len(got), len(clean))
	}
	return lost, differ
}
