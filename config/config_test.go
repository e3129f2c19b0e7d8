package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "assay.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestPrecedence checks defaults < file < environment < flags, one layer
// at a time, on the same setting and on settings only one layer touches.
func TestPrecedence(t *testing.T) {
	file := writeFile(t, `
http:
  addr: 127.0.0.1:9001
temporal:
  namespace: from-file
loop:
  max_attempts: 4
`)
	env := map[string]string{
		"ASSAY_HTTP_ADDR":        "127.0.0.1:9002",
		"ASSAY_TEMPORAL_ADDRESS": "temporal.internal:7233",
		"ASSAY_LLM_API_KEY":      "sk-env",
	}
	tests := []struct {
		name          string
		opts          Options
		wantAddr      string
		wantNamespace string
		wantAttempts  int
		wantTemporal  string
	}{
		{"defaults", Options{}, "127.0.0.1:8080", "default", 3, "127.0.0.1:7233"},
		{"file", Options{File: file}, "127.0.0.1:9001", "from-file", 4, "127.0.0.1:7233"},
		{"env over file", Options{File: file, Getenv: envOf(env)}, "127.0.0.1:9002", "from-file", 4, "temporal.internal:7233"},
		{"flags over env", Options{File: file, Getenv: envOf(env), Overrides: map[string]string{"http.addr": "127.0.0.1:9003", "loop.max_attempts": "2"}},
			"127.0.0.1:9003", "from-file", 2, "temporal.internal:7233"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(tt.opts)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if cfg.HTTP.Addr != tt.wantAddr {
				t.Errorf("http.addr = %q, want %q", cfg.HTTP.Addr, tt.wantAddr)
			}
			if cfg.Temporal.Namespace != tt.wantNamespace {
				t.Errorf("temporal.namespace = %q, want %q", cfg.Temporal.Namespace, tt.wantNamespace)
			}
			if cfg.Loop.MaxAttempts != tt.wantAttempts {
				t.Errorf("loop.max_attempts = %d, want %d", cfg.Loop.MaxAttempts, tt.wantAttempts)
			}
			if cfg.Temporal.Address != tt.wantTemporal {
				t.Errorf("temporal.address = %q, want %q", cfg.Temporal.Address, tt.wantTemporal)
			}
		})
	}
}

func TestEnvTypes(t *testing.T) {
	cfg, err := Load(Options{Getenv: envOf(map[string]string{
		"ASSAY_LOOP_DEADLINE":   "45s",
		"ASSAY_LOOP_THRESHOLD":  "0.7",
		"ASSAY_LLM_BASE_URL":    "http://127.0.0.1:11434/v1",
		"ASSAY_LLM_SMALL_MODEL": "qwen3:4b",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Loop.Deadline != 45*time.Second || cfg.Loop.Threshold != 0.7 || cfg.LLM.SmallModel != "qwen3:4b" {
		t.Errorf("got deadline %v threshold %v small model %q", cfg.Loop.Deadline, cfg.Loop.Threshold, cfg.LLM.SmallModel)
	}
}

func TestBadEnvNamesVariable(t *testing.T) {
	_, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_LOOP_DEADLINE": "soon"})})
	if err == nil || !strings.Contains(err.Error(), "ASSAY_LOOP_DEADLINE") {
		t.Fatalf("Load = %v, want an error naming ASSAY_LOOP_DEADLINE", err)
	}
}

// TestUnknownYAMLKey: an unknown key is named by its path in the file,
// not by the Go type the decoder was filling.
func TestUnknownYAMLKey(t *testing.T) {
	for body, want := range map[string]string{
		"http:\n  adress: 127.0.0.1:1\n":                  "line 2: unknown key http.adress",
		"loop:\n  max_attempts: 2\n  rewritr: x\n":        "line 3: unknown key loop.rewritr",
		"auth:\n  keys:\n    - id: a\n      grops: [x]\n": "unknown key auth.keys[].grops",
		"colour: blue\n": "line 1: unknown key colour",
	} {
		_, err := Load(Options{File: writeFile(t, body)})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "config.") {
			t.Errorf("Load(%q) = %v, want an error saying %q", body, err, want)
		}
	}
}

func TestEmptyFileKeepsDefaults(t *testing.T) {
	cfg, err := Load(Options{File: writeFile(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.Addr != Default().HTTP.Addr {
		t.Errorf("http.addr = %q, want the default", cfg.HTTP.Addr)
	}
}

func TestValidateReportsEveryField(t *testing.T) {
	cfg := Default()
	cfg.HTTP.Addr = "nonsense"
	cfg.Loop.MaxAttempts = 0
	cfg.Loop.Threshold = 2
	cfg.LLM.BaseURL = "ftp://x"
	cfg.Auth.Keys = []Key{{Name: "", SHA256: "abc"}}
	cfg.HTTP.WriteTimeout = cfg.HTTP.MaxWait // a ?wait= request would be cut off
	cfg.HTTP.ReadTimeout = 0
	cfg.HTTP.TrustedProxies = []string{"10.0.0.0/8", "proxy.local"}
	cfg.Loop.Generator = "builtin:extractive-v1"
	cfg.Loop.Rewriter = "builtin:strategies-v3"
	cfg.Loop.Reranker = "builtin:features-v2"
	err := cfg.Validate()
	if err == nil {
		t.Fatal("Validate = nil, want errors")
	}
	for _, field := range []string{"http.write_timeout", "http.read_timeout", "http.trusted_proxies[1]", "http.addr", "loop.max_attempts", "loop.threshold", "loop.generator", "loop.rewriter", "loop.reranker", "llm.base_url",
		"llm.small_model", "auth.keys[0].name", "auth.keys[0].sha256", "auth.keys[0].groups"} {
		if !strings.Contains(err.Error(), field+":") {
			t.Errorf("Validate error does not name %s:\n%v", field, err)
		}
	}
}

func TestSecretsNeverPrint(t *testing.T) {
	const key = "sk-very-secret-value"
	cfg, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_LLM_API_KEY": key})})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.LLM.APIKey.Reveal() != key {
		t.Fatalf("Reveal = %q, want the key", cfg.LLM.APIKey.Reveal())
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{
		"String": cfg.String(),
		"%v":     fmt.Sprintf("%v", cfg),
		"%+v":    fmt.Sprintf("%+v", cfg),
		"%#v":    fmt.Sprintf("%#v", cfg),
		"json":   string(js),
	} {
		if strings.Contains(out, key) {
			t.Errorf("%s output contains the secret:\n%s", name, out)
		}
	}
	if !strings.Contains(cfg.String(), redacted) {
		t.Errorf("String() does not show the secret as redacted:\n%s", cfg.String())
	}
}

func TestSetUnknownPath(t *testing.T) {
	cfg := Default()
	if err := cfg.Set("http.nope", "x"); err == nil {
		t.Error("Set(http.nope) = nil, want an error")
	}
}

func TestEnvNames(t *testing.T) {
	names := EnvNames()
	for _, want := range []string{"ASSAY_HTTP_ADDR", "ASSAY_TEMPORAL_ADDRESS", "ASSAY_LLM_BASE_URL", "ASSAY_LLM_API_KEY", "ASSAY_DATA_DIR"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("EnvNames() lacks %s", want)
		}
	}
}

func TestPricesFromFile(t *testing.T) {
	file := writeFile(t, `
llm:
  base_url: http://127.0.0.1:11434/v1
  small_model: qwen3:4b
  prices:
    qwen3:4b: {input_per_mtok: 0.1, output_per_mtok: 0.4}
`)
	cfg, err := Load(Options{File: file})
	if err != nil {
		t.Fatal(err)
	}
	if p := cfg.LLM.Prices["qwen3:4b"]; p.InputPerMTok != 0.1 || p.OutputPerMTok != 0.4 {
		t.Errorf("prices = %+v", cfg.LLM.Prices)
	}
	bad := writeFile(t, "llm:\n  prices:\n    m: {input_per_mtok: -1, output_per_mtok: 0}\n")
	if _, err := Load(Options{File: bad}); err == nil || !strings.Contains(err.Error(), "llm.prices.m") {
		t.Errorf("negative price: err = %v, want one naming llm.prices.m", err)
	}
}

func TestEmbedSettings(t *testing.T) {
	cfg, err := Load(Options{Getenv: envOf(map[string]string{
		"ASSAY_LLM_BASE_URL":    "http://127.0.0.1:11434/v1",
		"ASSAY_LLM_SMALL_MODEL": "qwen3:4b",
		"ASSAY_LLM_API_KEY":     "sk-chat",
		"ASSAY_EMBED_PROVIDER":  "openai",
		"ASSAY_EMBED_MODEL":     "nomic-embed-text",
		"ASSAY_EMBED_DIM":       "768",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if url, key := cfg.EmbedEndpoint(); url != "http://127.0.0.1:11434/v1" || key.Reveal() != "sk-chat" {
		t.Errorf("EmbedEndpoint() = %q, %q; want the chat endpoint's", url, key.Reveal())
	}
	_, err = Load(Options{Getenv: envOf(map[string]string{"ASSAY_EMBED_PROVIDER": "openai"})})
	for _, field := range []string{"embed.base_url", "embed.model", "embed.dim"} {
		if err == nil || !strings.Contains(err.Error(), field+":") {
			t.Errorf("openai embedder without settings: error %v does not name %s", err, field)
		}
	}
	if _, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_EMBED_PROVIDER": "word2vec"})}); err == nil || !strings.Contains(err.Error(), "embed.provider") {
		t.Errorf("unknown provider: err = %v", err)
	}
}

func TestTemporalUIURL(t *testing.T) {
	cfg, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_HTTP_TEMPORAL_UI_URL": "http://temporal-ui.internal:8080"})})
	if err != nil || cfg.HTTP.TemporalUIURL != "http://temporal-ui.internal:8080" {
		t.Fatalf("Load = %+v, %v", cfg.HTTP, err)
	}
	for _, bad := range []string{"temporal-ui:8080", "javascript:alert(1)", "ftp://x"} {
		_, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_HTTP_TEMPORAL_UI_URL": bad})})
		if err == nil || !strings.Contains(err.Error(), "http.temporal_ui_url") {
			t.Errorf("temporal_ui_url %q: Load = %v, want an error naming http.temporal_ui_url", bad, err)
		}
	}
}

// TestRequireACLByDefault: a document without an acl field is an error
// unless the operator turns index.require_acl off (issue 21: it was off,
// so a misplaced header published a staff document).
func TestRequireACLByDefault(t *testing.T) {
	cfg, err := Load(Options{Getenv: envOf(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Index.RequireACL || !strings.Contains(cfg.Index.ACLPolicy(), "must name its groups") {
		t.Errorf("index.require_acl = %v by default (%s), want true", cfg.Index.RequireACL, cfg.Index.ACLPolicy())
	}
	cfg, err = Load(Options{Getenv: envOf(map[string]string{"ASSAY_INDEX_REQUIRE_ACL": "false"})})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Index.RequireACL || !strings.Contains(cfg.Index.ACLPolicy(), "PUBLIC") {
		t.Errorf("ASSAY_INDEX_REQUIRE_ACL=false: require_acl = %v (%s)", cfg.Index.RequireACL, cfg.Index.ACLPolicy())
	}
}

// TestPrincipalKeys: auth.principal_keys parses into a signer; a bad entry
// is a validation error naming the setting and never printing the secret.
func TestPrincipalKeys(t *testing.T) {
	cfg, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_AUTH_PRINCIPAL_KEYS": "k2:0123456789abcdef0123456789abcdef,k1:fedcba9876543210fedcba9876543210"})})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := cfg.PrincipalSigner(); err != nil || s == nil {
		t.Errorf("PrincipalSigner = %v, %v", s, err)
	}
	_, err = Load(Options{Getenv: envOf(map[string]string{"ASSAY_AUTH_PRINCIPAL_KEYS": "k1:too-short-secret"})})
	if err == nil || !strings.Contains(err.Error(), "auth.principal_keys") || strings.Contains(err.Error(), "too-short-secret") {
		t.Errorf("a short secret: %v; want an error naming auth.principal_keys without the secret", err)
	}
	if s, err := Default().PrincipalSigner(); s != nil || err != nil {
		t.Errorf("default: %v, %v; want no signing", s, err)
	}
}

// TestPayloadKeys: temporal.payload_keys parses into a codec; a bad entry
// is a validation error naming the entry and never printing the key; the
// default encrypts nothing.
func TestPayloadKeys(t *testing.T) {
	const k1 = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="
	cfg, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_TEMPORAL_PAYLOAD_KEYS": "k1:" + k1})})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := cfg.Temporal.PayloadCodec(); err != nil || c == nil || c.KeyID() != "k1" {
		t.Errorf("PayloadCodec = %v, %v", c, err)
	}
	if strings.Contains(cfg.String(), k1) {
		t.Error("the configuration prints the payload key")
	}
	const short = "c2hvcnQta2V5"
	_, err = Load(Options{Getenv: envOf(map[string]string{"ASSAY_TEMPORAL_PAYLOAD_KEYS": "k1:" + k1 + ",k2:" + short})})
	if err == nil || !strings.Contains(err.Error(), "temporal.payload_keys[1]") || strings.Contains(err.Error(), short) {
		t.Errorf("a short key: %v; want an error naming temporal.payload_keys[1] without the key", err)
	}
	if c, err := Default().Temporal.PayloadCodec(); c != nil || err != nil {
		t.Errorf("default: %v, %v; want no encryption", c, err)
	}
}

// TestExactCandidatesRediSearchOnly: index.exact_candidates changes only
// the redisearch backend's BM25 leg (the bleve backend is always exact),
// so setting it with bleve is an error naming the key and the backend
// rather than a setting silently ignored.
func TestExactCandidatesRediSearchOnly(t *testing.T) {
	_, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_INDEX_EXACT_CANDIDATES": "true"})})
	if err == nil || !strings.Contains(err.Error(), "index.exact_candidates:") || !strings.Contains(err.Error(), "index.backend redisearch") {
		t.Errorf("exact_candidates with the bleve backend: Load = %v, want an error naming index.exact_candidates and the redisearch backend", err)
	}
	cfg, err := Load(Options{Getenv: envOf(map[string]string{
		"ASSAY_INDEX_EXACT_CANDIDATES": "true",
		"ASSAY_INDEX_BACKEND":          "redisearch",
		"ASSAY_REDIS_ADDR":             "127.0.0.1:6379",
	})})
	if err != nil || !cfg.Index.ExactCandidates {
		t.Errorf("exact_candidates with the redisearch backend: Load = %+v, %v", cfg.Index, err)
	}
	if _, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_INDEX_EXACT_CANDIDATES": "false"})}); err != nil {
		t.Errorf("exact_candidates false with the bleve backend: %v", err)
	}
}

// TestIndexVector: index.vector defaults to hnsw+small-flat (round 43),
// takes the three layouts in any case from the environment, and refuses an
// unknown one naming the key and the value, whatever the backend.
func TestIndexVector(t *testing.T) {
	if v := Default().Index.Vector; v != VectorSmallFlat {
		t.Errorf("default index.vector %q, want %s", v, VectorSmallFlat)
	}
	for _, v := range []string{"hnsw", "HNSW+small-flat", "flat"} {
		cfg, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_INDEX_VECTOR": v})})
		if err != nil || cfg.Index.Vector != v {
			t.Errorf("ASSAY_INDEX_VECTOR=%s: %q, %v", v, cfg.Index.Vector, err)
		}
	}
	for _, env := range []map[string]string{
		{"ASSAY_INDEX_VECTOR": "hnsw+flat"},
		{"ASSAY_INDEX_VECTOR": "hnsw+flat", "ASSAY_INDEX_BACKEND": "redisearch", "ASSAY_REDIS_ADDR": "127.0.0.1:6379"},
	} {
		if _, err := Load(Options{Getenv: envOf(env)}); err == nil || !strings.Contains(err.Error(), "index.vector:") || !strings.Contains(err.Error(), `"hnsw+flat"`) {
			t.Errorf("%v: Load = %v, want an error naming index.vector and the value", env, err)
		}
	}
}

// TestLoopExpandDefault: loop.expand is on by default (round 38: with a
// thesaurus, builtin:coverage-v42 merges the expanded query's new chunks
// below the plain hits), and ASSAY_LOOP_EXPAND=false turns it off.
func TestLoopExpandDefault(t *testing.T) {
	if !Default().Loop.Expand {
		t.Error("loop.expand off by default, want on")
	}
	cfg, err := Load(Options{Getenv: envOf(map[string]string{"ASSAY_LOOP_EXPAND": "false"})})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Loop.Expand {
		t.Error("ASSAY_LOOP_EXPAND=false: loop.expand on")
	}
}
