package gateway

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/assay-rag/assay/internal/wire"
)

func payloads(t *testing.T, v any) *commonpb.Payloads {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func scheduled(t *testing.T, id int64, activity string, in any) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
		Attributes: &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
			ActivityType: &commonpb.ActivityType{Name: activity}, Input: payloads(t, in)}}}
}

func completed(id int64) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED}
}

func other(id int64) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED}
}

func readAll(evs []*historypb.HistoryEvent) ([]Event, bool) {
	var r historyReader
	var out []Event
	for _, e := range evs {
		out = append(out, r.read(e)...)
	}
	return out, r.closed
}

func TestHistoryReader(t *testing.T) {
	res := wire.AnswerResult{RequestID: "r1", StopReason: wire.Answered, Answer: "Five years. [1]"}
	history := []*historypb.HistoryEvent{
		other(4),
		scheduled(t, 5, "Search", wire.SearchInput{Query: "motor cover", K: 5}),
		completed(7),
		scheduled(t, 11, "Assess", wire.AssessInput{Question: "motor cover"}),
		completed(13),
		other(16),
		scheduled(t, 17, "Search", wire.SearchInput{Query: "blender motor warranty years", K: 5}),
		completed(19),
		scheduled(t, 23, "Assess", wire.AssessInput{}),
		completed(25),
		scheduled(t, 29, "Generate", wire.GenerateInput{}),
		completed(31),
		{EventId: 35, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{WorkflowExecutionCompletedEventAttributes: &historypb.WorkflowExecutionCompletedEventAttributes{
				Result: payloads(t, res)}}},
	}
	got, closed := readAll(history)
	want := []Event{
		{ID: 5, Stage: &StageEvent{Stage: "search", Attempt: 1, Query: "motor cover"}},
		{ID: 11, Stage: &StageEvent{Stage: "assess", Attempt: 1}},
		{ID: 13, Stage: &StageEvent{Stage: "rewrite", Attempt: 1, Query: "blender motor warranty years"}},
		{ID: 17, Stage: &StageEvent{Stage: "search", Attempt: 2, Query: "blender motor warranty years"}},
		{ID: 23, Stage: &StageEvent{Stage: "assess", Attempt: 2}},
		{ID: 29, Stage: &StageEvent{Stage: "generate", Attempt: 2}},
		{ID: 35, Closed: true, Status: Completed, Result: &res},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if !closed {
		t.Errorf("reader not closed after the close event")
	}
}

// A rewrite activity of the loop's own is its stage; none is made up.
func TestHistoryReaderRewriteActivity(t *testing.T) {
	got, _ := readAll([]*historypb.HistoryEvent{
		scheduled(t, 5, "Search", wire.SearchInput{Query: "a"}),
		completed(7),
		scheduled(t, 11, "Assess", wire.AssessInput{}),
		completed(13),
		scheduled(t, 15, "Rewrite", struct{}{}),
		completed(16),
		scheduled(t, 17, "Search", wire.SearchInput{Query: "b"}),
		{EventId: 20, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED},
	})
	var stages []string
	for _, e := range got {
		if e.Stage != nil {
			stages = append(stages, e.Stage.Stage)
		}
	}
	if diff := cmp.Diff([]string{"search", "assess", "rewrite", "search"}, stages); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
	if last := got[len(got)-1]; !last.Closed || last.Status != Failed || last.Result != nil {
		t.Errorf("terminated run closed with %+v, want a failed close", last)
	}
}

func marker(t *testing.T, id int64, activity string, result any) *historypb.HistoryEvent {
	data := struct{ ActivityID, ActivityType string }{fmt.Sprint(id), activity}
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_MARKER_RECORDED,
		Attributes: &historypb.HistoryEvent_MarkerRecordedEventAttributes{MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{
			MarkerName: "LocalActivity",
			Details:    map[string]*commonpb.Payloads{"data": payloads(t, data), "result": payloads(t, result)}}}}
}

// Stages run as local activities are markers, all recorded when the
// workflow task completes; Guard and RoutingPolicy are not stages.
func TestHistoryReaderLocalActivities(t *testing.T) {
	got, _ := readAll([]*historypb.HistoryEvent{
		other(4),
		marker(t, 5, "Guard", wire.GuardOutput{}),
		marker(t, 6, "RoutingPolicy", wire.WorkerPolicy{}),
		marker(t, 7, "Search", wire.SearchOutput{Query: "motor cover"}),
		marker(t, 8, "Assess", wire.AssessOutput{}),
		marker(t, 9, "Search", wire.SearchOutput{Query: "blender motor warranty years"}),
		marker(t, 10, "Assess", wire.AssessOutput{}),
		marker(t, 11, "Generate", wire.GenerateOutput{}),
		{EventId: 13, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED},
	})
	want := []Event{
		{ID: 7, Stage: &StageEvent{Stage: "search", Attempt: 1, Query: "motor cover"}},
		{ID: 8, Stage: &StageEvent{Stage: "assess", Attempt: 1}},
		{ID: 9, Stage: &StageEvent{Stage: "rewrite", Attempt: 1, Query: "blender motor warranty years"}},
		{ID: 9, Stage: &StageEvent{Stage: "search", Attempt: 2, Query: "blender motor warranty years"}},
		{ID: 10, Stage: &StageEvent{Stage: "assess", Attempt: 2}},
		{ID: 11, Stage: &StageEvent{Stage: "generate", Attempt: 2}},
		{ID: 13, Closed: true, Status: Failed},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// A local search with an assessment that ran as an activity (a model
// behind an endpoint): the rewrite takes the assessment's completion id.
func TestHistoryReaderMixed(t *testing.T) {
	got, _ := readAll([]*historypb.HistoryEvent{
		marker(t, 5, "Search", wire.SearchOutput{Query: "a"}),
		scheduled(t, 6, "Assess", wire.AssessInput{}),
		completed(8),
		marker(t, 11, "Search", wire.SearchOutput{Query: "b"}),
	})
	want := []Event{
		{ID: 5, Stage: &StageEvent{Stage: "search", Attempt: 1, Query: "a"}},
		{ID: 6, Stage: &StageEvent{Stage: "assess", Attempt: 1}},
		{ID: 8, Stage: &StageEvent{Stage: "rewrite", Attempt: 1, Query: "b"}},
		{ID: 11, Stage: &StageEvent{Stage: "search", Attempt: 2, Query: "b"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
