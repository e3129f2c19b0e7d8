package gateway

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// Chunks reads chunk texts by id: the index's chunk store. Chunks fails
// with errs.NotFound for an id it does not hold.
type Chunks interface {
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
}

// getSources returns the passages a finished run used: the labelled
// sources of its generation, each loaded from the chunk store and checked
// against the caller's groups as they are now, not as they were when the
// run ran. A run that generated nothing (not found, refused, ...) used no
// passages.
func (s *Server) getSources(c *gin.Context) {
	run, ok := s.ownRun(c, KindQuestion)
	if !ok {
		return
	}
	if run.Status == api.Running {
		writeError(c, errs.Errorf("gateway.sources", errs.Conflict, "question %s is still running; its sources are known once it ends", run.ID))
		return
	}
	if s.opts.Chunks == nil {
		noPassages(c)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	res, st, err := s.opts.Engine.Result(ctx, run.ID, "")
	if err != nil {
		writeError(c, err)
		return
	}
	out := api.SourcesResponse{ID: run.ID, Sources: []api.SourceResponse{}}
	gen := res.Trace.Generation
	if st != api.Completed || gen == nil {
		c.JSON(http.StatusOK, out)
		return
	}
	cited := make(map[string]bool, len(res.Citations))
	for _, ct := range res.Citations {
		cited[ct.Label] = true
	}
	groups := principal(c).Groups
	ids := make([]string, len(gen.Sources))
	for i, lc := range gen.Sources {
		ids[i] = lc.ChunkID
	}
	chunks, err := readChunks(ctx, s.opts.Chunks, ids)
	if errs.Is(errs.Unavailable, err) {
		c.Error(err) //nolint:errcheck // the cause (Redis's address, a path) is logged, not sent
		unreadPassages(c)
		return
	}
	if err != nil {
		writeError(c, err)
		return
	}
	for i, lc := range gen.Sources {
		ch := chunks[i]
		if ch == nil || !ch.VisibleTo(groups) {
			out.Withheld++
			continue
		}
		out.Sources = append(out.Sources, api.SourceResponse{
			Label: lc.Label, ChunkID: ch.ID, DocID: ch.DocID, Title: ch.Title, Status: ch.Status,
			Updated: ch.Updated, URL: ch.URL, Text: ch.Text, Cited: cited[lc.Label],
		})
	}
	c.JSON(http.StatusOK, out)
}

// readChunks reads the chunks with the given ids in one call, nil where
// the store no longer holds one. Only when some id is gone from a rebuilt
// index (the one call fails NotFound) does it read them one at a time, so
// that chunk withholds its passage, not the others.
func readChunks(ctx context.Context, store Chunks, ids []string) ([]*corpus.Chunk, error) {
	out := make([]*corpus.Chunk, len(ids))
	all, err := store.Chunks(ctx, ids)
	if err == nil && len(all) == len(ids) {
		for i := range all {
			out[i] = &all[i]
		}
		return out, nil
	}
	if err != nil && !errs.Is(errs.NotFound, err) {
		return nil, err
	}
	for i, id := range ids {
		one, err := store.Chunks(ctx, []string{id})
		if errs.Is(errs.NotFound, err) || (err == nil && len(one) != 1) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[i] = &one[0]
	}
	return out, nil
}

// ErrWithheld is the error (kind errs.Forbidden, field "answer") of a
// stored answer withheld because it cites a document the caller can no
// longer see; errors.Is finds it.
var ErrWithheld = errors.New("the answer cites documents this key can no longer see (their ACL or the key's groups changed since it ran, or they left the index); ask again")

// checkCited withholds a stored answer whose cited documents the caller
// can no longer see: each cited chunk is read from the chunk store and
// checked against the caller's groups as they are now. A gateway without
// a chunk store cannot tell and replays the answer (docs/operations.md).
func (s *Server) checkCited(ctx context.Context, groups []string, res *wire.AnswerResult) error {
	if s.opts.Chunks == nil || res == nil || len(res.Citations) == 0 {
		return nil
	}
	ids := make([]string, len(res.Citations))
	for i, ct := range res.Citations {
		ids[i] = ct.ChunkID
	}
	chunks, err := readChunks(ctx, s.opts.Chunks, ids)
	if err != nil {
		return err
	}
	for _, ch := range chunks {
		if ch == nil || !ch.VisibleTo(groups) {
			return &errs.Error{Op: "gateway.checkCited", Kind: errs.Forbidden, Field: "answer", Err: ErrWithheld}
		}
	}
	return nil
}

// unreadPassages answers 503, with Retry-After, when the gateway has a
// chunk store that cannot be read now: its index is not built yet, or
// cannot be confirmed as the current version (Redis does not answer: a
// request fails closed rather than read a version whose ACLs may be
// stale; round 48).
func unreadPassages(c *gin.Context) {
	c.Header("Retry-After", retryAfterSeconds)
	c.AbortWithStatusJSON(http.StatusServiceUnavailable, api.ErrorBody{Error: api.ErrorDetail{
		Code: string(errs.Unavailable), RequestID: c.GetString(ctxRequestID),
		Message: "this gateway cannot read passages now: its index is not built yet or does not answer (index.dir, or redis.addr and index.name, name the worker's index); try again",
	}})
}

// noPassages answers 503 saying why: a fact of the deployment, not an
// internal detail.
func noPassages(c *gin.Context) {
	c.AbortWithStatusJSON(http.StatusServiceUnavailable, api.ErrorBody{Error: api.ErrorDetail{
		Code: string(errs.Unavailable), RequestID: c.GetString(ctxRequestID),
		Message: "this gateway cannot read passages: it has no index (start it with index.dir set to the worker's index)",
	}})
}
