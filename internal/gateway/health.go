package gateway

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
)

// Check is one readiness dependency of /readyz.
type Check struct {
	// Name identifies the check in the /readyz body ("temporal", "index").
	Name string
	// Check returns nil when the dependency is ready; its error says why
	// not.
	Check func(ctx context.Context) error
	// Info, when set, describes what the dependency serves (the index
	// version); it lands in the /readyz body's info, after Check ran.
	Info func() string
}

// healthz says the process serves HTTP; it checks nothing else, so an
// orchestrator does not restart a gateway because Temporal is down.
func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyCacheFor is how long /readyz answers from its last result: it
// needs no key, so without a cache every probe, or anyone, could make the
// gateway call Temporal.
const readyCacheFor = time.Second

// readyCache is the last /readyz answer and when it was made.
type readyCache struct {
	mu     sync.Mutex
	at     time.Time
	status int
	body   api.Readiness
}

// readyz answers the readiness checks' result, made at most once a second
// (concurrent probes wait for the one that runs them).
func (s *Server) readyz(c *gin.Context) {
	rc := &s.ready
	rc.mu.Lock()
	now := s.opts.Now()
	if rc.at.IsZero() || now.Sub(rc.at) >= readyCacheFor || now.Before(rc.at) {
		rc.status, rc.body = s.runChecks(c)
		rc.at = now
	}
	status, body := rc.status, rc.body
	rc.mu.Unlock()
	// What each dependency serves (the index version) is read now, not
	// cached: it is in process and changes when an index is swapped in.
	body.Info = nil
	for _, ch := range s.opts.Ready {
		if ch.Info != nil {
			if body.Info == nil {
				body.Info = map[string]string{}
			}
			body.Info[ch.Name] = ch.Info()
		}
	}
	if status != http.StatusOK {
		c.Header("Retry-After", retryAfterSeconds)
	}
	c.JSON(status, body)
}

// runChecks runs every readiness check at once, each bounded to 2s: 200
// when all pass, 503 naming the failures otherwise. It needs no key, so a
// failing check shows only a short code (its error kind, or "fail"); the
// error itself, which may name hosts, paths or queues, goes to the log.
func (s *Server) runChecks(c *gin.Context) (int, api.Readiness) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	out := api.Readiness{Status: "ready", Checks: make(map[string]string, len(s.opts.Ready))}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, ch := range s.opts.Ready {
		wg.Go(func() {
			res := "ok"
			if err := ch.Check(ctx); err != nil {
				res = checkCode(err)
				s.opts.Logger.Warn("readiness check failed", "check", ch.Name, "error", err,
					"request_id", c.GetString(ctxRequestID))
			}
			mu.Lock()
			defer mu.Unlock()
			out.Checks[ch.Name] = res
			if res != "ok" {
				out.Status = "not_ready"
			}
		})
	}
	wg.Wait()
	if out.Status != "ready" {
		return http.StatusServiceUnavailable, out
	}
	return http.StatusOK, out
}

// checkCode is what /readyz shows of a failed check: the error's kind
// ("unavailable", "not_found", ...) or "fail", never its text.
func checkCode(err error) string {
	if k := errs.KindOf(err); k != errs.Other {
		return string(k)
	}
	return "fail"
}
