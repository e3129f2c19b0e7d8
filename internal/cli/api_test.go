package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/auth"
)

// TestNewGatewayAuthMode: start-up says whether callers are anonymous, and
// the configured keys are the ones the gateway accepts.
func TestNewGatewayAuthMode(t *testing.T) {
	tests := []struct {
		name    string
		keys    []config.Key
		anon    bool
		wantLog string
		key     string
		want    int // status of POST /v1/questions with an empty body
	}{
		{"no keys, anonymous allowed", nil, true, "every caller is the anonymous principal", "", http.StatusBadRequest},
		{"keys, none sent", []config.Key{{Name: "ops", SHA256: auth.Hash("ops-key-123"), Groups: []string{"public"}}}, false, "API keys loaded", "", http.StatusUnauthorized},
		{"keys, right key", []config.Key{{Name: "ops", SHA256: auth.Hash("ops-key-123"), Groups: []string{"public"}}}, false, "API keys loaded", "ops-key-123", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Auth.Keys = tt.keys
			cfg.Auth.AllowAnonymous = tt.anon
			var buf bytes.Buffer
			gw, err := newGateway(nil, nil, cfg, slog.New(slog.NewTextHandler(&buf, nil)), nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tt.wantLog) {
				t.Errorf("start-up log %q lacks %q", buf.String(), tt.wantLog)
			}
			req := httptest.NewRequest(http.MethodPost, "/v1/questions", strings.NewReader(`{}`))
			req.Host = "127.0.0.1:8080" // the default http.addr is loopback: only its names are answered
			req.Header.Set("Content-Type", "application/json")
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

// TestGatewayFailsClosed: `assay gateway` with no keys refuses to start
// (before it binds or dials anything) unless anonymous access is
// explicitly allowed; keys come from YAML, a keys file or the
// environment alike.
func TestGatewayFailsClosed(t *testing.T) {
	dir := t.TempDir()
	keyYAML := func(name, key string) string {
		return fmt.Sprintf("keys:\n  - name: %s\n    sha256: %q\n    groups: [public]\n", name, auth.Hash(key))
	}
	yamlFile := filepath.Join(dir, "keys.yaml")
	if err := os.WriteFile(yamlFile, []byte(keyYAML("ops", "ops-key-123")), 0o600); err != nil {
		t.Fatal(err)
	}
	jsonFile := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(jsonFile, []byte(fmt.Sprintf(`{"keys":[{"name":"ops","sha256":%q,"groups":["public"]}]}`, auth.Hash("ops-key-123"))), 0o600); err != nil {
		t.Fatal(err)
	}
	emptyFile := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(emptyFile, []byte("keys: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  map[string]string
		want string // "" means start-up gets past authentication
	}{
		{"no keys", nil, "auth.allow_anonymous"},
		{"anonymous allowed", map[string]string{"ASSAY_AUTH_ALLOW_ANONYMOUS": "true"}, ""},
		{"keys file yaml", map[string]string{"ASSAY_AUTH_KEYS_FILE": yamlFile}, ""},
		{"keys file json", map[string]string{"ASSAY_AUTH_KEYS_FILE": jsonFile}, ""},
		{"keys file empty", map[string]string{"ASSAY_AUTH_KEYS_FILE": emptyFile}, "no keys"},
		{"keys file missing", map[string]string{"ASSAY_AUTH_KEYS_FILE": filepath.Join(dir, "nope")}, "auth.keys_file"},
		{"keys inline", map[string]string{"ASSAY_AUTH_KEYS": fmt.Sprintf(`[{"name":"ops","sha256":%q,"groups":["public"]}]`, auth.Hash("k"))}, ""},
		{"keys inline bad", map[string]string{"ASSAY_AUTH_KEYS": `[{"name":"ops","sha":"x"}]`}, "ASSAY_AUTH_KEYS"},
		{"keys inline invalid", map[string]string{"ASSAY_AUTH_KEYS": `[{"name":"ops","sha256":"abc","groups":["public"]}]`}, "auth.keys[0].sha256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// An address nothing listens on: a start that gets past
			// authentication fails dialing Temporal instead.
			env := map[string]string{"ASSAY_HTTP_ADDR": "127.0.0.1:0", "ASSAY_TEMPORAL_ADDRESS": "127.0.0.1:1"}
			for k, v := range tt.env {
				env[k] = v
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err := Run(ctx, []string{"assay", "gateway"}, func(k string) string { return env[k] }, io.Discard, io.Discard)
			if err == nil {
				t.Fatal("assay gateway started against an unreachable Temporal")
			}
			if tt.want == "" {
				if strings.Contains(err.Error(), "auth") {
					t.Errorf("start-up failed on authentication: %v", err)
				}
				return
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestServeTimeouts: the server applies http.read_timeout, so a client
// that sends headers and then stalls its body is cut off instead of
// holding a connection forever.
func TestServeTimeouts(t *testing.T) {
	ln, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	t.Cleanup(func() { cancel(); <-done })
	cfg := config.Default().HTTP
	cfg.ReadTimeout = 200 * time.Millisecond
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.ReadAll(r.Body) })
	go func() { done <- serve(ctx, ln, h, cfg) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	_, _ = io.ReadAll(conn) // ends when the server closes the connection
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("a stalled body held the connection %v; want it closed after the read timeout", took)
	}
}

// TestIndexRequireACL: index.require_acl makes `assay index` refuse a
// corpus with a document that has no acl field; without it the document
// is public.
func TestIndexRequireACL(t *testing.T) {
	dir := t.TempDir()
	corpusPath := filepath.Join(dir, "c.jsonl")
	body := `{"id":"a","title":"A","text":"kettle descaling","acl":["public"]}` + "\n" + `{"id":"b","title":"B","text":"blender motor"}` + "\n"
	if err := os.WriteFile(corpusPath, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, require := range []string{"false", "true", ""} { // "": the default, on
		env := map[string]string{"ASSAY_INDEX_REQUIRE_ACL": require, "ASSAY_EMBED_PROVIDER": "none"}
		err := Run(context.Background(), []string{"assay", "index", "--quiet", "--corpus", corpusPath, "--index", filepath.Join(dir, "ix"+require)},
			func(k string) string { return env[k] }, io.Discard, io.Discard)
		switch {
		case require == "false" && err != nil:
			t.Errorf("without require_acl: %v", err)
		case require != "false" && (err == nil || !strings.Contains(err.Error(), "acl")):
			t.Errorf("with require_acl: err = %v, want one about the missing acl", err)
		}
	}
}
