package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// TestEndToEndSignedPrincipals: with auth.principal_keys, an
// AnswerWorkflow started straight on Temporal (as `temporal workflow
// start` would) claiming the staff group is refused before any search,
// stop unauthorized, while the same question through the gateway with a
// staff key runs and cites the staff ticket (issue 21: reaching Temporal
// was enough to read as any group).
func TestEndToEndSignedPrincipals(t *testing.T) {
	const staffKey = "e2e-staff-key-0123456789"
	dir := t.TempDir()
	cfg := filepath.Join(dir, "assay.yaml")
	body := fmt.Sprintf(`auth:
  principal_keys: "k1:%s"
  keys:
    - name: staff
      sha256: %s
      groups: [public, staff]
`, strings.Repeat("s", 40), auth.Hash(staffKey))
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startDev(t, filepath.Join(dir, "data"), "--config", cfg)
	c, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const question = "what did the agent tell the customer about the X300 Pro motor cover in case 30501"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	in := wire.AnswerInput{
		RequestID: "forged-1", Question: question,
		Principal: wire.Principal{ID: "intruder", Groups: []string{"public", "staff"}},
		Budget:    wire.Budget{MaxAttempts: 3, Deadline: time.Minute}, Threshold: 0.5, TopK: 5,
	}
	run, err := c.ExecuteWorkflow(ctx, workflows.StartOptions(in.RequestID, "assay", in), workflows.AnswerWorkflowName, in)
	if err != nil {
		t.Fatal(err)
	}
	var res wire.AnswerResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.StopReason != wire.Unauthorized || res.Answer != "" || len(res.Trace.Attempts) != 0 {
		t.Errorf("a forged staff principal: stop %s (%s), answer %q, %d attempts; want unauthorized before any search",
			res.StopReason, res.Trace.StopDetail, res.Answer, len(res.Trace.Attempts))
	}

	code, _, b := httpCall(t, http.MethodPost, s.URL+"/v1/questions?wait=60s", staffKey, "application/json", `{"question":"`+question+`"}`)
	var q api.QuestionResponse
	if err := json.Unmarshal(b, &q); err != nil || code != http.StatusOK {
		t.Fatalf("through the gateway: %d %s", code, b)
	}
	if q.StopReason == wire.Unauthorized {
		t.Fatalf("through the gateway: stop unauthorized (%s); the gateway's signature was refused", q.StopDetail)
	}
	cited := false
	for _, ct := range q.Citations {
		cited = cited || ct.DocID == "tkt-30501"
	}
	if q.StopReason != wire.Answered || !cited {
		t.Errorf("through the gateway as staff: stop %s, citations %+v; want an answer citing tkt-30501", q.StopReason, q.Citations)
	}
}
