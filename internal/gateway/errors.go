package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/guard"
)

// statusOf is the one map from error kinds to HTTP statuses.
var statusOf = map[errs.Kind]int{
	errs.Invalid:      http.StatusBadRequest,
	errs.NotFound:     http.StatusNotFound,
	errs.Unauthorized: http.StatusUnauthorized,
	errs.Forbidden:    http.StatusForbidden,
	errs.Conflict:     http.StatusConflict,
	errs.RateLimited:  http.StatusTooManyRequests,
	errs.Refused:      http.StatusUnprocessableEntity,
	errs.Unavailable:  http.StatusServiceUnavailable,
	errs.Timeout:      http.StatusGatewayTimeout,
	errs.Schema:       http.StatusBadGateway,
	errs.Unsupported:  http.StatusNotImplemented,
	errs.TooLarge:     http.StatusRequestEntityTooLarge,
	errs.Internal:     http.StatusInternalServerError,
}

type apiError struct {
	Code      string `json:"code"`
	Field     string `json:"field,omitempty"`
	Message   string `json:"message"`
	RequestID string `json:"request_id,omitempty"`
}

type errorBody struct {
	Error apiError `json:"error"`
}

// retryAfterSeconds is the Retry-After of every 503: a dependency
// (Temporal, a worker) is down, and a retry soon may find it back.
const retryAfterSeconds = "5"

// writeError answers with err's status and a JSON body. Details of server
// errors are logged, not sent.
func writeError(c *gin.Context, err error) {
	kind := errs.KindOf(err)
	if kind == errs.Other {
		kind = errs.Internal
	}
	status := statusOf[kind]
	if status == http.StatusServiceUnavailable {
		c.Header("Retry-After", retryAfterSeconds)
	}
	body := apiError{Code: string(kind), Field: errs.FieldOf(err), Message: publicMessage(err), RequestID: c.GetString(ctxRequestID)}
	if status >= 500 {
		c.Error(err) //nolint:errcheck // recorded for the access log
		body.Message = http.StatusText(status)
	}
	c.AbortWithStatusJSON(status, errorBody{Error: body})
}

// publicMessage is the innermost message of err: the reason, without the
// chain of internal operation names.
func publicMessage(err error) string {
	var e *errs.Error
	for errors.As(err, &e) && e.Err != nil {
		var inner *errs.Error
		if !errors.As(e.Err, &inner) {
			return e.Err.Error()
		}
		err = e.Err
	}
	return err.Error()
}

// decodeJSON reads exactly one JSON value into v: bounded size, valid
// UTF-8, no unknown fields, no trailing data. Errors name the field.
func decodeJSON(c *gin.Context, limit int64, v any) error {
	body, err := readBody(c, limit)
	if err != nil {
		return err
	}
	return strictDecode(body, v)
}

// readBody reads the whole request body, at most limit bytes of valid
// UTF-8.
func readBody(c *gin.Context, limit int64) ([]byte, error) {
	const op = "gateway.decode"
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &errs.Error{Op: op, Kind: errs.TooLarge, Field: "body", Err: fmt.Errorf("larger than %d bytes", limit)}
		}
		return nil, errs.FieldError(op, "body", "could not be read")
	}
	if !utf8.Valid(body) {
		return nil, errs.FieldError(op, "body", "is not valid UTF-8")
	}
	return body, nil
}

func jsonError(op string, err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var domainErr *errs.Error
	switch {
	case errors.As(err, &domainErr): // from a field's own UnmarshalJSON
		return err
	case errors.Is(err, io.EOF):
		return errs.FieldError(op, "body", "is empty; want a JSON object")
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return errs.FieldError(op, field, fmt.Sprintf("want %s, got JSON %s", jsonType(typeErr.Type.Kind().String()), typeErr.Value))
	case errors.As(err, &syntaxErr):
		return errs.FieldError(op, "body", fmt.Sprintf("is not valid JSON (offset %d): %v", syntaxErr.Offset, syntaxErr))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		if name == "" { // {"": ...}: no name to point at
			return errs.FieldError(op, "body", `has an unknown field with an empty name ""`)
		}
		return errs.FieldError(op, name, "unknown field")
	}
	return errs.FieldError(op, "body", "is not valid JSON: "+err.Error())
}

func jsonType(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return goKind
}

// maxQuestionBytes bounds a question at the edge, before its text is
// read further; the guard's character limit is the content rule.
const maxQuestionBytes = 2000

// validateQuestion checks the shape of a question in field. Content
// guardrails run in the workflow, where their verdict is recorded in the
// trace.
func validateQuestion(field, q string) error {
	const op = "gateway.question"
	switch {
	case strings.TrimSpace(q) == "":
		return errs.FieldError(op, field, "is required and must not be blank")
	case len(q) > maxQuestionBytes:
		return errs.FieldError(op, field, fmt.Sprintf("is %d bytes; the limit is %d", len(q), maxQuestionBytes))
	}
	// The workflow runs the same guard; refusing here answers at once with
	// the reason (422) instead of starting a run that can only be refused.
	if _, err := guard.Question(q, guard.Limits{}); err != nil {
		var refusal *guard.Refusal
		if errors.As(err, &refusal) {
			return &errs.Error{Op: op, Kind: errs.Refused, Field: field, Err: errors.New(refusal.Detail)}
		}
		return err
	}
	return nil
}
