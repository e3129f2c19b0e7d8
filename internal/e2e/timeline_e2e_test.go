package e2e

import (
	"context"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"

	"github.com/assay-rag/assay/internal/e2e/stacktest"
	"github.com/assay-rag/assay/internal/llm/llmtest"
)

// timelineQuestion needs a rewrite: the scripted model rejects the first
// search and accepts the second.
const timelineQuestion = "what about the motor on the pro blender, how long"

// timelineStack runs `assay dev` with its Web UI on a free port and its
// model routes on srv, and asks timelineQuestion through the gateway.
func timelineStack(t *testing.T) (s *devStack, uiPort int, id string) {
	t.Helper()
	srv := llmtest.New(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "assay.yaml")
	if err := os.WriteFile(cfg, []byte("llm:\n  base_url: "+srv.URL()+"\n  small_model: small-m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	uiPort = stacktest.FreePort(t)
	s = startDev(t, filepath.Join(dir, "data"), "--config", cfg, "--ui-port", strconv.Itoa(uiPort))
	srv.Enqueue(assessment(0.3, false, "X300 Pro motor warranty years"), assessment(0.9, true, ""),
		llmtest.Reply("Blender motors on the X200 and X300 Pro are covered for 5 years [1].", 500, 20))
	id, q := s.askID(t, timelineQuestion)
	if q.StopReason != "answered" {
		t.Fatalf("stop %s, want answered", q.StopReason)
	}
	return s, uiPort, id
}

// TestTimeline: the run's Temporal timeline says what each activity was
// asked (summaries), what the loop found (current details) and whose run
// it is under which budget (static details), as the Web UI and
// `temporal workflow describe` show them.
func TestTimeline(t *testing.T) {
	s, _, id := timelineStack(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	// Every activity call, local ones (markers) included, has a summary.
	var summaries []string
	it := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, enumspb.EVENT_TYPE_MARKER_RECORDED:
			if e.GetEventType() == enumspb.EVENT_TYPE_MARKER_RECORDED && e.GetMarkerRecordedEventAttributes().GetMarkerName() != "LocalActivity" {
				continue
			}
			summaries = append(summaries, decodeString(t, e.GetUserMetadata().GetSummary()))
		}
	}
	want := []string{
		`verify principal "anonymous"`,
		"guard",
		"routing policy",
		`search "` + timelineQuestion + `" k=5`,
		"assess attempt 1 (small-m)",
		`search "X300 Pro motor warranty years" k=5`,
		"assess attempt 2 (small-m)",
		"generate from 5 sources (small-m)",
	}
	if strings.Join(summaries, "\n") != strings.Join(want, "\n") {
		t.Errorf("activity summaries:\n%s\nwant:\n%s", strings.Join(summaries, "\n"), strings.Join(want, "\n"))
	}

	// The static details name the principal by id and the budget.
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	static := decodeString(t, d.GetExecutionConfig().GetUserMetadata().GetDetails())
	for _, w := range []string{"**principal** `anonymous`", "attempts", "deadline", "**threshold**"} {
		if !strings.Contains(static, w) {
			t.Errorf("static details %q lack %q", static, w)
		}
	}

	// The current details list the loop's progress.
	v, err := c.QueryWorkflow(ctx, id, "", "__temporal_workflow_metadata")
	if err != nil {
		t.Fatal(err)
	}
	var meta sdkpb.WorkflowMetadata
	if err := v.Get(&meta); err != nil {
		t.Fatal(err)
	}
	details := meta.GetCurrentDetails()
	for _, w := range []string{
		"**answered** after 2 attempt(s)",
		`- search "` + timelineQuestion + `" k=5 → 5 hits`,
		`- assess 0.30 rejected → propose "X300 Pro motor warranty years"`,
		`- search "X300 Pro motor warranty years" k=5 → 5 hits`,
		"- assess 0.90 accepted",
		"- generate 1 citations (small-m), stop",
	} {
		if !strings.Contains(details, w) {
			t.Errorf("current details lack %q:\n%s", w, details)
		}
	}

	// The Temporal CLI shows the same.
	out, err := exec.CommandContext(ctx, devservertest.Binary(t), "workflow", "describe", "--address", s.TemporalAddr, "-w", id).CombinedOutput()
	if err != nil {
		t.Fatalf("temporal workflow describe: %v\n%s", err, out)
	}
	for _, w := range []string{"StaticDetails", "**principal** `anonymous`"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("temporal workflow describe lacks %q:\n%s", w, out)
		}
	}
}

// decodeString decodes a metadata payload (a JSON string).
func decodeString(t *testing.T, p *commonpb.Payload) string {
	t.Helper()
	if p == nil {
		return ""
	}
	var s string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &s); err != nil {
		t.Fatalf("decode %s: %v", p.GetData(), err)
	}
	return s
}
