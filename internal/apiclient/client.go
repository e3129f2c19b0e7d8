// Package apiclient is a Go client of assay's HTTP API (package gateway):
// submit and cancel questions and batches, read results and traces, and
// follow a question's Server-Sent Events, resuming a dropped stream. It
// sends and reads the bodies of package api and imports nothing of the
// server, so a client (the assay ask, batch and bench commands) builds
// without it.
package apiclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/wire"
)

// Client talks to an assay gateway over HTTP.
type Client struct {
	BaseURL string // e.g. http://127.0.0.1:8080
	APIKey  string // optional bearer key
	// HTTP, when set, makes every call, event streams included; give it
	// no Timeout if you follow streams. When nil, calls time out after
	// 30s and streams last as long as their context.
	HTTP *http.Client
}

// APIError is a non-2xx answer from the gateway.
type APIError struct {
	Status     int
	Code       string
	Field      string
	Message    string
	RequestID  string
	RetryAfter time.Duration // from Retry-After on 429
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

func (c *Client) httpClient(stream bool) *http.Client {
	switch {
	case c.HTTP != nil:
		return c.HTTP
	case stream:
		return &http.Client{}
	}
	return &http.Client{Timeout: 30 * time.Second}
}

func (c *Client) newRequest(ctx context.Context, method, path string, body io.Reader, contentType string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, body)
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	return req, nil
}

// do sends a JSON body (when not nil) and decodes a 2xx JSON answer into
// out (when not nil).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	ct := ""
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd, ct = bytes.NewReader(b), "application/json"
	}
	return c.send(ctx, method, path, rd, ct, out)
}

func (c *Client) send(ctx context.Context, method, path string, body io.Reader, contentType string, out any) error {
	req, err := c.newRequest(ctx, method, path, body, contentType)
	if err != nil {
		return err
	}
	resp, err := c.httpClient(false).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return apiErrorOf(resp, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("gateway answer is not the expected JSON: %w", err)
	}
	return nil
}

func apiErrorOf(resp *http.Response, data []byte) *APIError {
	var eb api.ErrorBody
	_ = json.Unmarshal(data, &eb)
	e := &APIError{Status: resp.StatusCode, Code: eb.Error.Code, Field: eb.Error.Field, Message: eb.Error.Message, RequestID: eb.Error.RequestID}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}

// Submit posts a question and returns its id.
func (c *Client) Submit(ctx context.Context, req api.QuestionRequest) (string, error) {
	var out api.Accepted
	if err := c.do(ctx, http.MethodPost, "/v1/questions", req, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// Ask posts a question and waits up to wait for its result. The answer's
// Status is Running when the run had not ended by then.
func (c *Client) Ask(ctx context.Context, req api.QuestionRequest, wait time.Duration) (api.QuestionResponse, error) {
	var out api.QuestionResponse
	err := c.do(ctx, http.MethodPost, "/v1/questions?wait="+url.QueryEscape(wait.String()), req, &out)
	return out, err
}

// Get fetches a question's current state.
func (c *Client) Get(ctx context.Context, id string) (api.QuestionResponse, error) {
	var out api.QuestionResponse
	err := c.do(ctx, http.MethodGet, "/v1/questions/"+url.PathEscape(id), nil, &out)
	return out, err
}

// Trace fetches a question's trace.
func (c *Client) Trace(ctx context.Context, id string) (wire.Trace, error) {
	var out wire.Trace
	err := c.do(ctx, http.MethodGet, "/v1/questions/"+url.PathEscape(id)+"/trace", nil, &out)
	return out, err
}

// Cancel asks a running question to cancel.
func (c *Client) Cancel(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/v1/questions/"+url.PathEscape(id), nil, nil)
}

// Wait polls until the question is no longer running or ctx ends. progress,
// if not nil, is called with every state seen.
func (c *Client) Wait(ctx context.Context, id string, every time.Duration, progress func(api.QuestionResponse)) (api.QuestionResponse, error) {
	return poll(ctx, every, func() (api.QuestionResponse, api.Status, error) {
		q, err := c.Get(ctx, id)
		return q, q.Status, err
	}, progress)
}

// poll gets a run's state every `every` until it is no longer running or
// ctx ends, calling progress (if not nil) with every state seen.
func poll[T any](ctx context.Context, every time.Duration, get func() (T, api.Status, error), progress func(T)) (T, error) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		v, status, err := get()
		if err != nil {
			return v, err
		}
		if progress != nil {
			progress(v)
		}
		if status != api.Running {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-t.C:
		}
	}
}

// StreamEvent is one Server-Sent Event as received.
type StreamEvent struct {
	ID   string
	Type string
	Data []byte
}

// Events reads question id's event stream from after lastEventID ("" for
// the start), calling fn for each event, until the stream ends, fn fails
// or ctx ends. It does not reconnect; Follow does.
func (c *Client) Events(ctx context.Context, id, lastEventID string, fn func(StreamEvent) error) error {
	req, err := c.newRequest(ctx, http.MethodGet, "/v1/questions/"+url.PathEscape(id)+"/events", nil, "")
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := c.httpClient(true).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNoContent {
		return nil // the run ended and lastEventID is at or past its result
	}
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return apiErrorOf(resp, data)
	}
	return ReadSSE(resp.Body, fn)
}

// ReadSSE reads r as the text/event-stream format, calling fn for each
// event, until r ends or fn fails. Events are runs of "field: value" lines
// ended by a blank line; lines starting with ':' are comments; an event
// without a type is a "message".
func ReadSSE(r io.Reader, fn func(StreamEvent) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	var ev StreamEvent
	var data [][]byte
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if len(data) > 0 {
				ev.Data = bytes.Join(data, []byte("\n"))
				if ev.Type == "" {
					ev.Type = "message"
				}
				if err := fn(ev); err != nil {
					return err
				}
			}
			ev, data = StreamEvent{}, nil
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "id":
			ev.ID = string(value)
		case "event":
			ev.Type = string(value)
		case "data":
			data = append(data, append([]byte(nil), value...))
		}
	}
	return sc.Err()
}

// errStreamDone ends a stream once its result arrived.
var errStreamDone = errors.New("stream done")

// Follow streams question id until its result, calling onStage (if not
// nil) for each stage. A dropped stream is resumed from the last event
// seen, up to five times in a row without progress.
func (c *Client) Follow(ctx context.Context, id string, onStage func(api.StageEvent)) (api.QuestionResponse, error) {
	var result api.QuestionResponse
	last := ""
	for tries := 0; ; {
		progressed := false
		err := c.Events(ctx, id, last, func(e StreamEvent) error {
			switch e.Type {
			case api.EventStage:
				var st api.StageEvent
				if err := json.Unmarshal(e.Data, &st); err != nil {
					return fmt.Errorf("stage event %s: %w", e.ID, err)
				}
				if onStage != nil {
					onStage(st)
				}
			case api.EventResult:
				if err := json.Unmarshal(e.Data, &result); err != nil {
					return fmt.Errorf("result event %s: %w", e.ID, err)
				}
				return errStreamDone
			case api.EventError:
				return fmt.Errorf("stream interrupted: %s", e.Data)
			}
			if e.ID != "" {
				last, progressed = e.ID, true
			}
			return nil
		})
		switch {
		case errors.Is(err, errStreamDone):
			return result, nil
		case ctx.Err() != nil:
			return result, ctx.Err()
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Status < 500 && apiErr.Status != http.StatusTooManyRequests {
			return result, err
		}
		if progressed {
			tries = 0
		}
		if tries++; tries > 5 {
			if err == nil {
				err = errors.New("stream ended without a result")
			}
			return result, err
		}
		select {
		case <-ctx.Done():
			return result, ctx.Err()
		case <-time.After(time.Duration(tries) * 200 * time.Millisecond):
		}
	}
}

// SubmitBatch posts a batch and returns its id.
func (c *Client) SubmitBatch(ctx context.Context, req api.BatchRequest) (string, error) {
	var out api.Accepted
	if err := c.do(ctx, http.MethodPost, "/v1/batches", req, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// SubmitBatchJSONL posts a batch as JSON Lines, one BatchQuestion per
// line, and returns its id.
func (c *Client) SubmitBatchJSONL(ctx context.Context, body io.Reader) (string, error) {
	var out api.Accepted
	if err := c.send(ctx, http.MethodPost, "/v1/batches", body, "application/jsonl", &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// GetBatch fetches a batch's status and aggregate.
func (c *Client) GetBatch(ctx context.Context, id string) (api.BatchResponse, error) {
	var out api.BatchResponse
	err := c.do(ctx, http.MethodGet, "/v1/batches/"+url.PathEscape(id), nil, &out)
	return out, err
}

// BatchResults fetches one page of a batch's results; cursor "" is the
// first page, limit 0 the server's default size.
func (c *Client) BatchResults(ctx context.Context, id, cursor string, limit int) (api.BatchResults, error) {
	q := url.Values{}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	path := "/v1/batches/" + url.PathEscape(id) + "/results"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var out api.BatchResults
	err := c.do(ctx, http.MethodGet, path, nil, &out)
	return out, err
}

// WaitBatch polls until the batch is no longer running or ctx ends.
// progress, if not nil, is called with every state seen.
func (c *Client) WaitBatch(ctx context.Context, id string, every time.Duration, progress func(api.BatchResponse)) (api.BatchResponse, error) {
	return poll(ctx, every, func() (api.BatchResponse, api.Status, error) {
		b, err := c.GetBatch(ctx, id)
		return b, b.Status, err
	}, progress)
}

// AllBatchResults pages through every result of a batch.
func (c *Client) AllBatchResults(ctx context.Context, id string) ([]api.BatchResultItem, error) {
	var all []api.BatchResultItem
	cursor := ""
	for {
		page, err := c.BatchResults(ctx, id, cursor, api.MaxPageSize)
		if err != nil {
			return all, err
		}
		all = append(all, page.Items...)
		if page.NextCursor == "" {
			return all, nil
		}
		cursor = page.NextCursor
	}
}

// CancelBatch asks a running batch to cancel.
func (c *Client) CancelBatch(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/v1/batches/"+url.PathEscape(id), nil, nil)
}
