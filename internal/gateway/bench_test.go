package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkPostQuestion measures the gateway's own cost per question —
// auth, rate limit, decoding, validation, logging, metrics — over the
// in-memory fake engine, to set against the end-to-end numbers of
// `assay bench`.
func BenchmarkPostQuestion(b *testing.B) {
	h := newHarness(b)
	body := `{"question":"how many years is the X300 Pro motor covered for","max_attempts":2}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/v1/questions", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+keyPartner)
		rec := httptest.NewRecorder()
		h.srv.Handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusAccepted {
			b.Fatalf("POST = %d %s", rec.Code, rec.Body)
		}
	}
}
