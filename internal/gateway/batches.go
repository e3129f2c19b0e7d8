package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"golang.org/x/sync/errgroup"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// maxBatchInputBytes keeps a batch's workflow input, which continue-as-new
// carries from run to run, well under Temporal's 2 MiB payload limit.
const maxBatchInputBytes = 1536 << 10

// maxBatchIDLen bounds a client's id for one question of a batch.
const maxBatchIDLen = 200

func (s *Server) postBatch(c *gin.Context) {
	req, err := s.readBatch(c)
	if err != nil {
		writeError(c, err)
		return
	}
	opts := runOptions{req.MaxAttempts, req.DeadlineMS, req.Filters}
	id, key, in, err := s.planRun(c, KindBatch, opts, req.IdempotencyKey)
	if err != nil {
		writeError(c, err)
		return
	}
	p := in.Principal
	qs := make([]workflows.BatchQuestion, len(req.Questions))
	for i, q := range req.Questions {
		qs[i] = workflows.BatchQuestion{ID: q.ID, Question: q.Question}
	}
	bin := workflows.BatchInput{
		BatchID: id, Principal: p, Questions: qs, Template: in,
		Concurrency: s.opts.Batch.Concurrency, ContinueAfter: s.opts.Batch.ContinueAfter,
	}
	workflows.SignBatch(s.opts.Signer, &bin)
	if b, err := json.Marshal(bin); err == nil && len(b) > maxBatchInputBytes {
		writeError(c, errs.FieldError("gateway.postBatch", "questions",
			fmt.Sprintf("the batch is %d bytes encoded; the limit is %d: split it", len(b), maxBatchInputBytes)))
		return
	}
	ctx := c.Request.Context()
	release, ok := s.admitOrAnswer(c, KindBatch, id, key, in, len(qs))
	if !ok {
		return
	}
	if err := s.opts.Engine.StartBatch(ctx, id, bin); err != nil {
		release()
		writeError(c, err)
		return
	}
	// A replayed key names the batch it started; its status may have moved on.
	status := api.Running
	if key != "" {
		run, err := s.opts.Engine.Describe(ctx, id)
		if err != nil {
			writeError(c, err)
			return
		}
		if run.Kind != KindBatch || run.Digest != "" && run.Digest != workflows.BatchDigest(qs) {
			writeError(c, &errs.Error{Op: "gateway.postBatch", Kind: errs.Conflict, Field: "idempotency_key",
				Err: fmt.Errorf("was used before for a different batch")})
			return
		}
		if !s.sameOptions(ctx, run, in, opts) {
			writeError(c, &errs.Error{Op: "gateway.postBatch", Kind: errs.Conflict, Field: "idempotency_key",
				Err: fmt.Errorf("was used before for the same batch with a different budget or filters")})
			return
		}
		status = run.Status
	}
	c.Header("Location", "/v1/batches/"+id)
	c.JSON(http.StatusAccepted, api.Accepted{ID: id, Status: status})
}

// readBatch decodes a batch from JSON or JSON Lines and checks every
// question.
func (s *Server) readBatch(c *gin.Context) (api.BatchRequest, error) {
	const op = "gateway.batch"
	var req api.BatchRequest
	mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	switch {
	case jsonLines[mt]:
		body, err := readBody(c, s.opts.MaxBodyBytes)
		if err != nil {
			return req, err
		}
		if req.Questions, err = decodeJSONL(body); err != nil {
			return req, err
		}
	default:
		if err := decodeJSON(c, s.opts.MaxBodyBytes, &req); err != nil {
			return req, err
		}
	}
	switch n := len(req.Questions); {
	case n == 0:
		return req, errs.FieldError(op, "questions", "is required: give at least one question")
	case n > s.opts.Batch.MaxQuestions:
		return req, errs.FieldError(op, "questions", fmt.Sprintf("has %d questions; the limit is %d", n, s.opts.Batch.MaxQuestions))
	}
	seen := make(map[string]int, len(req.Questions))
	for i := range req.Questions {
		q := &req.Questions[i]
		field := fmt.Sprintf("questions[%d]", i)
		if q.ID == "" {
			q.ID = strconv.Itoa(i + 1)
		}
		if len(q.ID) > maxBatchIDLen {
			return req, errs.FieldError(op, field+".id", fmt.Sprintf("is %d bytes; the limit is %d", len(q.ID), maxBatchIDLen))
		}
		if j, dup := seen[q.ID]; dup {
			return req, errs.FieldError(op, field+".id", fmt.Sprintf("%q is also the id of questions[%d]", q.ID, j))
		}
		seen[q.ID] = i
		if err := validateQuestion(field+".question", q.Question); err != nil {
			return req, err
		}
	}
	return req, nil
}

// decodeJSONL reads one BatchQuestion per non-blank line.
func decodeJSONL(body []byte) (api.BatchQuestions, error) {
	var out api.BatchQuestions
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), len(body)+1)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var q api.BatchQuestion
		if err := api.StrictDecode(b, &q); err != nil {
			err = api.PrefixField(fmt.Sprintf("questions[%d]", len(out)), err)
			return nil, errs.FieldError("gateway.jsonl", errs.FieldOf(err), fmt.Sprintf("line %d: %s", line, errs.Reason(err)))
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, errs.FieldError("gateway.jsonl", "body", err.Error())
	}
	return out, nil
}

func (s *Server) getBatch(c *gin.Context) {
	run, ok := s.ownRun(c, KindBatch)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	resp := api.BatchResponse{ID: run.ID, Status: run.Status}
	var st workflows.BatchStatus
	switch run.Status {
	case api.Running:
		qctx, qcancel := context.WithTimeout(ctx, 2*queryTimeout)
		defer qcancel()
		var err error
		if st, err = s.opts.Engine.BatchStatus(qctx, run.ID); err != nil {
			// Without a worker the batch cannot say more than that it runs.
			c.Error(err) //nolint:errcheck // recorded for the access log
			c.JSON(http.StatusOK, resp)
			return
		}
	case api.Completed:
		res, status, err := s.opts.Engine.BatchResult(ctx, run.ID)
		if err != nil {
			writeError(c, err)
			return
		}
		resp.Status, st = status, res.Status
		if st.State == workflows.BatchCancelled {
			resp.Status = api.Cancelled
		}
	default:
		c.JSON(http.StatusOK, resp)
		return
	}
	resp.Runs = st.Runs
	resp.StartedAt = &st.StartedAt
	resp.Aggregate = &st.Aggregate
	c.JSON(http.StatusOK, resp)
}

func (s *Server) deleteBatch(c *gin.Context) {
	s.cancelRun(c, KindBatch)
}

func (s *Server) getBatchResults(c *gin.Context) {
	const op = "gateway.batchResults"
	offset, err := decodeCursor(c.Query("cursor"))
	if err != nil {
		writeError(c, err)
		return
	}
	limit := api.DefaultPageSize
	if v := c.Query("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > api.MaxPageSize {
			writeError(c, errs.FieldError(op, "limit", fmt.Sprintf("want 1..%d, got %q", api.MaxPageSize, v)))
			return
		}
	}
	run, ok := s.ownRun(c, KindBatch)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	var items []workflows.BatchItem
	total := -1
	switch run.Status {
	case api.Running:
		// One more than the page tells whether another page follows. A
		// query needs a worker; without one, answer soon rather than hang.
		qctx, qcancel := context.WithTimeout(ctx, 2*queryTimeout)
		items, err = s.opts.Engine.BatchItems(qctx, run.ID, offset, limit+1)
		qcancel()
		if err != nil {
			writeError(c, err)
			return
		}
	case api.Completed:
		res, _, err := s.opts.Engine.BatchResult(ctx, run.ID)
		if err != nil {
			writeError(c, err)
			return
		}
		total = len(res.Items)
		if offset < total {
			items = res.Items[offset:min(offset+limit+1, total)]
		}
	default:
		writeError(c, errs.Errorf(op, errs.Conflict, "batch %s failed; it has no results", run.ID))
		return
	}
	out := api.BatchResults{ID: run.ID, Items: make([]api.BatchResultItem, 0, min(len(items), limit))}
	if len(items) > limit {
		items = items[:limit]
		out.NextCursor = encodeCursor(offset + limit)
	}
	for _, it := range items {
		out.Items = append(out.Items, api.BatchResultItem{
			ID: it.ID, QuestionID: it.QuestionID, Status: it.Status, StopReason: it.StopReason,
			LatencyMS: it.LatencyMS, Usage: it.Usage, Error: it.Error,
		})
	}
	if err := s.fillAnswers(ctx, principal(c).Groups, out.Items); err != nil {
		writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// fillAnswers reads the answers of the done items from their own runs,
// eight at a time: the batch keeps ids and numbers, not answers.
// An answer that cites documents the caller can no longer see is withheld:
// the item keeps its status, with the reason as its error.
func (s *Server) fillAnswers(ctx context.Context, groups []string, items []api.BatchResultItem) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for i := range items {
		it := &items[i]
		if it.Status != wire.ItemDone {
			continue
		}
		g.Go(func() error {
			res, st, err := s.opts.Engine.Result(ctx, it.QuestionID, "")
			if err != nil {
				return err
			}
			if st != api.Completed {
				return nil
			}
			if err := s.checkCited(ctx, groups, &res); errors.Is(err, ErrWithheld) {
				it.Error = "withheld: " + ErrWithheld.Error()
				return nil
			} else if err != nil {
				return err
			}
			it.Answer = res.Answer
			it.Citations = citations(res.Citations)
			return nil
		})
	}
	return g.Wait()
}

// Cursors are opaque to clients: base64url of "o<offset>".
func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("o" + strconv.Itoa(offset)))
}

func decodeCursor(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	bad := errs.FieldError("gateway.cursor", "cursor", "is not a cursor this API issued")
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil || !strings.HasPrefix(string(b), "o") {
		return 0, bad
	}
	n, err := strconv.Atoi(string(b[1:]))
	if err != nil || n < 0 {
		return 0, bad
	}
	return n, nil
}
