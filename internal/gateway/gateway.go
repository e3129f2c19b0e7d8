// Package gateway is assay's HTTP API, on Gin: clients submit questions and
// poll for results. It validates input, names the offending field in every
// 4xx, and maps domain error kinds to HTTP statuses in one table.
package gateway

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/workflows"
)

// Status is the coarse state of a question run.
type Status string

// Run states.
const (
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
)

// Questions is what the gateway needs from the workflow engine.
type Questions interface {
	// Start starts the answer run id. Starting an id that exists is not an
	// error: the run is not started twice.
	Start(ctx context.Context, id string, in workflows.AnswerInput) error
	// Result reports a run's state and, once completed, its result. An
	// unknown id is an errs.NotFound error.
	Result(ctx context.Context, id string) (Status, *workflows.AnswerResult, error)
}

// Defaults fill what a request leaves out.
type Defaults struct {
	Budget    workflows.Budget
	Threshold float64
	TopK      int
}

// Options configure a Server.
type Options struct {
	Questions    Questions
	Defaults     Defaults
	MaxBodyBytes int64
	Logger       *slog.Logger
}

// Server is the HTTP API.
type Server struct {
	opts   Options
	engine *gin.Engine
}

// New builds the API. Callers set Gin's mode before calling it.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxBodyBytes == 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	s := &Server{opts: opts, engine: gin.New()}
	s.engine.Use(s.recoverJSON)
	s.engine.NoRoute(func(c *gin.Context) {
		writeError(c, errs.Errorf("gateway", errs.NotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
	})
	s.engine.HandleMethodNotAllowed = true
	s.engine.NoMethod(func(c *gin.Context) {
		c.JSON(http.StatusMethodNotAllowed, errorBody{Error: apiError{Code: "method_not_allowed", Message: c.Request.Method + " is not allowed here"}})
	})
	v1 := s.engine.Group("/v1")
	v1.POST("/questions", s.postQuestion)
	v1.GET("/questions/:id", s.getQuestion)
	s.engine.GET("/healthz", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) })
	return s
}

// Handler returns the http.Handler to serve.
func (s *Server) Handler() http.Handler { return s.engine }

// recoverJSON turns a panic into a logged 500 with a JSON body instead of
// a dropped connection.
func (s *Server) recoverJSON(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			s.opts.Logger.Error("panic in handler", "panic", p, "path", c.Request.URL.Path)
			c.AbortWithStatusJSON(http.StatusInternalServerError, errorBody{Error: apiError{Code: string(errs.Internal), Message: "internal error"}})
		}
	}()
	c.Next()
}

// QuestionRequest is the body of POST /v1/questions.
type QuestionRequest struct {
	Question string `json:"question"`
}

// QuestionResponse is the representation of one question run.
type QuestionResponse struct {
	ID         string               `json:"id"`
	Status     Status               `json:"status"`
	StopReason workflows.StopReason `json:"stop_reason,omitempty"`
	Answer     string               `json:"answer,omitempty"`
	Citations  []CitationResponse   `json:"citations"`
}

// CitationResponse is one cited source.
type CitationResponse struct {
	Label string `json:"label"`
	DocID string `json:"doc_id"`
	Title string `json:"title"`
	URL   string `json:"url,omitempty"`
}

func (s *Server) postQuestion(c *gin.Context) {
	var req QuestionRequest
	if err := decodeJSON(c, s.opts.MaxBodyBytes, &req); err != nil {
		writeError(c, err)
		return
	}
	if err := validateQuestion(req.Question); err != nil {
		writeError(c, err)
		return
	}
	id := uuid.NewString()
	d := s.opts.Defaults
	in := workflows.AnswerInput{
		RequestID: id,
		Question:  req.Question,
		Principal: auth.Anonymous(),
		Budget:    d.Budget,
		Threshold: d.Threshold,
		TopK:      d.TopK,
	}
	if err := s.opts.Questions.Start(c.Request.Context(), id, in); err != nil {
		writeError(c, err)
		return
	}
	c.Header("Location", "/v1/questions/"+id)
	c.JSON(http.StatusAccepted, gin.H{"id": id})
}

func (s *Server) getQuestion(c *gin.Context) {
	id := c.Param("id")
	if _, err := uuid.Parse(id); err != nil {
		writeError(c, errs.Errorf("gateway.getQuestion", errs.NotFound, "no question %q", id))
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), 10*time.Second)
	defer cancel()
	status, res, err := s.opts.Questions.Result(ctx, id)
	if err != nil {
		writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, questionResponse(id, status, res))
}

func questionResponse(id string, status Status, res *workflows.AnswerResult) QuestionResponse {
	out := QuestionResponse{ID: id, Status: status, Citations: []CitationResponse{}}
	if res == nil {
		return out
	}
	out.StopReason = res.StopReason
	out.Answer = res.Answer
	out.Citations = citations(res.Citations)
	return out
}

func citations(cs []generate.Citation) []CitationResponse {
	out := make([]CitationResponse, 0, len(cs))
	for _, c := range cs {
		out = append(out, CitationResponse{Label: c.Label, DocID: c.DocID, Title: c.Title, URL: c.URL})
	}
	return out
}

// ErrShutdown is returned by Serve after a clean shutdown.
var ErrShutdown = errors.New("gateway shut down")
