package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/wire"
)

func readAll(t *testing.T, in string) []StreamEvent {
	t.Helper()
	var out []StreamEvent
	if err := ReadSSE(strings.NewReader(in), func(e StreamEvent) error {
		out = append(out, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFollowResumes drops the stream after two events; Follow reconnects
// with Last-Event-ID and gets the rest.
func TestFollowResumes(t *testing.T) {
	var mu sync.Mutex
	var lastIDs []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		lastIDs = append(lastIDs, r.Header.Get("Last-Event-ID"))
		n := len(lastIDs)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if n == 1 {
			fmt.Fprint(w, "id: 5\nevent: stage\ndata: {\"stage\":\"search\",\"attempt\":1}\n\n")
			fmt.Fprint(w, "id: 11\nevent: stage\ndata: {\"stage\":\"assess\",\"attempt\":1}\n\n")
			return // the connection drops
		}
		fmt.Fprint(w, "id: 29\nevent: stage\ndata: {\"stage\":\"generate\",\"attempt\":1}\n\n")
		fmt.Fprint(w, "id: 35\nevent: result\ndata: {\"id\":\"q\",\"status\":\"completed\",\"stop_reason\":\"answered\",\"answer\":\"A.\",\"citations\":[]}\n\n")
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL}
	var stages []string
	q, err := c.Follow(context.Background(), "q", func(s api.StageEvent) { stages = append(stages, s.Stage) })
	if err != nil {
		t.Fatal(err)
	}
	if q.Answer != "A." || q.StopReason != wire.Answered {
		t.Errorf("Follow = %+v", q)
	}
	if diff := cmp.Diff([]string{"search", "assess", "generate"}, stages); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", "11"}, lastIDs); diff != "" {
		t.Errorf("Last-Event-ID per connection (-want +got):\n%s", diff)
	}
}

func TestReadSSE(t *testing.T) {
	in := ": comment\n\nid: 1\nevent: stage\ndata: {\"a\":1}\n\nretry: 10\n\ndata: line1\ndata: line2\n\nid: 3\nevent: result\ndata:{}\n\n"
	want := []StreamEvent{
		{ID: "1", Type: "stage", Data: []byte(`{"a":1}`)},
		{Type: "message", Data: []byte("line1\nline2")},
		{ID: "3", Type: "result", Data: []byte("{}")},
	}
	if diff := cmp.Diff(want, readAll(t, in)); diff != "" {
		t.Errorf("ReadSSE (-want +got):\n%s", diff)
	}
}

// TestAPIErrorRetryAfter: a non-2xx answer becomes an APIError carrying
// the error body's fields and, on 429, the Retry-After delay.
func TestAPIErrorRetryAfter(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer k" {
			t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"code":"rate_limited","message":"slow down","request_id":"r1"}}`)
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, APIKey: "k"}
	_, err := c.Submit(context.Background(), api.QuestionRequest{Question: "E4"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("Submit = %v, want an APIError", err)
	}
	want := APIError{Status: 429, Code: "rate_limited", Message: "slow down", RequestID: "r1", RetryAfter: 30 * time.Second}
	if diff := cmp.Diff(want, *apiErr); diff != "" {
		t.Errorf("APIError (-want +got):\n%s", diff)
	}
}

// TestFollowStopsOnClientErrors: a 4xx other than 429 is final; Follow
// does not retry it.
func TestFollowStopsOnClientErrors(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"code":"not_found","message":"no question"}}`)
	}))
	defer srv.Close()
	_, err := (&Client{BaseURL: srv.URL}).Follow(context.Background(), "q", nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Errorf("Follow = %v, want the 404", err)
	}
	if calls != 1 {
		t.Errorf("%d requests, want 1", calls)
	}
}
