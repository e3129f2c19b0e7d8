package gateway

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

	"github.com/assay-rag/assay/internal/wire"
)

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
	q, err := c.Follow(context.Background(), "q", func(s StageEvent) { stages = append(stages, s.Stage) })
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

// TestClient drives the real handlers over HTTP with the Go client.
func TestClient(t *testing.T) {
	h := newHarness(t)
	srv := httptest.NewServer(h.srv.Handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := &Client{BaseURL: srv.URL, APIKey: keyPartner}

	q, err := c.Ask(ctx, QuestionRequest{Question: "E12"}, 2*time.Second)
	if err != nil || q.Status != Completed || q.Citations[0].DocID != "sb-112" {
		t.Fatalf("Ask = %+v, %v", q, err)
	}
	got, err := c.Follow(ctx, q.ID, nil)
	if err != nil || got.Answer != q.Answer {
		t.Errorf("Follow = %+v, %v; want the answer of Ask", got, err)
	}
	tr, err := c.Trace(ctx, q.ID)
	if err != nil || tr.PrincipalID != "brook-street" {
		t.Errorf("Trace = %+v, %v", tr, err)
	}
	var apiErr *APIError
	if err := c.Cancel(ctx, q.ID); !errors.As(err, &apiErr) || apiErr.Status != 409 || apiErr.RequestID == "" {
		t.Errorf("Cancel of an ended run = %v, want a 409 APIError with a request id", err)
	}
	if _, err := (&Client{BaseURL: srv.URL}).Get(ctx, q.ID); !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Field != "authorization" {
		t.Errorf("Get without a key = %v, want 401 on authorization", err)
	}

	id, err := c.SubmitBatchJSONL(ctx, strings.NewReader("{\"id\":\"x\",\"question\":\"E4\"}\n{\"id\":\"y\",\"question\":\"Peru\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.GetBatch(ctx, id)
	if err != nil || b.Status != Completed || b.Aggregate.Done != 2 {
		t.Errorf("GetBatch = %+v, %v", b, err)
	}
	items, err := c.AllBatchResults(ctx, id)
	if err != nil || len(items) != 2 || items[1].StopReason != wire.InsufficientContext {
		t.Errorf("AllBatchResults = %+v, %v", items, err)
	}
}

func TestAPIErrorRetryAfter(t *testing.T) {
	h := newHarness(t)
	srv := httptest.NewServer(h.srv.Handler())
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, APIKey: keySlow}
	ctx := context.Background()
	var err error
	for range 3 {
		_, err = c.Submit(ctx, QuestionRequest{Question: "E4"})
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.RetryAfter != 30*time.Second {
		t.Errorf("third Submit = %v, want 429 with RetryAfter 30s", err)
	}
}
