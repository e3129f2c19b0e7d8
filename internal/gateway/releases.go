package gateway

import (
	"context"
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/errs"
)

// releasesGroup refuses a caller without Options.ReleasesGroup, and
// everyone when it is empty: releases are operator data (every release's
// reason, the canary's rates over every caller's runs), not a caller's
// own runs.
func (s *Server) releasesGroup(c *gin.Context) {
	g := s.opts.ReleasesGroup
	p := principal(c)
	switch {
	case g == "":
		refuse(c, http.StatusForbidden, codeForbidden, "authorization",
			"no group may read releases on this gateway: set http.releases_group to the operators' group")
		return
	case !slices.Contains(p.Groups, g):
		refuse(c, http.StatusForbidden, codeForbidden, "authorization",
			"principal "+quoteBounded(p.ID)+" is not in group "+quoteBounded(g)+", which reading releases needs (http.releases_group): they are operator data")
		return
	}
	c.Next()
}

// getReleases answers GET /v1/releases.
func (s *Server) getReleases(c *gin.Context) {
	if s.opts.ReleaseBoard == nil {
		writeError(c, errs.Errorf("gateway.releases", errs.Unavailable, "this gateway reads no release store"))
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), readTimeout)
	defer cancel()
	r, err := s.opts.ReleaseBoard.Releases(ctx)
	if err != nil {
		writeError(c, errs.E("gateway.releases", errs.Unavailable, err))
		return
	}
	c.JSON(http.StatusOK, r)
}
