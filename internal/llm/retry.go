package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/assay-rag/assay/internal/errs"
)

// hint is what the transport saw of one attempt's HTTP response: go-openai
// turns an error response into an error value and drops its headers, so
// the Retry-After header is caught on its way through.
type hint struct {
	status     int
	retryAfter string
}

type hintKey struct{}

// hintDoer records the status and Retry-After of each response into the
// hint its request's context carries.
type hintDoer struct{ c *http.Client }

func (d hintDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.c.Do(req)
	if h, ok := req.Context().Value(hintKey{}).(*hint); ok && resp != nil {
		h.status = resp.StatusCode
		h.retryAfter = resp.Header.Get("Retry-After")
	}
	return resp, err
}

// final marks an error that must not be retried whatever its kind: a
// stream that already delivered tokens, or the caller's callback failing.
type final struct{ err error }

func (f final) Error() string { return f.err.Error() }
func (f final) Unwrap() error { return f.err }

// retry runs call until it succeeds, fails for good, or runs out of
// retries. Each attempt gets its own timeout. It returns the number of
// attempts made.
func (c *Client) retry(ctx context.Context, op string, call func(ctx context.Context) error) (int, error) {
	for attempt := 1; ; attempt++ {
		h := &hint{}
		actx, cancel := context.WithTimeout(context.WithValue(ctx, hintKey{}, h), c.cfg.Timeout)
		err := call(actx)
		cancel()
		if err == nil {
			return attempt, nil
		}
		var fin final
		if errors.As(err, &fin) {
			return attempt, fin.err
		}
		err = c.classify(ctx, op, err, h)
		kind := errs.KindOf(err)
		if ctx.Err() != nil || !retryable(kind) || attempt > c.cfg.MaxRetries {
			if retryable(kind) && attempt > 1 {
				err = errs.E(op, kind, fmt.Errorf("gave up after %d attempts: %w", attempt, err))
			}
			return attempt, err
		}
		wait := c.backoff(attempt)
		if ra, ok := c.retryAfter(h.retryAfter); ok {
			if ra > c.cfg.MaxRetryAfter {
				return attempt, errs.E(op, kind, fmt.Errorf("server asks to retry after %s, more than the %s this client waits: %w", ra, c.cfg.MaxRetryAfter, err))
			}
			wait = max(wait, ra)
		}
		if serr := c.sleep(ctx, wait); serr != nil {
			if errors.Is(serr, context.DeadlineExceeded) {
				return attempt, errs.E(op, errs.Timeout, fmt.Errorf("the caller's deadline passed while waiting to retry (last error: %v)", err))
			}
			return attempt, errs.E(op, fmt.Errorf("stopped while waiting to retry: %w (last error: %v)", serr, err))
		}
	}
}

func retryable(k errs.Kind) bool {
	return k == errs.RateLimited || k == errs.Unavailable || k == errs.Timeout
}

// backoff is the wait before retry number n (1-based), with equal jitter.
func (c *Client) backoff(n int) time.Duration {
	d := c.cfg.Backoff.Initial
	for i := 1; i < n && d < c.cfg.Backoff.Max; i++ {
		d *= 2
	}
	d = min(d, c.cfg.Backoff.Max)
	return d/2 + time.Duration(c.jitter()*float64(d/2))
}

// retryAfter parses a Retry-After header: delay seconds or an HTTP date.
func (c *Client) retryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(c.now()), 0), true
	}
	return 0, false
}

// classify turns what go-openai, net/http or the context returned into a
// domain error of the right kind.
func (c *Client) classify(ctx context.Context, op string, err error, h *hint) error {
	if errs.KindOf(err) != errs.Other {
		return err
	}
	switch {
	case ctx.Err() != nil:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return errs.E(op, errs.Timeout, fmt.Errorf("the caller's deadline passed: %w", err))
		}
		return errs.E(op, err)
	case errors.Is(err, context.DeadlineExceeded):
		return errs.E(op, errs.Timeout, fmt.Errorf("no reply within %s", c.cfg.Timeout))
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return statusError(op, apiErr.HTTPStatusCode, apiErr.Message, codeString(apiErr.Code))
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return statusError(op, reqErr.HTTPStatusCode, strings.TrimSpace(string(reqErr.Body)), "")
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) || errors.Is(err, io.ErrUnexpectedEOF) {
		// A reply cut short or garbled in transit (a proxy, a crashed
		// worker) is the endpoint failing, like a 502: worth a retry.
		return errs.E(op, errs.Unavailable, fmt.Errorf("malformed response from the endpoint: %w", err))
	}
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, io.EOF) {
		return errs.E(op, errs.Unavailable, fmt.Errorf("endpoint unreachable: %w", err))
	}
	if isClientSideRejection(err) {
		return errs.E(op, errs.Unsupported, err)
	}
	if h.status >= 500 {
		return errs.E(op, errs.Unavailable, err)
	}
	return errs.E(op, errs.Unavailable, fmt.Errorf("unexpected failure talking to the endpoint: %w", err))
}

// statusError maps an HTTP error status to a kind. Only 408, 429 and 5xx
// are retried; a 400 that names the response format or the context length
// is Unsupported, so a router can fall back to a model that can.
func statusError(op string, status int, msg, code string) error {
	err := fmt.Errorf("HTTP %d: %s", status, msg)
	lower := strings.ToLower(msg + " " + code)
	switch {
	case status == http.StatusTooManyRequests:
		return errs.E(op, errs.RateLimited, err)
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return errs.E(op, errs.Timeout, err)
	case status >= 500:
		return errs.E(op, errs.Unavailable, err)
	case status == http.StatusUnauthorized:
		return errs.E(op, errs.Unauthorized, err)
	case status == http.StatusForbidden:
		return errs.E(op, errs.Forbidden, err)
	case status == http.StatusNotFound:
		return errs.E(op, errs.NotFound, err)
	case status == http.StatusRequestEntityTooLarge,
		strings.Contains(lower, "context_length") || strings.Contains(lower, "context length") || strings.Contains(lower, "maximum context"),
		strings.Contains(lower, "response_format") || strings.Contains(lower, "json_schema"):
		return errs.E(op, errs.Unsupported, err)
	}
	return errs.E(op, errs.Invalid, err)
}

func codeString(code any) string {
	if code == nil {
		return ""
	}
	return fmt.Sprint(code)
}

// isClientSideRejection reports go-openai refusing a request before
// sending it (a model the endpoint family does not serve, parameters a
// reasoning model rejects).
func isClientSideRejection(err error) bool {
	for _, e := range []error{
		openai.ErrChatCompletionInvalidModel, openai.ErrChatCompletionStreamNotSupported,
		openai.ErrReasoningModelMaxTokensDeprecated, openai.ErrReasoningModelLimitationsLogprobs,
		openai.ErrReasoningModelLimitationsOther, openai.ErrReasoningSamplingUnsupported,
		openai.ErrReasoningEffortUnsupported,
	} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
