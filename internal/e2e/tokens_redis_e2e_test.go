package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/cli"
	"github.com/assay-rag/assay/internal/llm/llmtest"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestEndToEndRedisTokenEvents (opt-in: ASSAY_TEST_REDIS, `make
// test-redis`): a standalone `assay worker` and `assay gateway`, separate
// as in production and joined by Redis, carry a streaming model's reply
// to an SSE client as token events. The dev stack only provides Temporal;
// the pair uses a task queue of its own.
func TestEndToEndRedisTokenEvents(t *testing.T) {
	redisAddr := redistest.Addr(t)
	s := startDev(t, filepath.Join(t.TempDir(), "data"))
	srv := llmtest.New(t)
	pieces := []string{"Blender motors ", "on the X200 and X300 Pro ", "are covered ", "for 5 years [1]", "[7]."}
	srv.Enqueue(llmtest.Slow(time.Second, assessment(0.9, true, "")), llmtest.Stream(pieces, 500, 20))

	settings := map[string]string{
		"ASSAY_TEMPORAL_TASK_QUEUE":  "e2e-redis-tokens",
		"ASSAY_REDIS_ADDR":           redisAddr,
		"ASSAY_LLM_BASE_URL":         srv.URL(),
		"ASSAY_LLM_SMALL_MODEL":      "small-m",
		"ASSAY_AUTH_ALLOW_ANONYMOUS": "true",
	}
	env := func(k string) string { return settings[k] }
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stderr := &syncBuffer{}
	start := func(args ...string) func() {
		cctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- cli.Run(cctx, args, env, io.Discard, stderr) }()
		return func() {
			stop()
			if err := <-done; err != nil {
				t.Errorf("%s: %v\n%s", args[1], err, stderr.String())
			}
		}
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	defer start("assay", "worker", "--temporal-address", s.TemporalAddr,
		"--index-dir", filepath.Join(t.TempDir(), "index"), "--corpus", "../../testdata/hollin/corpus.jsonl")()
	defer start("assay", "gateway", "--http-addr", strings.TrimPrefix(base, "http://"), "--temporal-address", s.TemporalAddr)()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("standalone gateway not up:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	checkTokenEvents(ctx, t, &apiclient.Client{BaseURL: base}, pieces)
	if n := strings.Count(stderr.String(), "answer tokens: redis pub/sub"); n != 2 {
		t.Errorf("start-up logs name the redis transport %d times, want 2 (worker and gateway):\n%s", n, stderr.String())
	}
}
