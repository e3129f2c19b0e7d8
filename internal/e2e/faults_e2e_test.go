package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
	"github.com/assay-rag/assay/internal/llm/llmtest"
	"github.com/assay-rag/assay/internal/wire"
)

// faultyModel answers like a model endpoint where a share of calls fail:
// 500, 429 with Retry-After, a stall past the client's timeout, a body
// that is not JSON, and a reply that breaks its contract (an assessment
// that violates the schema, an answer citing nothing). It counts the
// tokens of every reply it delivers with usage, failed or not.
type faultyModel struct {
	mu            sync.Mutex
	rng           *rand.Rand
	rate          float64
	stall         time.Duration
	faults        map[string]int
	calls         int
	tokensIn, out int
}

func (m *faultyModel) respond(r llmtest.Request) llmtest.Step {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	assessing := r.Chat != nil && r.Chat.ResponseFormat != nil
	step := llmtest.Reply("Covered as the sources say [1].", 500, 20)
	if assessing {
		step = llmtest.Reply(`{"score":0.9,"sufficient":true,"rewrite":"","reason":"the source answers it"}`, 400, 30)
	}
	if m.rng.Float64() < m.rate {
		kinds := []string{"500", "429", "stall", "malformed", "contract"}
		kind := kinds[m.rng.IntN(len(kinds))]
		m.faults[kind]++
		switch kind {
		case "500":
			step = llmtest.Status(500, "overloaded")
		case "429":
			step = llmtest.RateLimited("1")
		case "stall":
			step = llmtest.Slow(m.stall, step)
		case "malformed":
			step = llmtest.Malformed()
		case "contract":
			step = llmtest.Reply("I would rather not say.", 300, 10)
			if assessing {
				step = llmtest.Reply(`{"score":"high","sufficient":"yes"}`, 300, 10)
			}
		}
	}
	// A reply counts as delivered unless it stalls past the client's
	// timeout (2s, with headroom for a loaded machine: a prompt reply
	// that reached the client late would be billed but never seen).
	if step.Usage != nil && step.Delay == 0 {
		m.tokensIn += step.Usage.PromptTokens
		m.out += step.Usage.CompletionTokens
	}
	return step
}

// TestEndToEndModelFaults runs a 100-question batch against a model
// endpoint where 30% of calls fail in mixed ways. Every question must
// end with a typed stop reason within its deadline, and the tokens the
// runs account for must be exactly the tokens of every reply the endpoint
// delivered, failed calls included.
func TestEndToEndModelFaults(t *testing.T) {
	const (
		n        = 100
		deadline = 30 * time.Second
	)
	srv := llmtest.New(t)
	m := &faultyModel{rng: rand.New(rand.NewPCG(30, 100)), rate: 0.3, stall: 4 * time.Second, faults: map[string]int{}}
	srv.Respond(m.respond)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "assay.yaml")
	const key = "faults-key"
	body := fmt.Sprintf(`llm:
  base_url: %s
  small_model: small-m
  timeout: 2s
  max_retries: 2
  prices:
    small-m: {input_per_mtok: 1, output_per_mtok: 2}
loop:
  deadline: %s
auth:
  keys:
    - name: faults
      sha256: %s
      groups: [public]
batch:
  concurrency: 8
`, srv.URL(), deadline, auth.Hash(key))
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startDev(t, filepath.Join(dir, "data"), "--config", cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c := &apiclient.Client{BaseURL: s.URL, APIKey: key}
	qs := stacktest.Questions(t, "../../testdata/hollin/questions.jsonl")
	var req api.BatchRequest
	for i := range n {
		req.Questions = append(req.Questions, api.BatchQuestion{ID: fmt.Sprintf("q%03d", i+1), Question: qs[i%len(qs)]})
	}
	start := time.Now()
	id, err := c.SubmitBatch(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitBatch(ctx, id, 500*time.Millisecond, nil); err != nil {
		t.Fatal(err)
	}
	items, err := c.AllBatchResults(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	typed := map[wire.StopReason]bool{
		wire.Answered: true, wire.InsufficientContext: true, wire.RepeatedQuery: true,
		wire.BudgetExhausted: true, wire.AssessmentError: true, wire.GenerationError: true, wire.SearchError: true,
	}
	stops := map[wire.StopReason]int{}
	var in, out int
	var slowest float64
	for _, it := range items {
		stops[it.StopReason]++
		in, out = in+it.TokensIn, out+it.TokensOut
		slowest = max(slowest, it.LatencyMS)
		if it.Status != wire.ItemDone || !typed[it.StopReason] {
			t.Errorf("question %s: status %s stop %q error %q, want done with a typed stop", it.QuestionID, it.Status, it.StopReason, it.Error)
		}
		if it.LatencyMS > float64((deadline + 5*time.Second).Milliseconds()) {
			t.Errorf("question %s took %.0f ms, past its %s deadline", it.QuestionID, it.LatencyMS, deadline)
		}
	}
	if len(items) != n {
		t.Errorf("%d results for %d questions", len(items), n)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t.Logf("model faults: %d questions in %s, %d model calls, faults %v; stops %v; slowest run %.0f ms; tokens in/out accounted %d/%d, delivered %d/%d",
		len(items), took.Round(time.Millisecond), m.calls, m.faults, stops, slowest, in, out, m.tokensIn, m.out)
	if in != m.tokensIn || out != m.out {
		t.Errorf("runs account for %d/%d tokens, the endpoint delivered %d/%d (failed calls included)", in, out, m.tokensIn, m.out)
	}
	if stops[wire.Answered] == 0 {
		t.Errorf("stops %v: with 70%% of calls healthy some questions must answer", stops)
	}
}
