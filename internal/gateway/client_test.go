package gateway

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/wire"
)

// TestClient drives the real handlers over HTTP with the Go client
// (package apiclient).
func TestClient(t *testing.T) {
	h := newHarness(t)
	srv := httptest.NewServer(h.srv.Handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := &apiclient.Client{BaseURL: srv.URL, APIKey: keyPartner}

	q, err := c.Ask(ctx, api.QuestionRequest{Question: "E12"}, 2*time.Second)
	if err != nil || q.Status != api.Completed || q.Citations[0].DocID != "sb-112" {
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
	var apiErr *apiclient.APIError
	if err := c.Cancel(ctx, q.ID); !errors.As(err, &apiErr) || apiErr.Status != 409 || apiErr.RequestID == "" {
		t.Errorf("Cancel of an ended run = %v, want a 409 apiclient.APIError with a request id", err)
	}
	if _, err := (&apiclient.Client{BaseURL: srv.URL}).Get(ctx, q.ID); !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Field != "authorization" {
		t.Errorf("Get without a key = %v, want 401 on authorization", err)
	}

	id, err := c.SubmitBatchJSONL(ctx, strings.NewReader("{\"id\":\"x\",\"question\":\"E4\"}\n{\"id\":\"y\",\"question\":\"Peru\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.GetBatch(ctx, id)
	if err != nil || b.Status != api.Completed || b.Aggregate.Done != 2 {
		t.Errorf("GetBatch = %+v, %v", b, err)
	}
	items, err := c.AllBatchResults(ctx, id)
	if err != nil || len(items) != 2 || items[1].StopReason != wire.InsufficientContext {
		t.Errorf("AllBatchResults = %+v, %v", items, err)
	}
}

// TestClientRateLimited: the gateway's 429 reaches the client as an
// APIError with the Retry-After the rate limiter set.
func TestClientRateLimited(t *testing.T) {
	h := newHarness(t)
	srv := httptest.NewServer(h.srv.Handler())
	defer srv.Close()
	c := &apiclient.Client{BaseURL: srv.URL, APIKey: keySlow}
	ctx := context.Background()
	var err error
	for range 3 {
		_, err = c.Submit(ctx, api.QuestionRequest{Question: "E4"})
	}
	var apiErr *apiclient.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.RetryAfter != 30*time.Second {
		t.Errorf("third Submit = %v, want 429 with RetryAfter 30s", err)
	}
}
