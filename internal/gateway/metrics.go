package gateway

import (
	"crypto/subtle"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// httpMetrics are the gateway's own Prometheus collectors. Run outcomes
// (stop reasons, tokens, cost) are counted where runs end, by the worker's
// runmetrics interceptor, once per run however often clients read them.
type httpMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) (*httpMetrics, error) {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "assay_http_requests_total",
			Help: "HTTP requests by method, route template and status code.",
		}, []string{"method", "route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "assay_http_request_duration_seconds",
			Help: "HTTP request latency by method and route template; event streams last as long as their run.",
			// From a cached read to a ?wait= of a minute.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"method", "route"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.latency} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// metricsHandler serves reg in the Prometheus text format.
func metricsHandler(reg *prometheus.Registry) gin.HandlerFunc {
	return gin.WrapH(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
}

// metricsAuth lets a request read /metrics when it bears the metrics key
// or an API key, or when the gateway is anonymous: request counts by route
// and status say how the service is used, which is not for everyone.
func (s *Server) metricsAuth(c *gin.Context) {
	header := c.GetHeader("Authorization")
	if s.opts.MetricsKey != "" {
		scheme, key, _ := strings.Cut(header, " ")
		if strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(key), []byte(s.opts.MetricsKey)) == 1 {
			c.Next()
			return
		}
	}
	if _, err := s.opts.Keyring.Authenticate(header); err != nil {
		c.Header("WWW-Authenticate", `Bearer realm="assay"`)
		writeError(c, err)
		return
	}
	c.Next()
}
