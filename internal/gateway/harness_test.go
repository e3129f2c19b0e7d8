package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/wire"
)

func TestMain(m *testing.M) {
	gin.SetMode(gin.TestMode)
	// kin-openapi decodes bodies by media type; these are plain text to it.
	for _, ct := range []string{"application/jsonl", "application/x-ndjson"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
	// An event stream is checked as the list of its events (sse_test.go).
	openapi3filter.RegisterBodyDecoder("text/event-stream", sseBodyDecoder)
	os.Exit(m.Run())
}

// The test keys and their principals.
const (
	keyPartner = "partner-key-0123456789" // brook-street: public, partners, partner:brook-street
	keyPublic  = "public-key-0123456789"  // reader: public
	keySlow    = "slow-key-0123456789"    // limited: 2 requests a minute
)

func testKeyring(t testing.TB) *auth.Keyring {
	t.Helper()
	k, err := auth.NewKeyring([]auth.Key{
		{Name: "brook-street", SHA256: auth.Hash(keyPartner), Groups: []string{"public", "partners", "partner:brook-street"}},
		{Name: "reader", SHA256: auth.Hash(keyPublic), Groups: []string{"public"}},
		{Name: "limited", SHA256: auth.Hash(keySlow), Groups: []string{"public"}, RatePerMinute: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// harness is a gateway over a fakeEngine. Every response it sees is
// checked against the OpenAPI document: status documented, body of the
// documented shape.
type harness struct {
	t      testing.TB
	srv    *Server
	eng    *fakeEngine
	log    *syncBuffer
	router routers.Router
	now    time.Time
	mu     sync.Mutex
	// allow5xx lets a test expect a 5xx from a healthy engine.
	allow5xx bool
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func loadOpenAPI(t testing.TB) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPI)
	if err != nil {
		t.Fatalf("openapi.json does not parse: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.json is not valid OpenAPI 3: %v", err)
	}
	return doc
}

func newHarness(t testing.TB, edit ...func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t, eng: newFakeEngine(), log: &syncBuffer{}, now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
	opts := Options{
		Engine:  h.eng,
		Keyring: testKeyring(t),
		Template: wire.AnswerInput{
			Budget:    wire.Budget{MaxAttempts: 3, Deadline: 2 * time.Minute},
			Threshold: 0.5, TopK: 5,
		},
		Batch:     BatchLimits{Concurrency: 4, ContinueAfter: 500, MaxQuestions: 10},
		MaxWait:   5 * time.Second,
		Logger:    slog.New(slog.NewJSONHandler(h.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:       func() time.Time { h.mu.Lock(); defer h.mu.Unlock(); return h.now },
		Heartbeat: time.Hour,
	}
	for _, e := range edit {
		e(&opts)
	}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.srv = srv
	r, err := legacy.NewRouter(loadOpenAPI(t))
	if err != nil {
		t.Fatal(err)
	}
	h.router = r
	return h
}

// resp is a recorded response.
type resp struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r resp) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("body %s: %v", r.Body, err)
	}
}

// errorOf decodes an error body.
func (r resp) errorOf(t *testing.T) api.ErrorDetail {
	t.Helper()
	var eb api.ErrorBody
	r.decode(t, &eb)
	return eb.Error
}

// call sends a request with key (none if "") and extra headers given as
// name, value pairs.
func (h *harness) call(method, path, key, body string, headers ...string) resp {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		switch headers[i] {
		case "Host": // not a header to net/http
			req.Host = headers[i+1]
			continue
		case "RemoteAddr": // the client's address
			req.RemoteAddr = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	if _, set := req.Header["Content-Type"]; body != "" && !set {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.srv.Handler().ServeHTTP(rec, req)
	r := resp{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	if r.Status >= 500 && !h.eng.unavailable && !h.eng.panicOnStart && h.eng.startDelay == 0 && !h.allow5xx && path != "/readyz" {
		h.t.Errorf("%s %s = %d %s: a 5xx", method, path, r.Status, r.Body)
	}
	h.checkOpenAPI(method, path, key, body, headers, r)
	return r
}

// callHost is call with the request's Host set.
func (h *harness) callHost(method, path, key, host string, headers ...string) resp {
	h.t.Helper()
	return h.call(method, path, key, "", append([]string{"Host", host}, headers...)...)
}

// checkOpenAPI validates a response against the document. Requests the
// server accepted (2xx) must be valid requests by the document too.
func (h *harness) checkOpenAPI(method, path, key, body string, headers []string, r resp) {
	h.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] != "Host" && headers[i] != "RemoteAddr" {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	if _, set := req.Header["Content-Type"]; body != "" && !set {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	route, params, err := h.router.FindRoute(req)
	if err != nil {
		return // an undocumented path: TestOpenAPIRoutes covers the route list
	}
	ctx := context.Background()
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}}
	if r.Status/100 == 2 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			h.t.Errorf("%s %s was accepted (%d) but the OpenAPI document rejects the request: %v", method, path, r.Status, err)
		}
		req.Body = io.NopCloser(strings.NewReader(body))
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: r.Status, Header: r.Header, Options: in.Options}
	out.SetBodyBytes(r.Body)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		h.t.Errorf("%s %s = %d %s\ndoes not match the OpenAPI document: %v", method, path, r.Status, r.Body, err)
	}
}
