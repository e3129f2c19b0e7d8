package gateway

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
)

// openAINodeVersion pins the official `openai` npm package the test drives.
const openAINodeVersion = "7.59.0"

// npmPackage returns the directory of npm package name@version, installed
// into $ASSAY_NPM_DIR (default .assay/npm at the module root) unless it is
// there already. It skips the test, loudly, when node or npm is missing or
// the registry cannot be reached.
func npmPackage(t *testing.T, name, version string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIP node SDK test: -short")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIP node SDK test: %s is not installed (Debian: apt-get install nodejs npm)", tool)
		}
	}
	dir := os.Getenv("ASSAY_NPM_DIR")
	if dir == "" {
		dir = "../../.assay/npm"
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "node_modules", name)
	var installed struct{ Version string }
	if b, err := os.ReadFile(filepath.Join(pkg, "package.json")); err == nil && json.Unmarshal(b, &installed) == nil && installed.Version == version {
		return pkg
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error",
		"--fetch-retries=1", "--fetch-timeout=30000", name+"@"+version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("SKIP node SDK test: npm install %s@%s failed (no registry?): %v\n%s", name, version, err, out)
	}
	return pkg
}

// TestChatNodeOpenAI drives the chat routes with the official `openai`
// npm package (testdata/openai_sdk.js): models, a completion with its
// citations and annotations, a stream with the same content, a follow-up
// that sends the assistant's message back, and an error the SDK types.
func TestChatNodeOpenAI(t *testing.T) {
	pkg := npmPackage(t, "openai", openAINodeVersion)
	h := newHarness(t)
	srv := httptest.NewServer(h.srv.Handler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "testdata/openai_sdk.js")
	cmd.Env = append(os.Environ(), "OPENAI_PKG="+pkg, "BASE_URL="+srv.URL+"/v1", "API_KEY="+keyPublic)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/openai_sdk.js: %v\n%s", err, stderr.String())
	}
	var got struct {
		Models     []string
		Completion struct {
			Content     string
			Finish      string
			Citations   []api.CitationResponse
			Annotations []api.ChatAnnotation
			Assay       api.ChatAssay
		}
		Stream struct {
			Content     string
			Finish      string
			Citations   []api.CitationResponse
			Annotations []api.ChatAnnotation
			Stages      []string
			Usage       api.ChatUsage
		}
		FollowUp struct {
			Content string
			Assay   api.ChatAssay
		}
		Error struct {
			Name   string
			Status int
			Type   string
			Code   string
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %s: %v", out, err)
	}
	c, s := got.Completion, got.Stream
	if !slices.Equal(got.Models, []string{api.ChatModel}) {
		t.Errorf("models = %v", got.Models)
	}
	if c.Content != "From pol-warranty-2026. [1]" || c.Finish != "stop" || len(c.Citations) != 1 || c.Citations[0].DocID != "pol-warranty-2026" ||
		len(c.Annotations) != 1 || c.Annotations[0].Type != "url_citation" || c.Assay.StopReason != "answered" {
		t.Errorf("completion = %+v", c)
	}
	if s.Content != c.Content || s.Finish != "stop" || len(s.Citations) != 1 || s.Citations[0] != c.Citations[0] ||
		len(s.Annotations) != 1 || s.Annotations[0] != c.Annotations[0] || len(s.Stages) == 0 || s.Usage.TotalTokens != 15 {
		t.Errorf("stream = %+v; want the completion's content and sources", s)
	}
	run := h.eng.runs[got.FollowUp.Assay.QuestionID]
	if run == nil || run.in.Question != "and for the K50?" || len(run.in.History) != 2 || run.in.History[1].Content != c.Content {
		t.Errorf("follow-up run = %+v", run)
	}
	if got.Error.Status != 401 || got.Error.Name != "AuthenticationError" || got.Error.Type != "authentication_error" || got.Error.Code != "unauthorized" {
		t.Errorf("error = %+v, want the SDK's AuthenticationError", got.Error)
	}
}
