package gateway

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/auth"
)

// TestMetricsNeedAKey: a keyed gateway's /metrics needs one of its API
// keys or the metrics key (issue 21: it needed none); an anonymous
// gateway's needs none.
func TestMetricsNeedAKey(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.MetricsKey = "scraper-token-123" })
	for _, tt := range []struct {
		auth string
		want int
	}{
		{"", 401},
		{"Bearer wrong-token", 401},
		{"Bearer scraper-token-123", 200},
		{"Bearer " + keyPublic, 200},
	} {
		r := h.call(http.MethodGet, "/metrics", "", "", "Authorization", tt.auth)
		if r.Status != tt.want {
			t.Errorf("GET /metrics with %q = %d, want %d", tt.auth, r.Status, tt.want)
		}
		if r.Status == 401 && r.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("401 without WWW-Authenticate")
		}
	}
	anon := newHarness(t, func(o *Options) { o.Keyring, _ = auth.NewKeyring(nil) })
	if r := anon.call(http.MethodGet, "/metrics", "", ""); r.Status != 200 {
		t.Errorf("anonymous gateway's /metrics = %d", r.Status)
	}
}

// TestReadyzCached: /readyz, which needs no key, runs its checks (calls
// to Temporal) at most once a second however often it is asked (issue 21:
// every request called Temporal).
func TestReadyzCached(t *testing.T) {
	var calls atomic.Int32
	h := newHarness(t, func(o *Options) {
		o.Ready = []Check{{Name: "temporal", Check: func(context.Context) error { calls.Add(1); return nil }}}
	})
	for range 5 {
		if r := h.call(http.MethodGet, "/readyz", "", ""); r.Status != 200 {
			t.Fatalf("readyz = %d %s", r.Status, r.Body)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("5 probes in the same second ran the checks %d times, want 1", n)
	}
	h.mu.Lock()
	h.now = h.now.Add(time.Second)
	h.mu.Unlock()
	h.call(http.MethodGet, "/readyz", "", "")
	if n := calls.Load(); n != 2 {
		t.Errorf("a probe a second later ran the checks %d times in all, want 2", n)
	}
}

// TestRunIDNamesTheKind: an idempotency key names one run per kind, so a
// key sent to /questions and then to /batches by one principal cannot
// make the batch request replay (or conflict with) the question (issue
// 21 item 7: leaving the kind out of the run id failed no test).
func TestRunIDNamesTheKind(t *testing.T) {
	if runID(KindQuestion, "reader", "k") == runID(KindBatch, "reader", "k") {
		t.Error("runID is the same for a question and a batch with one key")
	}
	if runID(KindQuestion, "reader", "k") != runID(KindQuestion, "reader", "k") {
		t.Error("runID is not stable")
	}
	if runID(KindQuestion, "reader", "k") == runID(KindQuestion, "other", "k") {
		t.Error("runID is the same for two principals")
	}
	h := newHarness(t)
	var q, b struct{ ID string }
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`, "Idempotency-Key", "shared-1"); r.Status != 202 {
		t.Fatalf("question = %d %s", r.Status, r.Body)
	} else {
		r.decode(t, &q)
	}
	r := h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"}]}`, "Idempotency-Key", "shared-1")
	if r.Status != 202 {
		t.Fatalf("a batch with the question's key = %d %s; want a new batch", r.Status, r.Body)
	}
	r.decode(t, &b)
	if b.ID == q.ID {
		t.Errorf("the batch and the question share run id %s", b.ID)
	}
	if r := h.call(http.MethodGet, "/v1/batches/"+b.ID, keyPublic, ""); r.Status != 200 {
		t.Errorf("GET the batch = %d %s", r.Status, r.Body)
	}
}

// TestOneKeyGatewayIsNotAnonymous: a gateway with a single key requires it
// (issue 21 item 7: treating a one-key keyring as anonymous was caught
// only by a cmd/assay test).
func TestOneKeyGatewayIsNotAnonymous(t *testing.T) {
	const key = "only-key-0123456789"
	h := newHarness(t, func(o *Options) {
		k, err := auth.NewKeyring([]auth.Key{{Name: "only", SHA256: auth.Hash(key), Groups: []string{"public", "staff"}}})
		if err != nil {
			t.Fatal(err)
		}
		o.Keyring = k
	})
	for _, k := range []string{"", "wrong-key-0123456789"} {
		if r := h.call(http.MethodPost, "/v1/questions", k, `{"question":"E4"}`); r.Status != 401 {
			t.Errorf("one-key gateway, key %q: POST = %d %s; want 401", k, r.Status, r.Body)
		}
	}
	if h.eng.started != 0 {
		t.Error("an unauthenticated request started a run")
	}
	r := h.call(http.MethodPost, "/v1/questions", key, `{"question":"E4"}`)
	if r.Status != 202 || r.Header.Get(HeaderPrincipal) != "only" {
		t.Errorf("with its key = %d, principal %q; want 202 as only", r.Status, r.Header.Get(HeaderPrincipal))
	}
}
