package gateway

import (
	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/contrib/instrumentation/github.com/gin-gonic/gin/otelgin"
	"go.opentelemetry.io/otel/trace"

	"github.com/assay-rag/assay/internal/tracing"
)

// traced starts a request's span (otelgin: `POST /v1/questions`, with the
// W3C traceparent of the caller as its parent) when tracing is on
// (package tracing), with the request id and, once known, the principal
// and the run; the probes and /metrics are not traced. The span's context
// is the request's, so the Temporal client's StartWorkflow span is its
// child.
func (s *Server) traced() gin.HandlerFunc {
	mw := otelgin.Middleware(tracing.ServiceName, otelgin.WithGinFilter(func(c *gin.Context) bool {
		switch c.FullPath() {
		case "/healthz", "/readyz", "/metrics":
			return false
		}
		return true
	}))
	return func(c *gin.Context) {
		if !tracing.Enabled() {
			c.Next()
			return
		}
		mw(c) // calls c.Next
	}
}

// annotate adds the request's ids to its span, after the handlers ran.
func annotate(c *gin.Context) {
	c.Next()
	span := trace.SpanFromContext(c.Request.Context())
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(tracing.AttrRequestID.String(c.GetString(ctxRequestID)))
	if _, ok := c.Get(ctxPrincipal); ok {
		span.SetAttributes(tracing.AttrPrincipal.String(principal(c).ID))
	}
	if id := c.GetString(ctxRunID); id != "" {
		span.SetAttributes(tracing.AttrRun.String(id))
	}
}
