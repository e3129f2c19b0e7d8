package gateway

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

func TestBatchJSON(t *testing.T) {
	h := newHarness(t)
	r := h.call(http.MethodPost, "/v1/batches", keyPartner,
		`{"questions":[{"id":"a","question":"E12 after reseating"},{"question":"capital of Peru"},{"id":"c","question":"E4"}],"max_attempts":2}`)
	if r.Status != http.StatusAccepted {
		t.Fatalf("POST /v1/batches = %d %s", r.Status, r.Body)
	}
	var acc api.Accepted
	r.decode(t, &acc)
	if r.Header.Get("Location") != "/v1/batches/"+acc.ID {
		t.Errorf("Location = %q", r.Header.Get("Location"))
	}
	in := h.eng.runs[acc.ID].batch
	if !cmp.Equal(in.Principal, auth.Principal{ID: "brook-street", Groups: []string{"public", "partners", "partner:brook-street"}}) {
		t.Errorf("batch principal %+v, want the key's", in.Principal)
	}
	wantQs := []workflows.BatchQuestion{{ID: "a", Question: "E12 after reseating"}, {ID: "2", Question: "capital of Peru"}, {ID: "c", Question: "E4"}}
	if diff := cmp.Diff(wantQs, in.Questions); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	if in.Template.Budget.MaxAttempts != 2 || in.Concurrency != 4 || in.ContinueAfter != 500 {
		t.Errorf("batch input %+v does not carry the request's budget and the configured limits", in)
	}

	var b api.BatchResponse
	r = h.call(http.MethodGet, "/v1/batches/"+acc.ID, keyPartner, "")
	r.decode(t, &b)
	if b.Status != api.Completed || b.Aggregate == nil || b.Aggregate.Done != 3 ||
		b.Aggregate.StopReasons[wire.Answered] != 2 || b.Aggregate.StopReasons[wire.InsufficientContext] != 1 {
		t.Errorf("GET batch = %s", r.Body)
	}
	if r := h.call(http.MethodGet, "/v1/batches/"+acc.ID, keyPublic, ""); r.Status != http.StatusNotFound {
		t.Errorf("another principal's batch = %d, want 404", r.Status)
	}
}

func TestBatchJSONL(t *testing.T) {
	h := newHarness(t)
	body := "{\"id\":\"q1\",\"question\":\"E4\"}\n\n{\"id\":\"q2\",\"question\":\"E7\"}\r\n"
	r := h.call(http.MethodPost, "/v1/batches", keyPublic, body, "Content-Type", "application/jsonl", "Idempotency-Key", "nightly-1")
	if r.Status != http.StatusAccepted {
		t.Fatalf("POST JSONL = %d %s", r.Status, r.Body)
	}
	var acc, again api.Accepted
	r.decode(t, &acc)
	h.call(http.MethodPost, "/v1/batches", keyPublic, body, "Content-Type", "application/x-ndjson", "Idempotency-Key", "nightly-1").decode(t, &again)
	if again.ID != acc.ID || h.eng.started != 1 {
		t.Errorf("same idempotency key: ids %s, %s and %d batches started; want one", acc.ID, again.ID, h.eng.started)
	}
	if got := len(h.eng.runs[acc.ID].batch.Questions); got != 2 {
		t.Errorf("%d questions, want 2", got)
	}
	other := "{\"id\":\"q1\",\"question\":\"E12\"}\n"
	r = h.call(http.MethodPost, "/v1/batches", keyPublic, other, "Content-Type", "application/jsonl", "Idempotency-Key", "nightly-1")
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), `"field":"idempotency_key"`) {
		t.Errorf("same key, other questions = %d %s; want 409 naming idempotency_key", r.Status, r.Body)
	}
	// The same questions with another budget or filters are another batch.
	for _, extra := range []string{`"max_attempts":1`, `"filters":{"products":["X200"]}`} {
		body := `{"questions":[{"id":"q1","question":"E4"},{"id":"q2","question":"E7"}],` + extra + `}`
		r = h.call(http.MethodPost, "/v1/batches", keyPublic, body, "Idempotency-Key", "nightly-1")
		if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), `"field":"idempotency_key"`) {
			t.Errorf("same key, same questions, %s = %d %s; want 409 naming idempotency_key", extra, r.Status, r.Body)
		}
	}
}

func TestBatchBadInput(t *testing.T) {
	tests := []struct {
		name, contentType, body string
		field                   string
	}{
		{"no questions", "", `{"questions":[]}`, "questions"},
		{"missing questions", "", `{}`, "questions"},
		{"questions not an array", "", `{"questions":"E4"}`, "questions"},
		{"question missing", "", `{"questions":[{"id":"a","question":"E4"},{"id":"b"}]}`, "questions[1].question"},
		{"question wrong type", "", `{"questions":[{"question":"E4"},{"question":5}]}`, "questions[1].question"},
		{"unknown field in a question", "", `{"questions":[{"question":"E4","groups":["staff"]}]}`, "questions[0].groups"},
		{"unknown top-level field", "", `{"questions":[{"question":"E4"}],"principal":"x"}`, "principal"},
		{"question too long", "", `{"questions":[{"question":"` + strings.Repeat("x", 3000) + `"}]}`, "questions[0].question"},
		{"duplicate ids", "", `{"questions":[{"id":"a","question":"E4"},{"id":"a","question":"E5"}]}`, "questions[1].id"},
		{"id too long", "", `{"questions":[{"id":"` + strings.Repeat("i", 201) + `","question":"E4"}]}`, "questions[0].id"},
		{"too many questions", "", `{"questions":[` + strings.TrimSuffix(strings.Repeat(`{"question":"E4"},`, 11), ",") + `]}`, "questions"},
		{"bad max_attempts", "", `{"questions":[{"question":"E4"}],"max_attempts":9}`, "max_attempts"},
		{"invalid JSON", "", `{"questions":[`, "body"},
		{"JSONL bad line", "application/jsonl", "{\"question\":\"E4\"}\n{\"question\":\n", "questions[1]"},
		{"JSONL unknown field", "application/jsonl", "{\"question\":\"E4\",\"answer\":\"x\"}\n", "questions[0].answer"},
		{"JSONL empty", "application/jsonl", "\n\n", "questions"},
		{"JSONL bad UTF-8", "application/jsonl", "{\"question\":\"\xff\"}\n", "body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			var headers []string
			if tt.contentType != "" {
				headers = []string{"Content-Type", tt.contentType}
			}
			r := h.call(http.MethodPost, "/v1/batches", keyPublic, tt.body, headers...)
			if e := r.errorOf(t); r.Status != 400 || e.Field != tt.field {
				t.Errorf("POST %.60q = %d %s; want 400 on field %q", tt.body, r.Status, r.Body, tt.field)
			}
			if h.eng.started != 0 {
				t.Errorf("a rejected batch started")
			}
		})
	}
	h := newHarness(t)
	r := h.call(http.MethodPost, "/v1/batches", keyPublic, "{\"question\":\"E4\"}\n{\"question\":\n", "Content-Type", "application/jsonl")
	if !strings.Contains(r.errorOf(t).Message, "line 2") {
		t.Errorf("JSONL error %s does not name the line", r.Body)
	}
}

func TestBatchResultsPages(t *testing.T) {
	h := newHarness(t)
	h.srv.opts.Batch.MaxQuestions = 200
	var qs []string
	for i := range 120 {
		qs = append(qs, fmt.Sprintf(`{"id":"c%d","question":"question %d"}`, i, i))
	}
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[`+strings.Join(qs, ",")+`]}`).decode(t, &acc)

	var all []api.BatchResultItem
	cursor, pages := "", 0
	for {
		path := "/v1/batches/" + acc.ID + "/results?limit=50"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		var page api.BatchResults
		r := h.call(http.MethodGet, path, keyPublic, "")
		if r.Status != 200 {
			t.Fatalf("GET %s = %d %s", path, r.Status, r.Body)
		}
		r.decode(t, &page)
		all = append(all, page.Items...)
		pages++
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	if pages != 3 || len(all) != 120 {
		t.Fatalf("%d pages, %d items; want 3 pages of 120 items", pages, len(all))
	}
	for i, it := range all {
		if it.ID != fmt.Sprintf("c%d", i) || it.Status != wire.ItemDone || it.StopReason != wire.Answered || it.Answer == "" || len(it.Citations) != 1 {
			t.Errorf("item %d = %+v; want c%d answered with its answer and citation", i, it, i)
			break
		}
	}
	for _, q := range []string{"?cursor=nope", "?limit=0", "?limit=201", "?limit=x"} {
		if r := h.call(http.MethodGet, "/v1/batches/"+acc.ID+"/results"+q, keyPublic, ""); r.Status != 400 {
			t.Errorf("results%s = %d, want 400", q, r.Status)
		}
	}
}

func TestBatchRunningAndCancel(t *testing.T) {
	h := newHarness(t)
	h.eng.hold = true
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"},{"question":"E5"}]}`).decode(t, &acc)
	var b api.BatchResponse
	h.call(http.MethodGet, "/v1/batches/"+acc.ID, keyPublic, "").decode(t, &b)
	if b.Status != api.Running || b.Aggregate == nil || b.Aggregate.Total != 2 {
		t.Errorf("running batch = %+v", b)
	}
	var page api.BatchResults
	h.call(http.MethodGet, "/v1/batches/"+acc.ID+"/results", keyPublic, "").decode(t, &page)
	if len(page.Items) != 2 || page.NextCursor != "" {
		t.Errorf("results of a running batch = %+v", page)
	}
	if r := h.call(http.MethodDelete, "/v1/batches/"+acc.ID, keyPublic, ""); r.Status != http.StatusAccepted {
		t.Errorf("DELETE running batch = %d %s", r.Status, r.Body)
	}
}

// TestBatchCannotSetPrincipal: workflows.BatchQuestion has a principal
// override for trusted Temporal clients (the evaluator). The API must
// never let a caller reach it: a question naming a principal is rejected
// in JSON and JSONL, and an accepted batch runs every question as the
// key's principal, with no override.
func TestBatchCannotSetPrincipal(t *testing.T) {
	bodies := []struct{ name, contentType, body string }{
		{"JSON", "", `{"questions":[{"question":"E4","principal":{"id":"x","groups":["staff"]}}]}`},
		{"JSONL", "application/jsonl", `{"question":"E4","principal":{"id":"x","groups":["staff"]}}` + "\n"},
	}
	for _, b := range bodies {
		t.Run(b.name, func(t *testing.T) {
			h := newHarness(t)
			var headers []string
			if b.contentType != "" {
				headers = []string{"Content-Type", b.contentType}
			}
			r := h.call(http.MethodPost, "/v1/batches", keyPublic, b.body, headers...)
			if e := r.errorOf(t); r.Status != http.StatusBadRequest || e.Field != "questions[0].principal" {
				t.Errorf("POST with a question principal = %d %s; want 400 on questions[0].principal", r.Status, r.Body)
			}
			if h.eng.started != 0 {
				t.Errorf("a batch with a question principal started")
			}
		})
	}
	h := newHarness(t)
	r := h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"},{"question":"E7"}]}`)
	var acc api.Accepted
	r.decode(t, &acc)
	for i, q := range h.eng.runs[acc.ID].batch.Questions {
		if q.Principal != nil {
			t.Errorf("gateway batch question %d carries a principal override %+v; it must leave it nil", i, *q.Principal)
		}
	}
}
