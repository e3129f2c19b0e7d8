package main

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/auth"
)

// TestNewGatewayAuthMode: start-up says whether callers are anonymous, and
// the configured keys are the ones the gateway accepts.
func TestNewGatewayAuthMode(t *testing.T) {
	tests := []struct {
		name    string
		keys    []config.Key
		wantLog string
		key     string
		want    int // status of POST /v1/questions with an empty body
	}{
		{"no keys", nil, "every caller is the anonymous principal", "", http.StatusBadRequest},
		{"keys, none sent", []config.Key{{Name: "ops", SHA256: auth.Hash("ops-key-123"), Groups: []string{"public"}}}, "API keys loaded", "", http.StatusUnauthorized},
		{"keys, right key", []config.Key{{Name: "ops", SHA256: auth.Hash("ops-key-123"), Groups: []string{"public"}}}, "API keys loaded", "ops-key-123", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Auth.Keys = tt.keys
			var buf bytes.Buffer
			gw, err := newGateway(nil, cfg, slog.New(slog.NewTextHandler(&buf, nil)), nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tt.wantLog) {
				t.Errorf("start-up log %q lacks %q", buf.String(), tt.wantLog)
			}
			req := httptest.NewRequest(http.MethodPost, "/v1/questions", strings.NewReader(`{}`))
			if tt.key != "" {
				req.Header.Set("Authorization", "Bearer "+tt.key)
			}
			rec := httptest.NewRecorder()
			gw.Handler().ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("POST /v1/questions {} = %d %s, want %d", rec.Code, rec.Body, tt.want)
			}
		})
	}
}
