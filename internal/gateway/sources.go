package gateway

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// Chunks reads chunk texts by id: the index's chunk store. Chunks fails
// with errs.NotFound for an id it does not hold.
type Chunks interface {
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
}

// SourcesResponse is the body of GET /v1/questions/{id}/sources: the
// passages the run gave its generator, in prompt order, with their text as
// the chunk store holds it now.
type SourcesResponse struct {
	ID      string           `json:"id"`
	Sources []SourceResponse `json:"sources"`
	// Withheld counts the run's passages not shown: no longer in the
	// index, or no longer visible to the caller's groups. Which of the two
	// is not said.
	Withheld int `json:"withheld"`
}

// SourceResponse is one passage a run used.
type SourceResponse struct {
	Label   string        `json:"label"`
	ChunkID string        `json:"chunk_id"`
	DocID   string        `json:"doc_id"`
	Title   string        `json:"title"`
	Status  corpus.Status `json:"status"`
	Updated string        `json:"updated,omitempty"`
	URL     string        `json:"url,omitempty"`
	Text    string        `json:"text"`
	// Cited says whether the answer cites this passage.
	Cited bool `json:"cited"`
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
	if run.Status == Running {
		writeError(c, errs.Errorf("gateway.sources", errs.Conflict, "question %s is still running; its sources are known once it ends", run.ID))
		return
	}
	if s.opts.Chunks == nil {
		noPassages(c)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	res, st, err := s.opts.Engine.Result(ctx, run.ID)
	if err != nil {
		writeError(c, err)
		return
	}
	out := SourcesResponse{ID: run.ID, Sources: []SourceResponse{}}
	gen := res.Trace.Generation
	if st != Completed || gen == nil {
		c.JSON(http.StatusOK, out)
		return
	}
	cited := make(map[string]bool, len(res.Citations))
	for _, ct := range res.Citations {
		cited[ct.Label] = true
	}
	groups := principal(c).Groups
	for _, lc := range gen.Sources {
		// One at a time: a chunk gone from a rebuilt index withholds that
		// passage, not the others.
		chunks, err := s.opts.Chunks.Chunks(ctx, []string{lc.ChunkID})
		if errs.Is(errs.NotFound, err) || (err == nil && (len(chunks) != 1 || !chunks[0].VisibleTo(groups))) {
			out.Withheld++
			continue
		}
		if errs.Is(errs.Unavailable, err) {
			noPassages(c)
			return
		}
		if err != nil {
			writeError(c, err)
			return
		}
		ch := chunks[0]
		out.Sources = append(out.Sources, SourceResponse{
			Label: lc.Label, ChunkID: ch.ID, DocID: ch.DocID, Title: ch.Title, Status: ch.Status,
			Updated: ch.Updated, URL: ch.URL, Text: ch.Text, Cited: cited[lc.Label],
		})
	}
	c.JSON(http.StatusOK, out)
}

// noPassages answers 503 saying why: a fact of the deployment, not an
// internal detail.
func noPassages(c *gin.Context) {
	c.AbortWithStatusJSON(http.StatusServiceUnavailable, errorBody{Error: apiError{
		Code: string(errs.Unavailable), RequestID: c.GetString(ctxRequestID),
		Message: "this gateway cannot read passages: it has no index (start it with index.dir set to the worker's index)",
	}})
}
