package gateway

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
)

// The trust boundary of the gateway: it answers its own page and its own
// clients, not other websites a user's browser visits. Three checks, each
// a 403 in the API's error shape naming the reason:
//
//   - Host: a gateway listening on a loopback address answers only
//     loopback Host names ("localhost", 127.0.0.1, [::1]) and
//     Options.AllowedHosts, so a DNS-rebinding page (evil.example
//     resolving to 127.0.0.1) cannot read its answers. With AllowedHosts
//     set, every gateway checks Host.
//   - Origin: a browser request to the API from another origin
//     (Sec-Fetch-Site: cross-site, or an Origin that is neither the
//     gateway's own nor in Options.AllowedOrigins) is refused. Clients
//     that are not browsers send neither header and are not affected.
//   - Content type: a request with a body must say it is JSON or JSON
//     Lines (415 otherwise), so no HTML form or no-cors fetch, which can
//     only send text/plain and form types, can make one.
//
// CORS is off unless AllowedOrigins is set; then those origins, and only
// they, get CORS headers and preflight answers.

// codeForbidden and codeMediaType are the error codes of the boundary's
// refusals; the field names the header at fault.
const (
	codeForbidden = string(errs.Forbidden)
	codeMediaType = "unsupported_media_type"
)

// refuse answers status with an API error body.
func refuse(c *gin.Context, status int, code, field, msg string) {
	if isChatRoute(c) { // OpenAI's error shape (chat.go)
		c.AbortWithStatusJSON(status, api.OpenAIError{Error: api.OpenAIErrorDetail{
			Message: field + ": " + msg, Type: openAIErrorType(status), Param: &field, Code: &code}})
		return
	}
	c.AbortWithStatusJSON(status, api.ErrorBody{Error: api.ErrorDetail{
		Code: code, Field: field, Message: msg, RequestID: c.GetString(ctxRequestID),
	}})
}

// isLoopbackHost reports whether host (no port) names this machine only.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ListensOnLoopback reports whether a listen address (host:port) is
// reachable from this machine only. ":8080" and "0.0.0.0:8080" are not.
func ListensOnLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return host != "" && isLoopbackHost(host)
}

// hostOnly is a Host header without its port.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// checkHost refuses Host names a loopback gateway (or one with
// AllowedHosts) does not answer to.
func (s *Server) checkHost(c *gin.Context) {
	if !s.hostCheck {
		c.Next()
		return
	}
	h := strings.ToLower(hostOnly(c.Request.Host))
	if isLoopbackHost(h) || slices.Contains(s.opts.AllowedHosts, h) {
		c.Next()
		return
	}
	refuse(c, http.StatusForbidden, codeForbidden, "host",
		"Host "+quoteBounded(c.Request.Host)+" is not a name of this gateway; add it to http.allowed_hosts if it is (a loopback gateway answers only localhost names, against DNS rebinding)")
}

// quoteBounded quotes a request's header value for a message, at most
// 100 bytes of it.
func quoteBounded(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return strconv.Quote(s)
}

// allowedOrigin reports whether origin was configured in AllowedOrigins.
func (s *Server) allowedOrigin(origin string) bool {
	return origin != "" && slices.Contains(s.opts.AllowedOrigins, strings.TrimSuffix(origin, "/"))
}

// ownOrigin reports whether origin names the host the request was sent
// to: the gateway's own page.
func ownOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, host)
}

// sameOrigin refuses API requests a browser sends on behalf of another
// website, and answers CORS for the configured origins.
func (s *Server) sameOrigin(c *gin.Context) {
	origin := c.GetHeader("Origin")
	site := c.GetHeader("Sec-Fetch-Site")
	switch {
	case s.allowedOrigin(origin):
		s.cors(c, origin)
	case origin != "" && !ownOrigin(origin, c.Request.Host):
		refuse(c, http.StatusForbidden, codeForbidden, "origin",
			"cross-site request from origin "+quoteBounded(origin)+" refused; a browser page on another site may call this API only when its origin is in http.allowed_origins")
		return
	case site == "cross-site":
		refuse(c, http.StatusForbidden, codeForbidden, "sec-fetch-site",
			"cross-site request refused (Sec-Fetch-Site: cross-site); a browser page on another site may call this API only when its origin is in http.allowed_origins")
		return
	}
	c.Next()
}

// preflight answers a CORS preflight (OPTIONS with
// Access-Control-Request-Method) of the API from an allowed origin; every
// other OPTIONS request goes on to the 405 it always had, without CORS
// headers, so browsers refuse cross-origin calls.
func (s *Server) preflight(c *gin.Context) {
	r := c.Request
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" ||
		!strings.HasPrefix(r.URL.Path, "/v1/") || !s.allowedOrigin(r.Header.Get("Origin")) {
		c.Next()
		return
	}
	s.cors(c, r.Header.Get("Origin"))
	c.AbortWithStatus(http.StatusNoContent)
}

// checkOrigins validates AllowedOrigins: each scheme://host[:port], no
// path; it returns them without a trailing slash.
func checkOrigins(origins []string) ([]string, error) {
	out := make([]string, 0, len(origins))
	for i, o := range origins {
		o = strings.TrimSuffix(strings.TrimSpace(o), "/")
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			return nil, fmt.Errorf("gateway: allowed origins[%d] %q: want scheme://host[:port], e.g. https://portal.example", i, origins[i])
		}
		out = append(out, o)
	}
	return out, nil
}

// cors sets the CORS response headers for an allowed origin.
func (s *Server) cors(c *gin.Context, origin string) {
	h := c.Writer.Header()
	h.Set("Access-Control-Allow-Origin", strings.TrimSuffix(origin, "/"))
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", "Location, Retry-After, X-Request-Id, "+HeaderPrincipal)
	if c.Request.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id")
		h.Set("Access-Control-Max-Age", "600")
	}
}

// jsonBody refuses a request body that is not declared JSON or JSON Lines.
// A body-less request (DELETE, or a POST with an empty body, which then
// fails as invalid JSON) needs no type.
func jsonBody(c *gin.Context) {
	r := c.Request
	if r.ContentLength == 0 || r.Method == http.MethodGet || r.Method == http.MethodHead {
		c.Next()
		return
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json") || jsonLines[mt]):
		c.Next()
	default:
		refuse(c, http.StatusUnsupportedMediaType, codeMediaType, "content-type",
			"Content-Type "+quoteBounded(r.Header.Get("Content-Type"))+" is not accepted; send application/json (or, for batches, application/jsonl)")
	}
}

// jsonLines are the media types of a JSON Lines batch.
var jsonLines = map[string]bool{"application/jsonl": true, "application/x-ndjson": true, "application/x-jsonlines": true}
