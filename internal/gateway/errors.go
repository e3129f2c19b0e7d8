package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
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
	if isChatRoute(c) { // OpenAI's error shape (chat.go)
		if status >= 500 {
			c.Error(err) //nolint:errcheck // recorded for the access log
		}
		c.AbortWithStatusJSON(status, openAIError(c, err))
		return
	}
	body := api.ErrorDetail{Code: string(kind), Field: errs.FieldOf(err), Message: errs.Reason(err), RequestID: c.GetString(ctxRequestID)}
	if status >= 500 {
		c.Error(err) //nolint:errcheck // recorded for the access log
		body.Message = http.StatusText(status)
	}
	c.AbortWithStatusJSON(status, api.ErrorBody{Error: body})
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
	v, err := guard.Verdict(q)
	switch {
	case err != nil:
		return err
	case v.Refused:
		return &errs.Error{Op: op, Kind: errs.Refused, Field: field, Err: errors.New(v.Detail)}
	}
	return nil
}
