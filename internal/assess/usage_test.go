package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/llm/llmtest"
)

// TestLLMAssessKeepsUsageWhenRepairFails: an invalid first reply was
// delivered and billed; when the repair call then fails, its tokens must
// still come back with the error, or the run's budget misses them.
func TestLLMAssessKeepsUsageWhenRepairFails(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Reply(`{"score":"high","sufficient":"yes"}`, 300, 10), llmtest.Status(500, "overloaded"))
	res, err := newLLMAssessor(t, srv).Assess(context.Background(), warrantyRequest)
	if err == nil {
		t.Fatal("Assess succeeded, want the repair call's error")
	}
	if res.Usage.TokensIn != 300 || res.Usage.TokensOut != 10 || res.Usage.Model != "small-m" {
		t.Errorf("usage with the error = %+v, want the first reply's 300/10 tokens on small-m", res.Usage)
	}
}
