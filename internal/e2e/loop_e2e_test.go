package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// loopCase runs AnswerWorkflow on the dev stack with its own budgets.
type loopCase struct {
	s   *devStack
	c   client.Client
	seq int
}

func newLoopCase(t *testing.T, s *devStack) *loopCase {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &loopCase{s: s, c: c}
}

func (l *loopCase) run(t *testing.T, question string, edit func(*wire.AnswerInput)) (string, wire.AnswerResult) {
	t.Helper()
	l.seq++
	id := fmt.Sprintf("%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), l.seq)
	in := wire.AnswerInput{
		RequestID: id,
		Question:  question,
		Principal: auth.Anonymous(),
		Budget:    wire.Budget{MaxAttempts: 3, Deadline: time.Minute},
		Threshold: 0.5,
		TopK:      5,
	}
	if edit != nil {
		edit(&in)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := l.c.ExecuteWorkflow(ctx, workflows.StartOptions(id, "assay", in), workflows.AnswerWorkflow, in)
	if err != nil {
		t.Fatal(err)
	}
	var res wire.AnswerResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("workflow %s: %v", id, err)
	}
	l.record(t, id, res)
	return id, res
}

// record writes the run's history to $ASSAY_RECORD_HISTORIES/<stop>-<id>.json
// when that variable is set: the replay tests in workflows/ replay those
// files to prove later workflow changes stay deterministic.
func (l *loopCase) record(t *testing.T, id string, res wire.AnswerResult) {
	dir := os.Getenv("ASSAY_RECORD_HISTORIES")
	if dir == "" {
		return
	}
	writeHistory(t, l.c, id, filepath.Join(dir, fmt.Sprintf("%s-%s.json", res.StopReason, strings.ToLower(id))))
}

// writeHistory writes workflow id's history as JSON, as the replayer
// reads it, to file.
func writeHistory(t *testing.T, c client.Client, id, file string) {
	t.Helper()
	var hist historypb.History
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	b, err := protojson.MarshalOptions{Indent: "  "}.Marshal(&hist)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s", file)
}

// scheduled counts the activities of each type a run scheduled, as
// activities or, leaving a marker, as local activities.
func (l *loopCase) scheduled(t *testing.T, id string) map[string]int {
	t.Helper()
	out := map[string]int{}
	it := l.c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			out[a.GetActivityType().GetName()]++
		}
		if m := ev.GetMarkerRecordedEventAttributes(); m.GetMarkerName() == "LocalActivity" {
			var data struct{ ActivityType string }
			if err := converter.GetDefaultDataConverter().FromPayloads(m.GetDetails()["data"], &data); err != nil {
				t.Fatal(err)
			}
			out[data.ActivityType]++
		}
	}
	return out
}

func rules(res wire.AnswerResult) []string {
	var out []string
	for _, r := range res.Trace.Routes {
		out = append(out, r.Decision.Rule)
	}
	return out
}

// TestEndToEndLoopStops drives the loop on the real dev stack through
// each stop the builtin models can reach, and checks operators can find
// the runs by stop reason.
func TestEndToEndLoopStops(t *testing.T) {
	s := startDev(t, t.TempDir())
	l := newLoopCase(t, s)

	t.Run("answered", func(t *testing.T) {
		id, res := l.run(t, "how many years is the X300 Pro motor covered for", nil)
		if res.StopReason != wire.Answered || !strings.Contains(res.Answer, "5 years") {
			t.Fatalf("stop %s answer %q", res.StopReason, res.Answer)
		}
		if got := strings.Join(rules(res), ","); got != "builtin.assess,builtin.generate" {
			t.Errorf("route rules = %s", got)
		}
		if n := l.scheduled(t, id)["Generate"]; n != 1 {
			t.Errorf("Generate scheduled %d times, want 1", n)
		}
	})

	t.Run("insufficient context never calls generation", func(t *testing.T) {
		id, res := l.run(t, "what is the capital of Peru", nil)
		if res.StopReason != wire.InsufficientContext || !strings.Contains(res.Answer, "could not find") || len(res.Citations) > 0 {
			t.Fatalf("stop %s answer %q citations %v; want the not-found answer", res.StopReason, res.Answer, res.Citations)
		}
		if n := l.scheduled(t, id)["Generate"]; n != 0 {
			t.Errorf("Generate scheduled %d times, want 0", n)
		}
	})

	t.Run("deadline", func(t *testing.T) {
		// A nanosecond: shorter than any stage, even one run in process as a
		// local activity (a whole builtin run can take under a millisecond
		// of workflow time).
		_, res := l.run(t, "how many years is the X300 Pro motor covered for", func(in *wire.AnswerInput) { in.Budget.Deadline = time.Nanosecond })
		if res.StopReason != wire.BudgetExhausted || !strings.Contains(res.Trace.StopDetail, "deadline") {
			t.Fatalf("stop %s (%s), want budget_exhausted on the deadline", res.StopReason, res.Trace.StopDetail)
		}
	})

	t.Run("filters bound what can be found", func(t *testing.T) {
		// The K50 manual answers; with FAQ pages only, no chunk the search
		// may return would suffice, so the builtin assessor proposes no
		// rewrite and the run stops after one search, saying why. (The
		// builtin loop does not reach repeated_query on bleve: it rewrites
		// only while a chunk that would suffice can still be found, and
		// wider-k finds it; a model's repeated rewrite does, see
		// TestEndToEndRepeatedQuery.)
		_, res := l.run(t, "how do I descale the K50", nil)
		if res.StopReason != wire.Answered {
			t.Fatalf("without filters: stop %s (%s), want answered", res.StopReason, res.Trace.StopDetail)
		}
		_, res = l.run(t, "how do I descale the K50", func(in *wire.AnswerInput) {
			in.Budget.MaxAttempts = 10
			in.Filters.Types = []string{"faq"}
		})
		if res.StopReason != wire.InsufficientContext || len(res.Trace.Attempts) != 1 {
			t.Fatalf("FAQ pages only: stop %s after %d attempts (%s), want insufficient_context after one", res.StopReason, len(res.Trace.Attempts), res.Trace.StopDetail)
		}
		if r := res.Trace.Attempts[0].Assessment.Reason; !strings.Contains(r, "within this run's filters") {
			t.Errorf("reason %q, want it to say the filters bound the search", r)
		}
	})

	t.Run("operators filter by stop reason", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, stop := range []wire.StopReason{wire.Answered, wire.BudgetExhausted, wire.InsufficientContext} {
			// Visibility is eventually consistent: poll briefly.
			var n int
			for range 50 {
				resp, err := l.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
					Query: fmt.Sprintf(`AssayStopReason = %q AND AssayPrincipal = "anonymous"`, stop),
				})
				if err != nil {
					t.Fatal(err)
				}
				if n = len(resp.GetExecutions()); n > 0 {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if n == 0 {
				t.Errorf("no workflow listed with AssayStopReason=%q", stop)
			}
		}
	})
}
