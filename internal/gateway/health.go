package gateway

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
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

// Readiness is the body of /readyz.
type Readiness struct {
	Status string            `json:"status"` // ready or not_ready
	Checks map[string]string `json:"checks"` // name → "ok" or the reason
	// Info says what each dependency with something to say serves, e.g.
	// "index": the index version.
	Info map[string]string `json:"info,omitempty"`
}

// healthz says the process serves HTTP; it checks nothing else, so an
// orchestrator does not restart a gateway because Temporal is down.
func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz runs every readiness check at once, each bounded to 2s: 200 when
// all pass, 503 naming the failures otherwise.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	out := Readiness{Status: "ready", Checks: make(map[string]string, len(s.opts.Ready))}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, ch := range s.opts.Ready {
		wg.Go(func() {
			res := "ok"
			if err := ch.Check(ctx); err != nil {
				res = err.Error()
			}
			mu.Lock()
			defer mu.Unlock()
			if ch.Info != nil {
				if out.Info == nil {
					out.Info = map[string]string{}
				}
				out.Info[ch.Name] = ch.Info()
			}
			out.Checks[ch.Name] = res
			if res != "ok" {
				out.Status = "not_ready"
			}
		})
	}
	wg.Wait()
	status := http.StatusOK
	if out.Status != "ready" {
		status = http.StatusServiceUnavailable
		c.Header("Retry-After", retryAfterSeconds)
	}
	c.JSON(status, out)
}
