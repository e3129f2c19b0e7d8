package gateway

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// cancelRun asks a running run of kind to cancel: 202 while it winds
// down, 409 when it has already ended.
func (s *Server) cancelRun(c *gin.Context, kind Kind) {
	run, ok := s.ownRun(c, kind)
	if !ok {
		return
	}
	if run.Status != api.Running {
		writeError(c, errs.Errorf("gateway.cancel", errs.Conflict, "%s %s has already ended (%s)", kind, run.ID, run.Status))
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	if err := s.opts.Engine.Cancel(ctx, run.ID); err != nil {
		writeError(c, err)
		return
	}
	c.JSON(http.StatusAccepted, api.Accepted{ID: run.ID, Status: "cancelling"})
}

// validRunID accepts run ids: API-made UUIDs and batch children
// ("<uuid>-q12"). Anything else cannot name a run.
var validRunID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,200}$`)

// ownRun resolves the :id of the request to a run of kind owned by the
// caller. Unknown ids, runs of the other kind and other principals' runs
// all get the same 404, so ids reveal nothing.
func (s *Server) ownRun(c *gin.Context, kind Kind) (Run, bool) {
	id := c.Param("id")
	c.Set(ctxRunID, id)
	notFound := errs.Errorf("gateway.run", errs.NotFound, "no %s %q", kind, id)
	if !validRunID.MatchString(id) {
		writeError(c, notFound)
		return Run{}, false
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	run, err := s.opts.Engine.Describe(ctx, id)
	if err != nil {
		if errs.Is(errs.NotFound, err) {
			err = notFound
		}
		writeError(c, err)
		return Run{}, false
	}
	if run.Kind != kind || run.Principal != principal(c).ID {
		writeError(c, notFound)
		return Run{}, false
	}
	return run, true
}

// planRun reads what both kinds of run take from a request: the budget
// and filters (as an AnswerInput for the caller's principal), the
// idempotency key, and the run id derived from them, which it records for
// the access log.
func (s *Server) planRun(c *gin.Context, kind Kind, maxAttempts *int, deadlineMS *int64, f *api.Filters, bodyKey string) (id, key string, in wire.AnswerInput, err error) {
	if in, err = s.answerTemplate(maxAttempts, deadlineMS, f); err != nil {
		return "", "", in, err
	}
	if key, err = idempotencyKey(c, bodyKey); err != nil {
		return "", "", in, err
	}
	in.Principal = principal(c)
	id = runID(kind, idempotencyScope(c, in.Principal), key)
	c.Set(ctxRunID, id)
	return id, key, in, nil
}

// answerTemplate builds the AnswerInput of a request from the defaults and
// the request's own, lower, budget and filters. RequestID, Question and
// Principal are the caller's to set.
func (s *Server) answerTemplate(maxAttempts *int, deadlineMS *int64, f *api.Filters) (wire.AnswerInput, error) {
	const op = "gateway.options"
	d := s.opts.Template
	in := wire.AnswerInput{Budget: d.Budget, Threshold: d.Threshold, TopK: d.TopK}
	if maxAttempts != nil {
		if n := *maxAttempts; n < 1 || n > d.Budget.MaxAttempts {
			return in, errs.FieldError(op, "max_attempts", fmt.Sprintf("want 1..%d, got %d", d.Budget.MaxAttempts, n))
		}
		in.Budget.MaxAttempts = *maxAttempts
	}
	if deadlineMS != nil {
		maxMS := d.Budget.Deadline.Milliseconds()
		if ms := *deadlineMS; ms < 100 || ms > maxMS {
			return in, errs.FieldError(op, "deadline_ms", fmt.Sprintf("want 100..%d, got %d", maxMS, ms))
		}
		in.Budget.Deadline = time.Duration(*deadlineMS) * time.Millisecond
	}
	if f != nil {
		rf, err := retrievalFilters(f)
		if err != nil {
			return in, err
		}
		in.Filters = rf
	}
	return in, nil
}

// idempotencyKey is the body's idempotency_key or the Idempotency-Key
// header; both may be given only if they agree.
func idempotencyKey(c *gin.Context, body string) (string, error) {
	const op = "gateway.idempotency"
	header := c.GetHeader("Idempotency-Key")
	if body != "" && header != "" && body != header {
		return "", errs.FieldError(op, "idempotency_key", "differs from the Idempotency-Key header")
	}
	key := body
	if key == "" {
		key = header
	}
	if len(key) > 200 {
		return "", errs.FieldError(op, "idempotency_key", fmt.Sprintf("is %d bytes; the limit is 200", len(key)))
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return "", errs.FieldError(op, "idempotency_key", "want printable ASCII without spaces")
		}
	}
	return key, nil
}

// idempotencySpace is the UUID namespace of run ids derived from
// idempotency keys.
var idempotencySpace = uuid.MustParse("6f1d3c52-8a43-4f0e-9a57-0c2b8e7d9a11")

// idempotencyScope is whose idempotency keys a request's key is among: its
// principal's, or, for the anonymous principal that every caller of an
// anonymous gateway shares, the client address's, so one client's key
// cannot name (and so read) another client's run.
func idempotencyScope(c *gin.Context, p auth.Principal) string {
	if p.ID == auth.AnonymousID {
		return p.ID + "@" + c.ClientIP()
	}
	return p.ID
}

// runID names a new run: random, or, with an idempotency key, derived from
// the kind, the scope (idempotencyScope) and the key, so a retry names the
// same run, and neither two principals' keys nor the same key sent as a
// question and as a batch ever collide.
func runID(kind Kind, scope, key string) string {
	if key == "" {
		return uuid.NewString()
	}
	return uuid.NewSHA1(idempotencySpace, []byte(string(kind)+"\x00"+scope+"\x00"+key)).String()
}
