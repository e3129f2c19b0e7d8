package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/assay-rag/assay/internal/llm/llmtest"
	"github.com/assay-rag/assay/internal/wire"
)

// startDevWithModel runs the dev stack with its model routes pointed at a
// scripted OpenAI-compatible server.
func startDevWithModel(t *testing.T, srv *llmtest.Server) *devStack {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "assay.yaml")
	body := fmt.Sprintf(`llm:
  base_url: %s
  small_model: small-m
  max_retries: 3
  prices:
    small-m: {input_per_mtok: 1, output_per_mtok: 2}
`, srv.URL())
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return startDev(t, filepath.Join(dir, "data"), "--config", cfg)
}

func assessment(score float64, sufficient bool, rewrite string) llmtest.Step {
	return llmtest.Reply(fmt.Sprintf(`{"score":%g,"sufficient":%v,"rewrite":%q,"reason":"scripted"}`, score, sufficient, rewrite), 400, 30)
}

// TestEndToEndModelRecoversFrom500s: the endpoint fails twice with 500,
// the client retries, and the run answers; the trace names the model, its
// route rule and what it cost.
func TestEndToEndModelRecoversFrom500s(t *testing.T) {
	srv := llmtest.New(t)
	s := startDevWithModel(t, srv)
	l := newLoopCase(t, s)
	srv.Enqueue(llmtest.Status(500, "overloaded"), llmtest.Status(500, "overloaded"), assessment(0.9, true, ""),
		llmtest.Reply("Blender motors on the X200 and X300 Pro are covered for 5 years [1].", 500, 20))
	_, res := l.run(t, "how many years is the X300 Pro motor covered for", nil)
	if res.StopReason != wire.Answered {
		t.Fatalf("stop %s (%s)", res.StopReason, res.Trace.StopDetail)
	}
	if got := strings.Join(rules(res), ","); got != "only.small,only.small" {
		t.Errorf("route rules = %v, want only.small for assess and generate", got)
	}
	if u := res.Trace.Usage; u.TokensIn != 900 || u.TokensOut != 50 || u.CostUSD <= 0 {
		t.Errorf("usage = %+v, want the assessment's 400/30 and the answer's 500/20 tokens, priced", u)
	}
	if res.Model != "small-m" || len(res.Citations) != 1 || res.Citations[0].DocID != "pol-warranty-2026" {
		t.Errorf("answer by %s citing %v, want small-m citing pol-warranty-2026", res.Model, res.Citations)
	}
	if !strings.Contains(strings.Join(res.Trace.Models, ","), "small-m") {
		t.Errorf("models = %v, want small-m", res.Trace.Models)
	}
	if n := srv.Pending(); n != 0 {
		t.Errorf("%d scripted replies unused", n)
	}
}

// TestEndToEndRewrite: the model finds the first evidence insufficient and
// proposes a rewrite; with two attempts the run answers, with one it ends
// budget_exhausted and the weak evidence never reaches generation.
func TestEndToEndRewrite(t *testing.T) {
	srv := llmtest.New(t)
	s := startDevWithModel(t, srv)
	l := newLoopCase(t, s)
	const question = "what about the motor on the pro blender, how long"

	srv.Enqueue(assessment(0.3, false, "X300 Pro motor warranty years"), assessment(0.9, true, ""),
		llmtest.Reply("Blender motors on the X200 and X300 Pro are covered for 5 years [1].", 500, 20))
	_, res := l.run(t, question, nil)
	if res.StopReason != wire.Answered || len(res.Trace.Attempts) != 2 || res.Trace.Attempts[1].Query != "X300 Pro motor warranty years" {
		t.Fatalf("stop %s after %d attempts (%s)", res.StopReason, len(res.Trace.Attempts), res.Trace.StopDetail)
	}
	if got := strings.Join(rules(res), ","); got != "only.small,rewrite.in-assessment,only.small,only.small" {
		t.Errorf("route rules = %s", got)
	}

	srv.Enqueue(assessment(0.3, false, "X300 Pro motor warranty years"))
	id, res := l.run(t, question, func(in *wire.AnswerInput) { in.Budget.MaxAttempts = 1 })
	if res.StopReason != wire.BudgetExhausted || len(res.Citations) > 0 {
		t.Fatalf("stop %s citations %v, want budget_exhausted with none", res.StopReason, res.Citations)
	}
	if n := l.scheduled(t, id)["Generate"]; n != 0 {
		t.Errorf("weak evidence went to generation: Generate scheduled %d times", n)
	}
	if n := srv.Pending(); n != 0 {
		t.Errorf("%d scripted replies unused", n)
	}
}

// TestEndToEndRepeatedQuery: a model that proposes the query it was just
// given has nothing left to try: the run stops repeated_query, and
// operators can list it by that stop.
func TestEndToEndRepeatedQuery(t *testing.T) {
	srv := llmtest.New(t)
	s := startDevWithModel(t, srv)
	l := newLoopCase(t, s)
	srv.Enqueue(assessment(0.3, false, "X300 Pro motor warranty years"), assessment(0.4, false, "X300 Pro motor warranty years"))
	id, res := l.run(t, "what about the motor on the pro blender, how long", func(in *wire.AnswerInput) { in.Budget.MaxAttempts = 5 })
	if res.StopReason != wire.RepeatedQuery || len(res.Trace.Attempts) != 2 || len(res.Citations) > 0 {
		t.Fatalf("stop %s after %d attempts (%s), want repeated_query after 2, nothing cited", res.StopReason, len(res.Trace.Attempts), res.Trace.StopDetail)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range 50 { // visibility is eventually consistent
		resp, err := l.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: `AssayStopReason = "repeated_query"`})
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(resp.GetExecutions(), func(e *workflowpb.WorkflowExecutionInfo) bool { return e.GetExecution().GetWorkflowId() == id }) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("workflow %s not listed with AssayStopReason=repeated_query", id)
}

// TestEndToEndFiveAttemptHistory runs five attempts with a model that never
// finds the evidence sufficient, and measures the workflow history: chunk
// texts must stay out of it.
func TestEndToEndFiveAttemptHistory(t *testing.T) {
	srv := llmtest.New(t)
	s := startDevWithModel(t, srv)
	l := newLoopCase(t, s)
	// Each rewrite retrieves a different result set, so only the attempt
	// budget can stop the run.
	for i, rewrite := range []string{"x300 pro specifications", "kettle descale citric acid", "repair centre move", "spare parts delivery", "vat invoice"} {
		srv.Enqueue(assessment(0.1*float64(i+1), false, rewrite))
	}
	id, res := l.run(t, "how many years is the X300 Pro motor covered for", func(in *wire.AnswerInput) { in.Budget.MaxAttempts = 5 })
	if res.StopReason != wire.BudgetExhausted || len(res.Trace.Attempts) != 5 {
		t.Fatalf("stop %s after %d attempts, want budget_exhausted after 5", res.StopReason, len(res.Trace.Attempts))
	}
	events, size := 0, 0
	it := l.c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var history strings.Builder
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		b, err := proto.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		events++
		size += len(b)
		history.Write(b)
	}
	t.Logf("five-attempt history: %d events, %d bytes", events, size)
	// A sentence only chunk texts hold must not be in the history.
	if strings.Contains(history.String(), "Blender motors on the X200 and X300 Pro are covered for 5 years") {
		t.Error("a chunk text is in the workflow history")
	}
	if size > 256<<10 {
		t.Errorf("history is %d bytes; want it well under Temporal's limits", size)
	}
}

// TestEndToEndFallbackWhenModelDown: with llm.fallback: builtin, an
// endpoint that answers only 500s (no client retries here, three activity
// attempts per stage) hands assessment and generation to the builtin
// models; the run answers, the trace records escalate.unavailable for
// both, and /metrics counts the escalations.
func TestEndToEndFallbackWhenModelDown(t *testing.T) {
	srv := llmtest.New(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "assay.yaml")
	body := fmt.Sprintf("llm:\n  base_url: %s\n  small_model: small-m\n  max_retries: 0\n  fallback: builtin\n", srv.URL())
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startDev(t, filepath.Join(dir, "data"), "--config", cfg)
	if !strings.Contains(s.stdout.String(), "auth         anonymous: no API keys configured") {
		t.Errorf("assay dev without keys does not say it serves anonymously:\n%s", s.stdout.String())
	}
	l := newLoopCase(t, s)
	for range 6 { // three activity attempts for assess, three for generate
		srv.Enqueue(llmtest.Status(500, "model server down"))
	}
	_, res := l.run(t, "how many years is the X300 Pro motor covered for", nil)
	if res.StopReason != wire.Answered || !strings.HasPrefix(res.Model, "builtin:") {
		t.Fatalf("stop %s by %s (%s), want answered by a builtin model", res.StopReason, res.Model, res.Trace.StopDetail)
	}
	var got []string
	for _, r := range res.Trace.Routes {
		got = append(got, string(r.Decision.Task)+":"+r.Decision.Rule+":"+r.Outcome)
	}
	want := "assess:only.small:assay.unavailable,assess:escalate.unavailable:ok,generate:only.small:assay.unavailable,generate:escalate.unavailable:ok"
	if strings.Join(got, ",") != want {
		t.Errorf("routes = %v\nwant      %s", got, want)
	}
	if n := srv.Pending(); n != 0 {
		t.Errorf("%d scripted replies unused", n)
	}
	_, _, mb := httpCall(t, "GET", s.URL+"/metrics", "", "", "")
	metrics := string(mb)
	for _, line := range []string{
		`assay_route_escalations_total{failure="unavailable",task="assess"} 1`,
		`assay_route_escalations_total{failure="unavailable",task="generate"} 1`,
	} {
		if !strings.Contains(metrics, line) {
			t.Errorf("/metrics lacks %s", line)
		}
	}
}
