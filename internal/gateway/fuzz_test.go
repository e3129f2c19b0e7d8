package gateway

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// fuzzServer is a gateway over a fake engine that ends every run at once,
// for fuzzing request decoding end to end.
func fuzzServer(f *testing.F) *Server {
	srv, err := New(Options{
		Engine:  newFakeEngine(),
		Keyring: testKeyring(f),
		Template: wire.AnswerInput{
			Budget:    wire.Budget{MaxAttempts: 3, Deadline: 2 * time.Minute},
			Threshold: 0.5, TopK: 5,
		},
		Batch:        BatchLimits{Concurrency: 4, ContinueAfter: 500, MaxQuestions: 10},
		MaxBodyBytes: 64 << 10,
		MaxWait:      time.Second,
		Logger:       slog.New(slog.DiscardHandler),
		Heartbeat:    time.Hour,
	})
	if err != nil {
		f.Fatal(err)
	}
	return srv
}

// fuzzPost sends body to path and checks what every answer to bad input
// promises: never a 5xx, always a JSON body, and an error naming its code
// (and for 400, the field).
func fuzzPost(t *testing.T, srv *Server, path, contentType string, body []byte) {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+keyPublic)
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("POST %s %q = %d %s: a 5xx for client input", path, body, rec.Code, rec.Body)
	}
	if !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("POST %s %q = %d with a body that is not JSON: %q", path, body, rec.Code, rec.Body)
	}
	if rec.Code >= 400 {
		var eb api.ErrorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &eb); err != nil || eb.Error.Code == "" || eb.Error.Message == "" {
			t.Fatalf("POST %s %q = %d %s: want an error with a code and a message", path, body, rec.Code, rec.Body)
		}
		if rec.Code == http.StatusBadRequest && eb.Error.Field == "" {
			t.Fatalf("POST %s %q = 400 %s: want the field named", path, body, rec.Body)
		}
	}
}

// FuzzPostQuestion: the JSON decoding and validation of POST
// /v1/questions. Seeds: testdata/fuzz/FuzzPostQuestion and below.
func FuzzPostQuestion(f *testing.F) {
	for _, s := range []string{
		`{"question":"E4"}`, `{"question":"E4","max_attempts":2,"deadline_ms":5000,"filters":{"types":["policy"],"statuses":["current"]}}`,
		`{"question":"E4","idempotency_key":"k-1"}`, `{"question":""}`, `{"question":["a"]}`, `{"question":"E4","groups":["staff"]}`,
		`{"question":"E4","filters":{"statuses":["secret"]}}`, `{"question":"E4\u001b[2J"}`, `{"question":"E4"} {}`, `[]`, `null`, ``,
		"{\"question\":\"\xff\"}", `{"question":"E4","max_attempts":1e400}`, `{"question":"E4","filters":null}`,
	} {
		f.Add([]byte(s))
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzPost(t, srv, "/v1/questions", "application/json", body)
		var req api.QuestionRequest
		if err := api.StrictDecode(body, &req); err != nil && (errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) == "") {
			t.Fatalf("api.StrictDecode(%q) = %v: want an invalid error naming the field", body, err)
		}
	})
}

// FuzzPostBatch: the JSON and JSON Lines decoding of POST /v1/batches.
func FuzzPostBatch(f *testing.F) {
	for _, s := range []string{
		`{"questions":[{"id":"q1","question":"E4"},{"question":"E7"}]}`, `{"questions":[]}`, `{"questions":[{"id":"a","question":"x"},{"id":"a","question":"y"}]}`,
		`{"questions":[{"question":"E4","groups":["staff"]}]}`, `{"questions":"E4"}`, `{"questions":[1]}`,
	} {
		f.Add([]byte(s), false)
	}
	for _, s := range []string{
		"{\"id\":\"q1\",\"question\":\"E4\"}\n\n{\"id\":\"q2\",\"question\":\"E7\"}\r\n", "{\"question\":\"E4\"}\n{", "\n\n", "{\"question\":\"E4\",\"x\":1}",
	} {
		f.Add([]byte(s), true)
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte, jsonl bool) {
		ct := "application/json"
		if jsonl {
			ct = "application/jsonl"
			qs, err := decodeJSONL(body)
			if err != nil && (errs.KindOf(err) != errs.Invalid || !strings.HasPrefix(errs.FieldOf(err), "questions") && errs.FieldOf(err) != "body") {
				t.Fatalf("decodeJSONL(%q) = %v: want an invalid error on questions[i] or body", body, err)
			}
			if err != nil && qs != nil {
				t.Fatalf("decodeJSONL(%q) returned questions with an error", body)
			}
		}
		fuzzPost(t, srv, "/v1/batches", ct, body)
	})
}
