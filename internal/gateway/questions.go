package gateway

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// readTimeout bounds the Temporal calls of one read request.
const readTimeout = 10 * time.Second

// queryTimeout bounds a query of a running run. A query needs a worker;
// a run no worker has picked up yet must not hold a GET for long.
const queryTimeout = time.Second

func (s *Server) postQuestion(c *gin.Context) {
	var req api.QuestionRequest
	if err := decodeJSON(c, s.opts.MaxBodyBytes, &req); err != nil {
		writeError(c, err)
		return
	}
	wait, err := s.waitParam(c)
	if err != nil {
		writeError(c, err)
		return
	}
	if err := validateQuestion("question", req.Question); err != nil {
		writeError(c, err)
		return
	}
	opts := runOptions{req.MaxAttempts, req.DeadlineMS, req.Filters}
	id, key, in, err := s.planRun(c, KindQuestion, opts, req.IdempotencyKey)
	if err != nil {
		writeError(c, err)
		return
	}
	in.RequestID, in.Question = id, req.Question
	in.Signature = s.opts.Signer.Sign(id, auth.QuestionDigest(req.Question), in.Principal)

	// ?wait= bounds the whole request, starting the run included.
	reqCtx, ctx := c.Request.Context(), c.Request.Context()
	if wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(reqCtx, wait)
		defer cancel()
	}
	waitSpent := func(err error) error {
		if wait > 0 && ctx.Err() != nil && reqCtx.Err() == nil {
			return &errs.Error{Op: "gateway.postQuestion", Kind: errs.Timeout, Field: "wait",
				Err: fmt.Errorf("the run could not be started within %s; retry, with an idempotency key to name the same run", wait)}
		}
		return err
	}
	release, ok := s.admitOrAnswer(c, KindQuestion, id, key, in, 1)
	if !ok {
		return
	}
	runID, err := s.opts.Engine.Start(ctx, id, in)
	if err != nil {
		release()
		writeError(c, waitSpent(err))
		return
	}
	status := api.Running
	if key != "" {
		run, err := s.opts.Engine.Describe(ctx, id)
		if err != nil {
			writeError(c, waitSpent(err))
			return
		}
		if run.Kind != KindQuestion || run.Question != req.Question {
			writeError(c, &errs.Error{Op: "gateway.postQuestion", Kind: errs.Conflict, Field: "idempotency_key",
				Err: fmt.Errorf("was used before for a different question")})
			return
		}
		if !s.sameOptions(ctx, run, in, opts) {
			writeError(c, &errs.Error{Op: "gateway.postQuestion", Kind: errs.Conflict, Field: "idempotency_key",
				Err: fmt.Errorf("was used before for the same question with a different budget or filters")})
			return
		}
		status = run.Status
	}
	c.Header("Location", "/v1/questions/"+id)
	if wait > 0 {
		res, st, err := s.opts.Engine.Result(ctx, id, runID)
		if err == nil {
			err = s.checkCited(reqCtx, in.Principal.Groups, &res)
			if err != nil {
				writeError(c, err)
				return
			}
		}
		switch {
		case err == nil:
			c.JSON(http.StatusOK, questionResponse(Run{ID: id, Status: st, Question: req.Question}, &res))
			return
		case reqCtx.Err() == nil && ctx.Err() != nil:
			// Still running when the wait ran out: answer 202 below.
		default:
			writeError(c, err)
			return
		}
	}
	c.JSON(http.StatusAccepted, api.Accepted{ID: id, Status: status})
}

func (s *Server) getQuestion(c *gin.Context) {
	run, ok := s.ownRun(c, KindQuestion)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	if run.Status == api.Running {
		resp := questionResponse(run, nil)
		qctx, qcancel := context.WithTimeout(ctx, queryTimeout)
		defer qcancel()
		if p, err := s.opts.Engine.Progress(qctx, run.ID); err == nil {
			resp.Progress = &p
		}
		c.JSON(http.StatusOK, resp)
		return
	}
	res, st, err := s.opts.Engine.Result(ctx, run.ID, "")
	if err == nil {
		err = s.checkCited(ctx, principal(c).Groups, &res)
	}
	if err != nil {
		writeError(c, err)
		return
	}
	run.Status = st
	c.JSON(http.StatusOK, questionResponse(run, &res))
}

func (s *Server) getTrace(c *gin.Context) {
	run, ok := s.ownRun(c, KindQuestion)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	if run.Status == api.Completed {
		res, _, err := s.opts.Engine.Result(ctx, run.ID, "")
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, res.Trace)
		return
	}
	// A query needs a worker; without one, answer soon rather than hang.
	qctx, qcancel := context.WithTimeout(ctx, 2*queryTimeout)
	defer qcancel()
	tr, err := s.opts.Engine.Trace(qctx, run.ID)
	if err != nil {
		writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, tr)
}

func (s *Server) deleteQuestion(c *gin.Context) {
	s.cancelRun(c, KindQuestion)
}

func questionResponse(run Run, res *wire.AnswerResult) api.QuestionResponse {
	out := api.QuestionResponse{ID: run.ID, Status: run.Status, Question: run.Question, Release: run.Release, Citations: []api.CitationResponse{}}
	if res == nil || run.Status != api.Completed {
		return out
	}
	if res.Trace.Release != "" {
		out.Release = res.Trace.Release
	}
	out.StopReason = res.StopReason
	out.StopDetail = res.Trace.StopDetail
	out.Answer = res.Answer
	out.Citations = citations(res.Citations)
	out.Model = res.Model
	out.Attempts = len(res.Trace.Attempts)
	u := res.Trace.Usage
	out.Usage = &u
	if out.Question == "" {
		out.Question = res.Trace.Question
	}
	return out
}

func citations(cs []wire.Citation) []api.CitationResponse {
	out := make([]api.CitationResponse, 0, len(cs))
	for _, c := range cs {
		out = append(out, api.CitationResponse{Label: c.Label, DocID: c.DocID, Title: c.Title, URL: c.URL})
	}
	return out
}

// waitParam parses ?wait=, bounded by MaxWait.
func (s *Server) waitParam(c *gin.Context) (time.Duration, error) {
	const op = "gateway.wait"
	v, ok := c.GetQuery("wait")
	if !ok || v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, errs.FieldError(op, "wait", fmt.Sprintf("want a duration like 10s, got %q", v))
	}
	if d < 0 || d > s.opts.MaxWait {
		return 0, errs.FieldError(op, "wait", fmt.Sprintf("want 0s..%s, got %s", s.opts.MaxWait, d))
	}
	return d, nil
}

// Filter list bounds.
const (
	maxFilterValues = 20
	maxFilterLen    = 100
)

// retrievalFilters checks a request's filters and turns them into the
// retrieval filters of its runs.
func retrievalFilters(f *api.Filters) (wire.Filters, error) {
	const op = "gateway.filters"
	check := func(name string, vals []string) error {
		if len(vals) > maxFilterValues {
			return errs.FieldError(op, "filters."+name, fmt.Sprintf("at most %d values, got %d", maxFilterValues, len(vals)))
		}
		for i, v := range vals {
			if strings.TrimSpace(v) == "" || len(v) > maxFilterLen {
				return errs.FieldError(op, fmt.Sprintf("filters.%s[%d]", name, i), fmt.Sprintf("want 1..%d bytes, not blank", maxFilterLen))
			}
		}
		return nil
	}
	if err := check("types", f.Types); err != nil {
		return wire.Filters{}, err
	}
	if err := check("products", f.Products); err != nil {
		return wire.Filters{}, err
	}
	if err := check("statuses", f.Statuses); err != nil {
		return wire.Filters{}, err
	}
	out := wire.Filters{Types: f.Types, Products: f.Products}
	for i, st := range f.Statuses {
		switch s := wire.Status(st); s {
		case wire.Current, wire.Archived, wire.Withdrawn:
			out.Statuses = append(out.Statuses, s)
		default:
			return wire.Filters{}, errs.FieldError(op, fmt.Sprintf("filters.statuses[%d]", i), fmt.Sprintf("want current, archived or withdrawn, got %q", st))
		}
	}
	return out, nil
}
