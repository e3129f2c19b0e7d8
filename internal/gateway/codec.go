package gateway

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/converter"
)

// The remote payload codec: with encrypted histories
// (temporal.payload_keys) Temporal holds ciphertext, and operators read
// histories through the gateway's /codec/encode and /codec/decode, which
// speak Temporal's remote codec protocol (the SDK's handler): the Web UI
// (its codec endpoint setting, or the dev server's --ui-codec-endpoint)
// and `temporal workflow show --codec-endpoint URL/codec --codec-auth
// "Bearer KEY"`. They need an API key, like /v1 (none on an anonymous
// gateway), in Options.CodecGroup when that is set, and a JSON body; the one browser origin allowed to call them
// from another site is the Temporal Web UI's (Options.CodecOrigin), which
// gets CORS. They are Temporal's protocol, not assay's API, so
// openapi.json leaves them out.

// maxCodecBody bounds a codec request: a page of a history's payloads,
// each at most Temporal's 2 MiB blob limit by default.
const maxCodecBody = 16 << 20

// codecRoutes registers /codec when the gateway has a codec.
func (s *Server) codecRoutes() {
	if s.opts.Codec == nil {
		return
	}
	e := s.engine
	h := gin.WrapH(http.MaxBytesHandler(converter.NewPayloadCodecHTTPHandler(s.opts.Codec), maxCodecBody))
	g := e.Group("/codec", s.codecOrigin, jsonBody, s.authenticate, s.codecGroup)
	g.POST("/encode", h)
	g.POST("/decode", h)
	e.OPTIONS("/codec/:op", s.codecPreflight)
}

// codecGroup refuses a caller without Options.CodecGroup, when set: the
// codec decrypts any run's history, not only the caller's.
func (s *Server) codecGroup(c *gin.Context) {
	g := s.opts.CodecGroup
	if p := principal(c); g != "" && !slices.Contains(p.Groups, g) {
		refuse(c, http.StatusForbidden, codeForbidden, "authorization",
			"principal "+quoteBounded(p.ID)+" is not in group "+quoteBounded(g)+", which the codec endpoint needs (http.codec_group): it decrypts every run's history")
		return
	}
	c.Next()
}

// codecUIOrigin reports whether origin is the Temporal Web UI's.
func (s *Server) codecUIOrigin(origin string) bool {
	return origin != "" && s.opts.CodecOrigin != "" && strings.TrimSuffix(origin, "/") == s.opts.CodecOrigin
}

// codecOrigin answers CORS for the Temporal Web UI and refuses every
// other cross-site browser request, as sameOrigin does for /v1.
func (s *Server) codecOrigin(c *gin.Context) {
	origin := c.GetHeader("Origin")
	switch {
	case s.codecUIOrigin(origin):
		s.codecCORS(c)
	case origin != "" && !ownOrigin(origin, c.Request.Host):
		refuse(c, http.StatusForbidden, codeForbidden, "origin",
			"cross-site request from origin "+quoteBounded(origin)+" refused; only the Temporal Web UI (http.temporal_ui_url) may call the codec endpoint from another site")
		return
	case c.GetHeader("Sec-Fetch-Site") == "cross-site":
		refuse(c, http.StatusForbidden, codeForbidden, "sec-fetch-site",
			"cross-site request refused (Sec-Fetch-Site: cross-site); only the Temporal Web UI (http.temporal_ui_url) may call the codec endpoint from another site")
		return
	}
	c.Next()
}

// codecPreflight answers the Web UI's CORS preflight; any other OPTIONS
// request gets 403 without CORS headers, so browsers refuse the call.
func (s *Server) codecPreflight(c *gin.Context) {
	if !s.codecUIOrigin(c.GetHeader("Origin")) || c.GetHeader("Access-Control-Request-Method") == "" {
		refuse(c, http.StatusForbidden, codeForbidden, "origin",
			"preflight refused; only the Temporal Web UI (http.temporal_ui_url) may call the codec endpoint from another site")
		return
	}
	s.codecCORS(c)
	c.AbortWithStatus(http.StatusNoContent)
}

// codecCORS sets the CORS headers of the Web UI's codec requests: it
// sends the namespace in X-Namespace and, when told to pass its access
// token, Authorization.
func (s *Server) codecCORS(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Access-Control-Allow-Origin", s.opts.CodecOrigin)
	h.Add("Vary", "Origin")
	if c.Request.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "POST")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Namespace")
		h.Set("Access-Control-Max-Age", "600")
	}
}
