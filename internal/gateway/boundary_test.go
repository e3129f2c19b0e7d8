package gateway

import (
	"net/http"
	"strings"
	"testing"
)

// TestCrossSiteRequestsRefused: a page on another website cannot drive the
// gateway through the user's browser (issue 21: POST /v1/batches with
// text/plain, Origin https://evil.example and Sec-Fetch-Site: cross-site
// was accepted, 202). Each refusal is in the API's error shape and names
// the header at fault; nothing starts.
func TestCrossSiteRequestsRefused(t *testing.T) {
	batch := `{"questions":[{"question":"E4"}]}`
	tests := []struct {
		name    string
		headers []string
		status  int
		field   string
	}{
		{"text/plain batch, as a form or no-cors fetch sends it", []string{"Content-Type", "text/plain"}, 415, "content-type"},
		{"form-encoded batch", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "content-type"},
		{"multipart batch", []string{"Content-Type", "multipart/form-data; boundary=x"}, 415, "content-type"},
		{"no content type", []string{"Content-Type", ""}, 415, "content-type"},
		{"the issue's probe", []string{"Content-Type", "text/plain", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, 403, "origin"},
		{"JSON from another origin", []string{"Origin", "https://evil.example"}, 403, "origin"},
		{"JSON from another port of this host", []string{"Origin", "http://example.com:3000"}, 403, "origin"},
		{"Origin null (a sandboxed frame)", []string{"Origin", "null"}, 403, "origin"},
		{"Sec-Fetch-Site cross-site without Origin", []string{"Sec-Fetch-Site", "cross-site"}, 403, "sec-fetch-site"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			r := h.call(http.MethodPost, "/v1/batches", keyPublic, batch, tt.headers...)
			e := r.errorOf(t)
			if r.Status != tt.status || e.Field != tt.field || e.Message == "" {
				t.Errorf("POST /v1/batches %q = %d %s; want %d naming %s", tt.headers, r.Status, r.Body, tt.status, tt.field)
			}
			if tt.status == 403 && e.Code != "forbidden" {
				t.Errorf("code %q, want forbidden", e.Code)
			}
			if h.eng.started != 0 {
				t.Errorf("a refused request started %d runs", h.eng.started)
			}
			if r.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Errorf("CORS header %q on a refusal", r.Header.Get("Access-Control-Allow-Origin"))
			}
		})
	}
	// A cross-site read is refused too: GET needs no content type, but it
	// is still another site's page.
	h := newHarness(t)
	if r := h.call(http.MethodGet, "/v1/questions/x", keyPublic, "", "Sec-Fetch-Site", "cross-site"); r.Status != 403 {
		t.Errorf("cross-site GET = %d %s, want 403", r.Status, r.Body)
	}
}

// TestOwnPageAndClientsAccepted: the gateway's own page (Origin equal to
// the Host it was sent to, Sec-Fetch-Site same-origin), clients that are
// not browsers, JSON Lines batches and body-less DELETEs pass.
func TestOwnPageAndClientsAccepted(t *testing.T) {
	for _, hs := range [][]string{
		nil,
		{"Origin", "http://example.com", "Sec-Fetch-Site", "same-origin"}, // httptest's Host is example.com
		{"Sec-Fetch-Site", "none"},
		{"Content-Type", "application/json; charset=utf-8"},
	} {
		h := newHarness(t)
		if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`, hs...); r.Status != 202 {
			t.Errorf("POST %q = %d %s, want 202", hs, r.Status, r.Body)
		}
	}
	h := newHarness(t)
	if r := h.call(http.MethodPost, "/v1/batches", keyPublic, "{\"question\":\"E4\"}\n", "Content-Type", "application/jsonl"); r.Status != 202 {
		t.Errorf("JSONL batch = %d %s", r.Status, r.Body)
	}
	var acc struct{ ID string }
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)
	if r := h.call(http.MethodDelete, "/v1/questions/"+acc.ID, keyPublic, ""); r.Status == 415 || r.Status == 403 {
		t.Errorf("DELETE without a content type = %d %s", r.Status, r.Body)
	}
}

// TestCORSOnlyForAllowedOrigins: without http.allowed_origins there is no
// CORS at all; with it, those origins (and only they) get CORS headers and
// preflight answers, and may call the API.
func TestCORSOnlyForAllowedOrigins(t *testing.T) {
	preflight := []string{"Origin", "https://portal.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type"}
	h := newHarness(t)
	r := h.call(http.MethodOptions, "/v1/questions", "", "", preflight...)
	if r.Header.Get("Access-Control-Allow-Origin") != "" || r.Status == 204 {
		t.Errorf("preflight without allowed origins = %d, ACAO %q; want no CORS", r.Status, r.Header.Get("Access-Control-Allow-Origin"))
	}

	h = newHarness(t, func(o *Options) { o.AllowedOrigins = []string{"https://portal.example/"} })
	r = h.call(http.MethodOptions, "/v1/questions", "", "", preflight...)
	if r.Status != 204 || r.Header.Get("Access-Control-Allow-Origin") != "https://portal.example" ||
		!strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight from an allowed origin = %d %v", r.Status, r.Header)
	}
	r = h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`, "Origin", "https://portal.example", "Sec-Fetch-Site", "cross-site")
	if r.Status != 202 || r.Header.Get("Access-Control-Allow-Origin") != "https://portal.example" || !strings.Contains(r.Header.Get("Vary"), "Origin") {
		t.Errorf("POST from an allowed origin = %d %v", r.Status, r.Header)
	}
	r = h.call(http.MethodOptions, "/v1/questions", "", "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	if r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from another origin got ACAO %q", r.Header.Get("Access-Control-Allow-Origin"))
	}
	if _, err := New(Options{Engine: newFakeEngine(), Keyring: testKeyring(t), AllowedOrigins: []string{"portal.example"}}); err == nil || !strings.Contains(err.Error(), "scheme://host") {
		t.Errorf("an origin without a scheme: err = %v", err)
	}
}

// TestLoopbackGatewayChecksHost: a gateway listening on a loopback address
// answers only loopback Host names and configured ones, so a page whose
// name was rebound to 127.0.0.1 cannot read it (issue 21: Host:
// evil.example was accepted). One listening on all addresses takes any
// Host unless allowed hosts are set.
func TestLoopbackGatewayChecksHost(t *testing.T) {
	tests := []struct {
		listen  string
		allowed []string
		host    string
		ok      bool
	}{
		{"127.0.0.1:8080", nil, "evil.example:8080", false},
		{"127.0.0.1:8080", nil, "evil.example", false},
		{"localhost:8080", nil, "127.0.0.1.nip.io:8080", false},
		{"127.0.0.1:8080", nil, "127.0.0.1:8080", true},
		{"127.0.0.1:8080", nil, "localhost:8080", true},
		{"127.0.0.1:8080", nil, "[::1]:8080", true},
		{"[::1]:8080", nil, "app.localhost", true},
		{"127.0.0.1:8080", []string{"assay.internal"}, "assay.internal:8080", true},
		{"127.0.0.1:8080", []string{"Assay.Internal"}, "ASSAY.internal", true},
		{"0.0.0.0:8080", nil, "evil.example", true},
		{":8080", nil, "anything.example", true},
		{"0.0.0.0:8080", []string{"assay.example"}, "evil.example", false},
		{"0.0.0.0:8080", []string{"assay.example"}, "assay.example", true},
	}
	for _, tt := range tests {
		h := newHarness(t, func(o *Options) { o.ListenAddr, o.AllowedHosts = tt.listen, tt.allowed })
		for _, path := range []string{"/v1/questions/x", "/healthz"} {
			req := func() resp {
				h.t.Helper()
				return h.callHost(http.MethodGet, path, keyPublic, tt.host)
			}
			r := req()
			if refused := r.Status == 403; refused == tt.ok {
				t.Errorf("listen %s allowed %q: GET %s with Host %s = %d %s; want ok=%v", tt.listen, tt.allowed, path, tt.host, r.Status, r.Body, tt.ok)
			} else if refused && r.errorOf(t).Field != "host" {
				t.Errorf("refusal does not name the host: %s", r.Body)
			}
		}
	}
	if !ListensOnLoopback("127.0.0.1:8080") || !ListensOnLoopback("localhost:1") || ListensOnLoopback("0.0.0.0:8080") || ListensOnLoopback(":8080") {
		t.Error("ListensOnLoopback is wrong")
	}
}
