package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client talks to an assay gateway over HTTP.
type Client struct {
	BaseURL string // e.g. http://127.0.0.1:8080
	APIKey  string // optional bearer key
	HTTP    *http.Client
}

// APIError is a non-2xx answer from the gateway.
type APIError struct {
	Status  int
	Code    string
	Field   string
	Message string
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("gateway answered %d %s", e.Status, e.Code)
	if e.Field != "" {
		msg += " (field " + e.Field + ")"
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 30 * time.Second}
}

func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		var eb errorBody
		_ = json.Unmarshal(data, &eb)
		return &APIError{Status: resp.StatusCode, Code: eb.Error.Code, Field: eb.Error.Field, Message: eb.Error.Message}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("gateway answer is not the expected JSON: %w", err)
	}
	return nil
}

// Submit posts a question and returns its id.
func (c *Client) Submit(ctx context.Context, req QuestionRequest) (string, error) {
	var out struct {
		ID string `json:"id"`
	}
	if err := c.do(ctx, http.MethodPost, "/v1/questions", req, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// Get fetches a question's current state.
func (c *Client) Get(ctx context.Context, id string) (QuestionResponse, error) {
	var out QuestionResponse
	err := c.do(ctx, http.MethodGet, "/v1/questions/"+id, nil, &out)
	return out, err
}

// Wait polls until the question is no longer running or ctx ends. progress,
// if not nil, is called with every state seen.
func (c *Client) Wait(ctx context.Context, id string, every time.Duration, progress func(QuestionResponse)) (QuestionResponse, error) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		q, err := c.Get(ctx, id)
		if err != nil {
			return q, err
		}
		if progress != nil {
			progress(q)
		}
		if q.Status != Running {
			return q, nil
		}
		select {
		case <-ctx.Done():
			return q, ctx.Err()
		case <-t.C:
		}
	}
}
