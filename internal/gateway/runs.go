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
	"github.com/assay-rag/assay/workflows"
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

// runOptions are what a request asks of its run's budget and filters.
type runOptions struct {
	maxAttempts *int
	deadlineMS  *int64
	filters     *api.Filters
}

// planRun reads what both kinds of run take from a request: the
// idempotency key, the run id derived from it (recorded for the access
// log), the release the run is pinned to (Options.Releases) and the
// budget and filters, as an AnswerInput for the caller's principal
// starting from that release's loop defaults.
func (s *Server) planRun(c *gin.Context, kind Kind, o runOptions, bodyKey string) (id, key string, in wire.AnswerInput, err error) {
	if key, err = idempotencyKey(c, bodyKey); err != nil {
		return "", "", in, err
	}
	p := principal(c)
	id = runID(kind, idempotencyScope(c, p), key)
	c.Set(ctxRunID, id)
	release, err := s.pin(c.Request.Context(), id)
	if err != nil {
		return "", "", in, err
	}
	if in, err = s.answerTemplate(c.Request.Context(), release, o); err != nil {
		return "", "", in, err
	}
	in.Principal = p
	return id, key, in, nil
}

// pin is the release run id is pinned to; "" without Options.Releases or
// when no release was ever promoted. A store that cannot be read refuses
// the start (503): a run must not start on a release nobody chose.
func (s *Server) pin(ctx context.Context, id string) (string, error) {
	if s.opts.Releases == nil {
		return "", nil
	}
	r, err := s.opts.Releases.Pin(ctx, id)
	if err != nil {
		return "", errs.E("gateway.Start", errs.Unavailable, fmt.Errorf("read the active releases: %w", err))
	}
	return r, nil
}

// answerTemplate builds the AnswerInput of a request on release from the
// release's loop defaults (the configured Template for none, or for a
// release that records none) and the request's own, lower, budget and
// filters. RequestID, Question and Principal are the caller's to set.
func (s *Server) answerTemplate(ctx context.Context, release string, o runOptions) (wire.AnswerInput, error) {
	const op = "gateway.options"
	d := s.opts.Template
	if release != "" && s.opts.Releases != nil {
		t, ok, err := s.opts.Releases.Defaults(ctx, release)
		if err != nil {
			return wire.AnswerInput{}, errs.E("gateway.Start", errs.Unavailable, fmt.Errorf("read release %s: %w", release, err))
		}
		if ok {
			d = t
		}
	}
	in := wire.AnswerInput{Budget: d.Budget, Threshold: d.Threshold, TopK: d.TopK, Release: release, Revision: workflows.AnswerRevision}
	if o.maxAttempts != nil {
		if n := *o.maxAttempts; n < 1 || n > d.Budget.MaxAttempts {
			return in, errs.FieldError(op, "max_attempts", fmt.Sprintf("want 1..%d, got %d", d.Budget.MaxAttempts, n))
		}
		in.Budget.MaxAttempts = *o.maxAttempts
	}
	if o.deadlineMS != nil {
		maxMS := d.Budget.Deadline.Milliseconds()
		if ms := *o.deadlineMS; ms < 100 || ms > maxMS {
			return in, errs.FieldError(op, "deadline_ms", fmt.Sprintf("want 100..%d, got %d", maxMS, ms))
		}
		in.Budget.Deadline = time.Duration(*o.deadlineMS) * time.Millisecond
	}
	if o.filters != nil {
		rf, err := retrievalFilters(o.filters)
		if err != nil {
			return in, err
		}
		in.Filters = rf
	}
	return in, nil
}

// sameOptions reports whether run, found under the id a request with an
// idempotency key names, was started with the budget and filters the
// request asks for (in, built by planRun). A run started on another
// release before a promotion or rollback is compared with the request
// built on its own release's defaults: the retry is the same request.
func (s *Server) sameOptions(ctx context.Context, run Run, in wire.AnswerInput, o runOptions) bool {
	if run.Template == "" || run.Template == wire.TemplateDigest(in) {
		return true
	}
	if run.Release == in.Release {
		return false
	}
	theirs, err := s.answerTemplate(ctx, run.Release, o)
	return err == nil && run.Template == wire.TemplateDigest(theirs)
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
