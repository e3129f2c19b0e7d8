package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/cli/clitest"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
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
	// The assessment is held back until the client follows the run, when the
	// gateway has subscribed to the run's channel: pub/sub keeps nothing for
	// a late subscriber (CI on a loaded machine once saw no piece at all).
	following := make(chan struct{})
	srv.Enqueue(llmtest.Held(following, assessment(0.9, true, "")), llmtest.Stream(pieces, 500, 20))

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
	start := func(args ...string) func() { return clitest.Start(ctx, t, env, stderr, args...) }
	base := fmt.Sprintf("http://127.0.0.1:%d", stacktest.FreePort(t))
	// The gateway reads the worker's index: it checks that an answer's cited
	// documents are still visible to the caller before it sends the result.
	indexDir := filepath.Join(t.TempDir(), "index")
	defer start("assay", "worker", "--temporal-address", s.TemporalAddr,
		"--index-dir", indexDir, "--corpus", "../../testdata/hollin/corpus.jsonl")()
	// The gateway is started without waiting for the worker, so it usually
	// starts before the worker has built the index: it reads the index from
	// the first request after the build (round 47; before, it tried again
	// at most once a second, and this run, ending sooner, got an
	// unavailable error event: 2 of 3 runs with the wait removed).
	defer start("assay", "gateway", "--http-addr", strings.TrimPrefix(base, "http://"), "--temporal-address", s.TemporalAddr,
		"--index-dir", indexDir)()
	defer func() { // deferred: a Fatal in checkTokenEvents skips what follows it
		if t.Failed() {
			t.Logf("worker and gateway logs:\n%s", stderr.String())
		}
	}()
	waitGateway(t, base, stderr)
	checkTokenEvents(ctx, t, &apiclient.Client{BaseURL: base}, pieces, following)
	if n := strings.Count(stderr.String(), "answer tokens: redis pub/sub"); n != 2 {
		t.Errorf("start-up logs name the redis transport %d times, want 2 (worker and gateway):\n%s", n, stderr.String())
	}
}
