package gateway

import (
	"log/slog"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
)

// Gin context keys.
const (
	ctxRequestID = "assay.request_id"
	ctxPrincipal = "assay.principal"
	ctxRunID     = "assay.run" // the run a request is about, for the access log
)

// HeaderRequestID carries the request id in and out.
const HeaderRequestID = "X-Request-Id"

// HeaderPrincipal tells a client which principal its key stands for.
const HeaderPrincipal = "X-Assay-Principal"

// validRequestID accepts client request ids that are safe to log and echo.
var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestID takes the client's X-Request-Id when it is well formed and
// makes one otherwise, and bounds the request body.
func (s *Server) requestID(c *gin.Context) {
	id := c.GetHeader(HeaderRequestID)
	if !validRequestID.MatchString(id) {
		id = uuid.NewString()
	}
	c.Set(ctxRequestID, id)
	c.Header(HeaderRequestID, id)
	if c.Request.Body != nil {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.opts.MaxBodyBytes)
	}
	c.Next()
}

// accessLog writes one slog line per request: at debug for the probes,
// error for 5xx (with the internal error), info otherwise.
func (s *Server) accessLog(c *gin.Context) {
	start := time.Now()
	c.Next()
	status := c.Writer.Status()
	level := slog.LevelInfo
	switch {
	case status >= 500:
		level = slog.LevelError
	case c.FullPath() == "/healthz" || c.FullPath() == "/readyz" || c.FullPath() == "/metrics":
		level = slog.LevelDebug
	}
	attrs := []slog.Attr{
		slog.String("request_id", c.GetString(ctxRequestID)),
		slog.String("method", c.Request.Method),
		slog.String("path", c.Request.URL.Path),
		slog.String("route", c.FullPath()),
		slog.Int("status", status),
		slog.Float64("ms", float64(time.Since(start).Microseconds())/1000),
		slog.Int("bytes", max(c.Writer.Size(), 0)),
		slog.String("client", c.ClientIP()),
	}
	if p, ok := c.Get(ctxPrincipal); ok {
		attrs = append(attrs, slog.String("principal", p.(auth.Principal).ID))
	}
	if id := c.GetString(ctxRunID); id != "" {
		attrs = append(attrs, slog.String("run", id))
	}
	if len(c.Errors) > 0 {
		attrs = append(attrs, slog.String("error", c.Errors.String()))
	}
	s.opts.Logger.LogAttrs(c.Request.Context(), level, "http", attrs...)
}

// observe counts requests and their latency by route template, so ids in
// paths do not explode the label set.
func (s *Server) observe(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	method := metricMethod(c.Request.Method)
	s.metrics.requests.WithLabelValues(method, route, strconv.Itoa(c.Writer.Status())).Inc()
	s.metrics.latency.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
}

// metricMethod folds request methods into a fixed set: the server accepts
// any method token, and a label per token would let anyone grow /metrics
// without bound.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
		http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

// recoverJSON turns a panic into a logged 500 with a JSON body instead of
// a dropped connection.
func (s *Server) recoverJSON(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			s.opts.Logger.Error("panic in handler", "panic", p, "path", c.Request.URL.Path, "request_id", c.GetString(ctxRequestID))
			c.AbortWithStatusJSON(http.StatusInternalServerError, api.ErrorBody{Error: api.ErrorDetail{
				Code: string(errs.Internal), Message: "internal error", RequestID: c.GetString(ctxRequestID),
			}})
		}
	}()
	c.Next()
}

// authenticate resolves the caller's principal from its API key. Nothing
// in the request but the key decides who the caller is.
func (s *Server) authenticate(c *gin.Context) {
	p, err := s.opts.Keyring.Authenticate(c.GetHeader("Authorization"))
	if err != nil {
		c.Header("WWW-Authenticate", `Bearer realm="assay"`)
		writeError(c, err)
		return
	}
	c.Set(ctxPrincipal, p)
	c.Header(HeaderPrincipal, p.ID)
	c.Next()
}

// rateLimit spends one request of the principal's budget, answering 429
// with Retry-After (whole seconds, rounded up) when it is spent.
func (s *Server) rateLimit(c *gin.Context) {
	p := principal(c)
	ok, wait := s.opts.Keyring.Allow(p.ID, s.opts.Now())
	if !ok {
		secs := int(math.Ceil(wait.Seconds()))
		c.Header("Retry-After", strconv.Itoa(max(secs, 1)))
		writeError(c, errs.Errorf("gateway.rateLimit", errs.RateLimited, "rate limit of key %q spent; retry in %ds", p.ID, max(secs, 1)))
		return
	}
	c.Next()
}

// principal is the authenticated caller; authenticate set it.
func principal(c *gin.Context) auth.Principal {
	p, _ := c.Get(ctxPrincipal)
	return p.(auth.Principal)
}
