package gateway

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/auth"
)

// TestBatchQuestionsCountAgainstTheRate: the rate limit counts questions,
// not requests (issue 21: a batch of 1,000 questions was one request). A
// key of 5 a minute may send a batch of 4 (the request and 3 more), then
// nothing; a batch larger than a minute's allowance is refused naming
// the split it needs; nothing starts on a refusal.
func TestBatchQuestionsCountAgainstTheRate(t *testing.T) {
	const key = "five-key-0123456789"
	h := newHarness(t, func(o *Options) {
		k, err := auth.NewKeyring([]auth.Key{{Name: "five", SHA256: auth.Hash(key), Groups: []string{"public"}, RatePerMinute: 5}})
		if err != nil {
			t.Fatal(err)
		}
		o.Keyring = k
	})
	batch := func(n int) string {
		qs := make([]string, n)
		for i := range qs {
			qs[i] = fmt.Sprintf(`{"question":"E%d"}`, i+1)
		}
		return `{"questions":[` + strings.Join(qs, ",") + `]}`
	}
	r := h.call(http.MethodPost, "/v1/batches", key, batch(6))
	if e := r.errorOf(t); r.Status != 400 || e.Field != "questions" || !strings.Contains(e.Message, "split the batch") {
		t.Errorf("a batch of 6 on a key of 5 a minute = %d %s; want 400 asking to split it", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/v1/batches", key, batch(4)); r.Status != 202 {
		t.Fatalf("a batch of 4 = %d %s", r.Status, r.Body)
	}
	started := h.eng.started
	r = h.call(http.MethodPost, "/v1/batches", key, batch(2))
	if e := r.errorOf(t); r.Status != 429 || e.Code != "rate_limited" || r.Header.Get("Retry-After") == "" {
		t.Errorf("a second batch in the minute = %d %s (Retry-After %q); want 429", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	if h.eng.started != started {
		t.Errorf("a refused batch started")
	}
}

// TestInFlightQuotas: a principal may have at most so many questions and
// batches running; past that a new run is refused with 429, Retry-After
// and a body naming the quota, while other principals and replays of an
// existing run's idempotency key pass.
func TestInFlightQuotas(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Quota = Quota{MaxQuestionsInFlight: 2, MaxBatchesInFlight: 1} })
	h.eng.hold = true
	for i := range 2 {
		if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`, "Idempotency-Key", "k"+strconv.Itoa(i)); r.Status != 202 {
			t.Fatalf("question %d = %d %s", i, r.Status, r.Body)
		}
	}
	r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`)
	if e := r.errorOf(t); r.Status != 429 || e.Field != "quota.max_questions_in_flight" || !strings.Contains(e.Message, "2 questions running") || r.Header.Get("Retry-After") == "" {
		t.Errorf("a third question in flight = %d %s (Retry-After %q); want 429 naming quota.max_questions_in_flight", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`, "Idempotency-Key", "k1"); r.Status != 202 {
		t.Errorf("a replay of a running question's key = %d %s; want 202 (not a new run)", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/v1/questions", keyPartner, `{"question":"E4"}`); r.Status != 202 {
		t.Errorf("another principal = %d %s; quotas are per principal", r.Status, r.Body)
	}

	if r := h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"}]}`); r.Status != 202 {
		t.Fatalf("first batch = %d %s", r.Status, r.Body)
	}
	r = h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"}]}`)
	if e := r.errorOf(t); r.Status != 429 || e.Field != "quota.max_batches_in_flight" {
		t.Errorf("a second batch in flight = %d %s; want 429 naming quota.max_batches_in_flight", r.Status, r.Body)
	}
	h.eng.release()
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`); r.Status != 202 {
		t.Errorf("after the questions ended = %d %s", r.Status, r.Body)
	}
}

// TestDailyCostQuota: with a daily cost quota each run reserves its cost
// budget before it starts; past the day's quota a run is refused with
// 429, a Retry-After until midnight UTC and a body naming the quota; the
// next day starts afresh.
func TestDailyCostQuota(t *testing.T) {
	h := newHarness(t, func(o *Options) {
		o.Template.Budget.MaxCostUSD = 0.10
		o.Quota = Quota{MaxCostPerDayUSD: 0.25}
	})
	for i := range 2 {
		if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`); r.Status != 202 {
			t.Fatalf("question %d = %d %s", i, r.Status, r.Body)
		}
	}
	started := h.eng.started
	r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`)
	e := r.errorOf(t)
	if r.Status != 429 || e.Field != "quota.max_cost_per_day_usd" || !strings.Contains(e.Message, "$0.2000") {
		t.Errorf("a third $0.10 run on a $0.25 day = %d %s; want 429 naming quota.max_cost_per_day_usd", r.Status, r.Body)
	}
	// 12:00 UTC in the harness: twelve hours to midnight.
	if got, _ := strconv.Atoi(r.Header.Get("Retry-After")); got != 12*3600 {
		t.Errorf("Retry-After = %q, want %d (midnight UTC)", r.Header.Get("Retry-After"), 12*3600)
	}
	if h.eng.started != started {
		t.Error("a run over the cost quota started")
	}
	if r := h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"}]}`); r.Status != 429 {
		t.Errorf("a batch over the cost quota = %d %s", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/v1/questions", keyPartner, `{"question":"E4"}`); r.Status != 202 {
		t.Errorf("another principal = %d %s", r.Status, r.Body)
	}
	h.mu.Lock()
	h.now = h.now.Add(13 * time.Hour)
	h.mu.Unlock()
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`); r.Status != 202 {
		t.Errorf("the next day = %d %s", r.Status, r.Body)
	}
}

// TestInFlightCountReused: well below the cap, a principal's count of runs
// in flight is reused for a second (plus the runs admitted since), so a
// start costs no visibility query; at the cap, and after the second, it is
// counted again.
func TestInFlightCountReused(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Quota = Quota{MaxQuestionsInFlight: 3} })
	h.eng.hold = true
	ask := func() resp { return h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`) }
	counted := func() int { h.eng.mu.Lock(); defer h.eng.mu.Unlock(); return h.eng.counted }
	for i := range 3 {
		if r := ask(); r.Status != 202 {
			t.Fatalf("question %d = %d %s", i, r.Status, r.Body)
		}
	}
	if n := counted(); n != 1 {
		t.Errorf("three starts below the cap counted runs %d times; want 1", n)
	}
	if r := ask(); r.Status != 429 {
		t.Errorf("a fourth question = %d %s; want 429", r.Status, r.Body)
	}
	if n := counted(); n != 2 {
		t.Errorf("a start at the cap counted runs %d times in all; want 2 (a refusal is decided on a fresh count)", n)
	}
	h.eng.release()
	h.mu.Lock()
	h.now = h.now.Add(inFlightFresh)
	h.mu.Unlock()
	if r := ask(); r.Status != 202 {
		t.Errorf("after the runs ended = %d %s", r.Status, r.Body)
	}
	if n := counted(); n != 3 {
		t.Errorf("a start after a second counted runs %d times in all; want 3", n)
	}
}

// TestInFlightCountShared: starts that need a count at the same time wait
// for one visibility query rather than each sending their own (on a
// cluster the frontend rate-limits those queries, and 32 starts in flight
// each counting took seconds).
func TestInFlightCountShared(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Quota = Quota{MaxQuestionsInFlight: 100} })
	h.eng.hold = true
	gate := make(chan struct{})
	h.eng.mu.Lock()
	h.eng.countGate = gate
	h.eng.mu.Unlock()
	counted := func() int { h.eng.mu.Lock(); defer h.eng.mu.Unlock(); return h.eng.counted }
	const starts = 8
	status := make(chan int, starts)
	for range starts {
		go func() {
			status <- h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).Status
		}()
	}
	for deadline := time.Now().Add(5 * time.Second); counted() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no start counted runs within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // the other starts reach the count
	if n := counted(); n != 1 {
		t.Errorf("%d starts at once sent %d counts; want 1 shared", starts, n)
	}
	close(gate)
	for range starts {
		if s := <-status; s != 202 {
			t.Errorf("a start = %d; want 202", s)
		}
	}
	if n := counted(); n != 1 {
		t.Errorf("after the starts: %d counts; want 1", n)
	}
}
