package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// TestBadInput is the bad-input table of POST /v1/questions: each case
// gets its exact status, error code and field, never a 5xx, and starts no
// run.
func TestBadInput(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	tests := []struct {
		name    string
		key     string
		body    string
		query   string
		headers []string
		status  int
		code    string
		field   string
	}{
		{"missing question", keyPublic, `{}`, "", nil, 400, "invalid", "question"},
		{"blank question", keyPublic, `{"question":"  \n "}`, "", nil, 400, "invalid", "question"},
		{"null question", keyPublic, `{"question":null}`, "", nil, 400, "invalid", "question"},
		{"100 KB question", keyPublic, `{"question":"` + big + `"}`, "", nil, 400, "invalid", "question"},
		{"question is a number", keyPublic, `{"question":7}`, "", nil, 400, "invalid", "question"},
		{"question is an array", keyPublic, `{"question":["a"]}`, "", nil, 400, "invalid", "question"},
		{"max_attempts is a string", keyPublic, `{"question":"E4","max_attempts":"3"}`, "", nil, 400, "invalid", "max_attempts"},
		{"max_attempts fractional", keyPublic, `{"question":"E4","max_attempts":2.5}`, "", nil, 400, "invalid", "max_attempts"},
		{"max_attempts above the default", keyPublic, `{"question":"E4","max_attempts":4}`, "", nil, 400, "invalid", "max_attempts"},
		{"max_attempts zero", keyPublic, `{"question":"E4","max_attempts":0}`, "", nil, 400, "invalid", "max_attempts"},
		{"deadline_ms too short", keyPublic, `{"question":"E4","deadline_ms":5}`, "", nil, 400, "invalid", "deadline_ms"},
		{"deadline_ms above the default", keyPublic, `{"question":"E4","deadline_ms":600000}`, "", nil, 400, "invalid", "deadline_ms"},
		{"filters wrong type", keyPublic, `{"question":"E4","filters":"policy"}`, "", nil, 400, "invalid", "filters"},
		{"filters unknown field", keyPublic, `{"question":"E4","filters":{"groups":["staff"]}}`, "", nil, 400, "invalid", "filters.groups"},
		{"filters.types wrong type", keyPublic, `{"question":"E4","filters":{"types":"policy"}}`, "", nil, 400, "invalid", "filters.types"},
		{"filters bad status", keyPublic, `{"question":"E4","filters":{"statuses":["secret"]}}`, "", nil, 400, "invalid", "filters.statuses[0]"},
		{"unknown field (groups from the body)", keyPublic, `{"question":"E4","groups":["staff"]}`, "", nil, 400, "invalid", "groups"},
		{"unknown field (principal)", keyPublic, `{"question":"E4","principal":{"id":"x"}}`, "", nil, 400, "invalid", "principal"},
		{"invalid JSON", keyPublic, `{"question": "E4"`, "", nil, 400, "invalid", "body"},
		{"form body", keyPublic, `question=E4`, "", nil, 400, "invalid", "body"},
		{"empty body", keyPublic, ``, "", nil, 400, "invalid", "body"},
		{"JSON array", keyPublic, `[{"question":"E4"}]`, "", nil, 400, "invalid", "body"},
		{"trailing data", keyPublic, `{"question":"E4"} {"question":"E5"}`, "", nil, 400, "invalid", "body"},
		{"bad UTF-8", keyPublic, "{\"question\":\"E4 \xff\xfe\"}", "", nil, 400, "invalid", "body"},
		{"control character in question", keyPublic, `{"question":"E4\u001b[2J"}`, "", nil, 422, "refused", "question"},
		{"body over the limit", keyPublic, `{"question":"E4","idempotency_key":"` + strings.Repeat("k", 2<<20) + `"}`, "", nil, 413, "too_large", "body"},
		{"idempotency key too long", keyPublic, `{"question":"E4","idempotency_key":"` + strings.Repeat("k", 201) + `"}`, "", nil, 400, "invalid", "idempotency_key"},
		{"idempotency key with a space", keyPublic, `{"question":"E4","idempotency_key":"a b"}`, "", nil, 400, "invalid", "idempotency_key"},
		{"idempotency header disagrees", keyPublic, `{"question":"E4","idempotency_key":"a"}`, "", []string{"Idempotency-Key", "b"}, 400, "invalid", "idempotency_key"},
		{"wait not a duration", keyPublic, `{"question":"E4"}`, "?wait=soon", nil, 400, "invalid", "wait"},
		{"wait over max_wait", keyPublic, `{"question":"E4"}`, "?wait=10m", nil, 400, "invalid", "wait"},
		{"wait negative", keyPublic, `{"question":"E4"}`, "?wait=-1s", nil, 400, "invalid", "wait"},
		{"missing key", "", `{"question":"E4"}`, "", nil, 401, "unauthorized", "authorization"},
		{"unknown key", "not-a-key-we-issued", `{"question":"E4"}`, "", nil, 401, "unauthorized", "authorization"},
		{"malformed key (Basic)", "", `{"question":"E4"}`, "", []string{"Authorization", "Basic cmVhZGVyOnB3"}, 401, "unauthorized", "authorization"},
		{"malformed key (two words)", "", `{"question":"E4"}`, "", []string{"Authorization", "Bearer a b"}, 401, "unauthorized", "authorization"},
		{"malformed key (no key)", "", `{"question":"E4"}`, "", []string{"Authorization", "Bearer"}, 401, "unauthorized", "authorization"},
		{"malformed key (control byte)", "", `{"question":"E4"}`, "", []string{"Authorization", "Bearer ab\x7fcd"}, 401, "unauthorized", "authorization"},
		// Authentication comes first: a bad body with a bad key is a 401.
		{"bad body and missing key", "", `{`, "", nil, 401, "unauthorized", "authorization"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			r := h.call(http.MethodPost, "/v1/questions"+tt.query, tt.key, tt.body, tt.headers...)
			e := r.errorOf(t)
			if r.Status != tt.status || e.Code != tt.code || e.Field != tt.field {
				t.Errorf("POST %.80q = %d %s; want %d, code %s, field %q", tt.body, r.Status, r.Body, tt.status, tt.code, tt.field)
			}
			if e.Message == "" || e.RequestID == "" || e.RequestID != r.Header.Get(HeaderRequestID) {
				t.Errorf("error body %s lacks a message or the request id %s", r.Body, r.Header.Get(HeaderRequestID))
			}
			if tt.status == 401 && r.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("401 without WWW-Authenticate")
			}
			if h.eng.started != 0 {
				t.Errorf("a rejected request started %d run(s)", h.eng.started)
			}
		})
	}
}

func TestAskAndGet(t *testing.T) {
	h := newHarness(t)
	r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"how many years is the X300 Pro motor covered for","max_attempts":2,"deadline_ms":30000,"filters":{"statuses":["current"]}}`)
	if r.Status != http.StatusAccepted {
		t.Fatalf("POST = %d %s, want 202", r.Status, r.Body)
	}
	var acc api.Accepted
	r.decode(t, &acc)
	if r.Header.Get("Location") != "/v1/questions/"+acc.ID || r.Header.Get(HeaderPrincipal) != "reader" {
		t.Errorf("Location %q, principal %q", r.Header.Get("Location"), r.Header.Get(HeaderPrincipal))
	}
	in := h.eng.runs[acc.ID].in
	want := wire.AnswerInput{
		RequestID: acc.ID, Question: "how many years is the X300 Pro motor covered for",
		Principal: auth.Principal{ID: "reader", Groups: []string{"public"}},
		Budget:    wire.Budget{MaxAttempts: 2, Deadline: 30 * time.Second},
		Threshold: 0.5, TopK: 5, Revision: workflows.AnswerRevision,
	}
	want.Filters.Statuses = []corpus.Status{corpus.Current}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("workflow input (-want +got):\n%s", diff)
	}

	r = h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPublic, "")
	var q api.QuestionResponse
	r.decode(t, &q)
	if r.Status != 200 || q.Status != api.Completed || q.StopReason != wire.Answered || q.Answer == "" || q.Attempts != 1 || q.Usage == nil {
		t.Fatalf("GET = %d %s", r.Status, r.Body)
	}
	wantCite := []api.CitationResponse{{Label: "1", DocID: "pol-warranty-2026", Title: "Title of pol-warranty-2026", URL: "https://example.test/pol-warranty-2026"}}
	if diff := cmp.Diff(wantCite, q.Citations); diff != "" {
		t.Errorf("citations (-want +got):\n%s", diff)
	}
}

// TestPrincipalFromKeyOnly: the same question under two keys runs as two
// principals with the keys' groups, and sees different sources; neither
// can read the other's run.
func TestPrincipalFromKeyOnly(t *testing.T) {
	h := newHarness(t)
	ids := map[string]string{}
	for _, key := range []string{keyPartner, keyPublic} {
		r := h.call(http.MethodPost, "/v1/questions?wait=1s", key, `{"question":"E12 after reseating the seal"}`)
		var q api.QuestionResponse
		r.decode(t, &q)
		if r.Status != 200 {
			t.Fatalf("POST ?wait = %d %s", r.Status, r.Body)
		}
		ids[key] = q.ID
	}
	if got := h.eng.runs[ids[keyPartner]].in.Principal; !cmp.Equal(got, auth.Principal{ID: "brook-street", Groups: []string{"public", "partners", "partner:brook-street"}}) {
		t.Errorf("partner key ran as %+v", got)
	}
	if got := h.eng.runs[ids[keyPublic]].in.Principal; !cmp.Equal(got, auth.Principal{ID: "reader", Groups: []string{"public"}}) {
		t.Errorf("public key ran as %+v", got)
	}
	var a, b api.QuestionResponse
	h.call(http.MethodGet, "/v1/questions/"+ids[keyPartner], keyPartner, "").decode(t, &a)
	h.call(http.MethodGet, "/v1/questions/"+ids[keyPublic], keyPublic, "").decode(t, &b)
	if a.Citations[0].DocID == b.Citations[0].DocID {
		t.Errorf("both keys got %s; want different sources", a.Citations[0].DocID)
	}
	for _, path := range []string{"", "/trace", "/events"} {
		r := h.call(http.MethodGet, "/v1/questions/"+ids[keyPartner]+path, keyPublic, "")
		if r.Status != http.StatusNotFound {
			t.Errorf("GET another principal's question%s = %d %s, want 404", path, r.Status, r.Body)
		}
	}
	if r := h.call(http.MethodDelete, "/v1/questions/"+ids[keyPartner], keyPublic, ""); r.Status != http.StatusNotFound {
		t.Errorf("DELETE another principal's question = %d, want 404", r.Status)
	}
}

func TestAnonymousMode(t *testing.T) {
	empty, err := auth.NewKeyring(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *Options) { o.Keyring = empty })
	r := h.call(http.MethodPost, "/v1/questions", "", `{"question":"E4"}`)
	if r.Status != http.StatusAccepted || r.Header.Get(HeaderPrincipal) != auth.AnonymousID {
		t.Fatalf("anonymous POST = %d %s (principal %q)", r.Status, r.Body, r.Header.Get(HeaderPrincipal))
	}
	var acc api.Accepted
	r.decode(t, &acc)
	if got := h.eng.runs[acc.ID].in.Principal; !cmp.Equal(got, auth.Anonymous()) {
		t.Errorf("dev caller ran as %+v, want the anonymous principal", got)
	}
}

func TestRateLimit(t *testing.T) {
	h := newHarness(t)
	for i := range 2 {
		if r := h.call(http.MethodPost, "/v1/questions", keySlow, `{"question":"E4"}`); r.Status != http.StatusAccepted {
			t.Fatalf("request %d = %d %s", i+1, r.Status, r.Body)
		}
	}
	r := h.call(http.MethodPost, "/v1/questions", keySlow, `{"question":"E4"}`)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "30" || r.errorOf(t).Code != "rate_limited" {
		t.Errorf("third request = %d %s Retry-After %q; want 429, rate_limited, Retry-After 30", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	// Other keys have their own budget.
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`); r.Status != http.StatusAccepted {
		t.Errorf("another key = %d", r.Status)
	}
	h.mu.Lock()
	h.now = h.now.Add(30 * time.Second)
	h.mu.Unlock()
	if r := h.call(http.MethodPost, "/v1/questions", keySlow, `{"question":"E4"}`); r.Status != http.StatusAccepted {
		t.Errorf("after Retry-After = %d, want 202", r.Status)
	}
}

func TestIdempotency(t *testing.T) {
	h := newHarness(t)
	post := func(key, body string, headers ...string) (resp, api.Accepted) {
		r := h.call(http.MethodPost, "/v1/questions", key, body, headers...)
		var acc api.Accepted
		r.decode(t, &acc)
		return r, acc
	}
	_, first := post(keyPublic, `{"question":"E4","idempotency_key":"retry-1"}`)
	_, again := post(keyPublic, `{"question":"E4","idempotency_key":"retry-1"}`)
	_, header := post(keyPublic, `{"question":"E4"}`, "Idempotency-Key", "retry-1")
	if first.ID == "" || again.ID != first.ID || header.ID != first.ID {
		t.Errorf("ids %q, %q, %q; want one id for one key", first.ID, again.ID, header.ID)
	}
	if again.Status != api.Completed {
		t.Errorf("replayed POST status %q, want the run's status completed", again.Status)
	}
	_, other := post(keyPartner, `{"question":"E4","idempotency_key":"retry-1"}`)
	if other.ID == first.ID {
		t.Errorf("another principal's same key named the same run %s", other.ID)
	}
	if h.eng.started != 2 {
		t.Errorf("%d runs started, want 2 (one per principal)", h.eng.started)
	}
	for _, body := range []string{
		`{"question":"E5","idempotency_key":"retry-1"}`,
		`{"question":"E4","idempotency_key":"retry-1","max_attempts":2}`,
		`{"question":"E4","idempotency_key":"retry-1","deadline_ms":5000}`,
		`{"question":"E4","idempotency_key":"retry-1","filters":{"types":["policy"]}}`,
	} {
		r, _ := post(keyPublic, body)
		if e := r.errorOf(t); r.Status != http.StatusConflict || e.Field != "idempotency_key" {
			t.Errorf("same key, %s = %d %s, want 409 on idempotency_key", body, r.Status, r.Body)
		}
	}
	// Spelling the defaults out is the same run.
	if _, same := post(keyPublic, `{"question":"E4","idempotency_key":"retry-1","max_attempts":3}`); same.ID != first.ID {
		t.Errorf("same key with the default budget spelled out = %q, want the first run %q", same.ID, first.ID)
	}
	// Without a key, every POST is a new run.
	_, x := post(keyPublic, `{"question":"E4"}`)
	_, y := post(keyPublic, `{"question":"E4"}`)
	if x.ID == y.ID {
		t.Errorf("two POSTs without a key share id %s", x.ID)
	}
}

func TestWait(t *testing.T) {
	h := newHarness(t)
	r := h.call(http.MethodPost, "/v1/questions?wait=2s", keyPublic, `{"question":"what is the capital of Peru"}`)
	var q api.QuestionResponse
	r.decode(t, &q)
	if r.Status != 200 || q.Status != api.Completed || q.StopReason != wire.InsufficientContext || q.Answer != "" || len(q.Citations) != 0 {
		t.Errorf("?wait on a quick run = %d %s; want 200 with the insufficient_context result", r.Status, r.Body)
	}
	h.eng.hold = true
	start := time.Now()
	r = h.call(http.MethodPost, "/v1/questions?wait=100ms", keyPublic, `{"question":"E4"}`)
	var acc api.Accepted
	r.decode(t, &acc)
	if r.Status != http.StatusAccepted || acc.Status != api.Running || time.Since(start) < 100*time.Millisecond {
		t.Errorf("?wait=100ms on a held run = %d %s after %v; want 202 running after the wait", r.Status, r.Body, time.Since(start))
	}
}

// TestWaitBoundsStart: ?wait= bounds the whole request, so a slow start
// cannot stretch it.
func TestWaitBoundsStart(t *testing.T) {
	h := newHarness(t)
	h.eng.startDelay = 2 * time.Second
	start := time.Now()
	r := h.call(http.MethodPost, "/v1/questions?wait=100ms", keyPublic, `{"question":"E4"}`)
	took := time.Since(start)
	if took > time.Second {
		t.Errorf("?wait=100ms with a 2s start took %v", took)
	}
	if e := r.errorOf(t); r.Status != http.StatusGatewayTimeout || e.Field != "wait" {
		t.Errorf("?wait=100ms with a 2s start = %d %s, want 504 naming wait", r.Status, r.Body)
	}
}

func TestRunningQuestion(t *testing.T) {
	h := newHarness(t)
	h.eng.hold = true
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)

	var q api.QuestionResponse
	r := h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPublic, "")
	r.decode(t, &q)
	if q.Status != api.Running || q.Progress == nil || q.Progress.Stage != "assess" || q.StopReason != "" {
		t.Errorf("GET running = %s; want running with progress", r.Body)
	}
	var tr wire.Trace
	r = h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/trace", keyPublic, "")
	r.decode(t, &tr)
	if r.Status != 200 || tr.RequestID != acc.ID || tr.Question != "E4" {
		t.Errorf("GET trace of a running run = %d %s", r.Status, r.Body)
	}

	r = h.call(http.MethodDelete, "/v1/questions/"+acc.ID, keyPublic, "")
	if r.Status != http.StatusAccepted {
		t.Fatalf("DELETE = %d %s, want 202", r.Status, r.Body)
	}
	h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPublic, "").decode(t, &q)
	if q.Status != api.Completed || q.StopReason != wire.Cancelled {
		t.Errorf("after DELETE: %s/%s, want completed/cancelled", q.Status, q.StopReason)
	}
	r = h.call(http.MethodDelete, "/v1/questions/"+acc.ID, keyPublic, "")
	if r.Status != http.StatusConflict {
		t.Errorf("DELETE of an ended run = %d %s, want 409", r.Status, r.Body)
	}
}

func TestUnknownQuestion(t *testing.T) {
	h := newHarness(t)
	for _, path := range []string{
		"/v1/questions/0b0e2c5e-6a1b-4bb4-8d7c-111111111111",
		"/v1/questions/not%20an%20id",
		"/v1/questions/" + strings.Repeat("a", 201),
		"/v1/questions/0b0e2c5e-6a1b-4bb4-8d7c-111111111111/trace",
		"/v1/questions/0b0e2c5e-6a1b-4bb4-8d7c-111111111111/events",
		"/v1/batches/0b0e2c5e-6a1b-4bb4-8d7c-111111111111",
		"/v1/nothing",
	} {
		if r := h.call(http.MethodGet, path, keyPublic, ""); r.Status != http.StatusNotFound || r.errorOf(t).Code != "not_found" {
			t.Errorf("GET %s = %d %s, want 404 not_found", path, r.Status, r.Body)
		}
	}
	if r := h.call(http.MethodPut, "/v1/questions", keyPublic, `{}`); r.Status != http.StatusMethodNotAllowed {
		t.Errorf("PUT /v1/questions = %d, want 405", r.Status)
	}
	// A batch id is not a question, and the other way round.
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"}]}`).decode(t, &acc)
	if r := h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPublic, ""); r.Status != http.StatusNotFound {
		t.Errorf("GET /v1/questions/<batch id> = %d, want 404", r.Status)
	}
}

func TestTemporalDown(t *testing.T) {
	h := newHarness(t)
	h.eng.unavailable = true
	r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`)
	if e := r.errorOf(t); r.Status != http.StatusServiceUnavailable || e.Code != "unavailable" || strings.Contains(e.Message, "fake") {
		t.Errorf("POST with Temporal down = %d %s; want 503 unavailable without internals", r.Status, r.Body)
	}
	if got := r.Header.Get("Retry-After"); got == "" {
		t.Errorf("503 without Retry-After")
	}
}

func TestPanicIsJSON500(t *testing.T) {
	h := newHarness(t)
	h.eng.panicOnStart = true
	r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`)
	if r.Status != 500 || r.errorOf(t).Code != "internal" || !strings.Contains(h.log.String(), "panic in handler") {
		t.Errorf("panicking engine = %d %s; want a logged JSON 500", r.Status, r.Body)
	}
}

func TestRequestID(t *testing.T) {
	h := newHarness(t)
	r := h.call(http.MethodGet, "/healthz", "", "", HeaderRequestID, "client-id-42")
	if r.Header.Get(HeaderRequestID) != "client-id-42" {
		t.Errorf("request id %q, want the client's client-id-42", r.Header.Get(HeaderRequestID))
	}
	r = h.call(http.MethodGet, "/healthz", "", "", HeaderRequestID, "bad id with spaces\n")
	if got := r.Header.Get(HeaderRequestID); got == "" || strings.Contains(got, " ") {
		t.Errorf("malformed client id gave request id %q, want a fresh one", got)
	}
}

func TestAccessLog(t *testing.T) {
	h := newHarness(t)
	h.call(http.MethodPost, "/v1/questions", keyPartner, `{"question":"E4"}`, HeaderRequestID, "log-me-1")
	var line map[string]any
	for l := range strings.SplitSeq(strings.TrimSpace(h.log.String()), "\n") {
		if strings.Contains(l, "log-me-1") {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string]any{"msg": "http", "request_id": "log-me-1", "method": "POST", "route": "/v1/questions", "status": 202.0, "principal": "brook-street"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("access log %s = %v, want %v (line %v)", k, line[k], v, line)
		}
	}
	if id, _ := line["run"].(string); id == "" {
		t.Errorf("access log has no run id: %v", line)
	}
}

func TestMetrics(t *testing.T) {
	h := newHarness(t)
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`)
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{}`)
	h.call(http.MethodGet, "/v1/questions/0b0e2c5e-6a1b-4bb4-8d7c-111111111111", keyPublic, "")
	r := h.call(http.MethodGet, "/metrics", keyPublic, "")
	body := string(r.Body)
	for _, want := range []string{
		`assay_http_requests_total{code="202",method="POST",route="/v1/questions"} 1`,
		`assay_http_requests_total{code="400",method="POST",route="/v1/questions"} 1`,
		`assay_http_requests_total{code="404",method="GET",route="/v1/questions/:id"} 1`,
		`assay_http_request_duration_seconds_count{method="POST",route="/v1/questions"} 2`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func TestReadyz(t *testing.T) {
	fail := false
	h := newHarness(t, func(o *Options) {
		o.Ready = []Check{
			{Name: "temporal", Check: func(context.Context) error { return nil }},
			{Name: "index", Check: func(context.Context) error {
				if fail {
					return fmt.Errorf("dial tcp 10.1.2.3:6379: connection refused (/srv/assay/index)")
				}
				return nil
			}},
		}
	})
	var rd api.Readiness
	r := h.call(http.MethodGet, "/readyz", "", "")
	r.decode(t, &rd)
	if r.Status != 200 || rd.Status != "ready" || rd.Checks["temporal"] != "ok" || rd.Checks["index"] != "ok" {
		t.Errorf("readyz = %d %s", r.Status, r.Body)
	}
	fail = true
	h.mu.Lock()
	h.now = h.now.Add(readyCacheFor) // past the cache
	h.mu.Unlock()
	r = h.call(http.MethodGet, "/readyz", "", "")
	r.decode(t, &rd)
	if r.Status != 503 || rd.Status != "not_ready" || rd.Checks["index"] != "fail" || rd.Checks["temporal"] != "ok" {
		t.Errorf("readyz with a failing check = %d %s; want index: fail", r.Status, r.Body)
	}
	// /readyz needs no key: the error's text (hosts, paths) stays in the log.
	if strings.Contains(string(r.Body), "10.1.2.3") || strings.Contains(string(r.Body), "/srv/") {
		t.Errorf("readyz shows a check's error text to anyone: %s", r.Body)
	}
	if r.Header.Get("Retry-After") == "" {
		t.Errorf("readyz 503 without Retry-After")
	}
	if r := h.call(http.MethodGet, "/healthz", "", ""); r.Status != 200 {
		t.Errorf("healthz = %d", r.Status)
	}
}

func TestCursor(t *testing.T) {
	for _, n := range []int{0, 1, 50, 123456} {
		got, err := decodeCursor(encodeCursor(n))
		if err != nil || got != n {
			t.Errorf("decodeCursor(encodeCursor(%d)) = %d, %v", n, got, err)
		}
	}
	for _, bad := range []string{"x", "eDE", "bzE!", encodeCursor(-1), "b-1"} {
		if _, err := decodeCursor(bad); err == nil {
			t.Errorf("decodeCursor(%q) accepted", bad)
		}
	}
}

func TestNoPrincipalGroupsInRequestTypes(t *testing.T) {
	// Groups come only from keys: no request type may carry them.
	for _, v := range []any{api.QuestionRequest{}, api.BatchRequest{}, api.BatchQuestion{}, api.Filters{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			tag := strings.ToLower(typ.Field(i).Tag.Get("json"))
			for _, banned := range []string{"group", "principal", "acl"} {
				if strings.Contains(tag, banned) {
					t.Errorf("%s.%s has JSON tag %q", typ.Name(), typ.Field(i).Name, tag)
				}
			}
		}
	}
}

// TestMetricMethodIsBounded: arbitrary method tokens share one label.
func TestMetricMethodIsBounded(t *testing.T) {
	for m, want := range map[string]string{"GET": "GET", "DELETE": "DELETE", "M123": "other", strings.Repeat("X", 5000): "other"} {
		if got := metricMethod(m); got != want {
			t.Errorf("metricMethod(%.10q) = %q, want %q", m, got, want)
		}
	}
}

// TestTrustedProxies: the logged client address comes from
// X-Forwarded-For only when the peer is a configured proxy.
func TestTrustedProxies(t *testing.T) {
	for _, tt := range []struct {
		name    string
		proxies []string
		want    string
	}{
		{"none trusted", nil, `"client":"192.0.2.1"`},
		{"peer trusted", []string{"192.0.2.0/24"}, `"client":"203.0.113.9"`},
		{"other proxy trusted", []string{"10.0.0.1"}, `"client":"192.0.2.1"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(o *Options) { o.TrustedProxies = tt.proxies })
			// httptest requests come from 192.0.2.1.
			h.call(http.MethodGet, "/healthz", "", "", "X-Forwarded-For", "203.0.113.9", "X-Real-IP", "203.0.113.9")
			if !strings.Contains(h.log.String(), tt.want) {
				t.Errorf("access log %s lacks %s", h.log.String(), tt.want)
			}
		})
	}
	if _, err := New(Options{Engine: newFakeEngine(), Keyring: testKeyring(t), TrustedProxies: []string{"not-an-ip"}}); err == nil {
		t.Error("New accepted a trusted proxy that is not an IP or CIDR")
	}
	if _, err := New(Options{Engine: newFakeEngine()}); err == nil {
		t.Error("New without a keyring serves everyone anonymously; want an error")
	}
}
