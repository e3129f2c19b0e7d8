package gateway

import (
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/assay-rag/assay/internal/wire"
)

// historyReader turns an AnswerWorkflow's history, event by event, into
// stream events. Every scheduled activity is a stage named after the
// activity (Search → search); a Search starts a new attempt. A search
// after the first means the previous assessment's rewrite was taken, so a
// rewrite stage precedes it, numbered with the id of the completion that
// produced the rewrite (unless the workflow ran a rewrite activity of its
// own). Event ids are history event ids: increasing and stable.
type historyReader struct {
	attempt       int
	lastStage     string
	lastCompleted int64
	lastEmitted   int64
	closed        bool
}

func (r *historyReader) read(he *historypb.HistoryEvent) []Event {
	var out []Event
	emit := func(e Event) {
		out = append(out, e)
		r.lastEmitted = e.ID
	}
	switch he.GetEventType() {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		attrs := he.GetActivityTaskScheduledEventAttributes()
		stage := strings.ToLower(attrs.GetActivityType().GetName())
		if stage == "search" {
			r.attempt++
			query := decodeQuery(attrs.GetInput().GetPayloads())
			if r.attempt > 1 && r.lastStage != "rewrite" && r.lastCompleted > r.lastEmitted {
				emit(Event{ID: r.lastCompleted, Stage: &StageEvent{Stage: "rewrite", Attempt: r.attempt - 1, Query: query}})
			}
			emit(Event{ID: he.GetEventId(), Stage: &StageEvent{Stage: stage, Attempt: r.attempt, Query: query}})
		} else {
			emit(Event{ID: he.GetEventId(), Stage: &StageEvent{Stage: stage, Attempt: max(r.attempt, 1)}})
		}
		r.lastStage = stage
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
		r.lastCompleted = he.GetEventId()
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		var res wire.AnswerResult
		e := Event{ID: he.GetEventId(), Closed: true, Status: Failed}
		if err := converter.GetDefaultDataConverter().FromPayloads(he.GetWorkflowExecutionCompletedEventAttributes().GetResult(), &res); err == nil {
			e.Status, e.Result = Completed, &res
		}
		emit(e)
		r.closed = true
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		emit(Event{ID: he.GetEventId(), Closed: true, Status: Failed})
		r.closed = true
	}
	return out
}

// decodeQuery reads the query field of a search activity's input; the
// stream does without it if the input has another shape.
func decodeQuery(payloads []*commonpb.Payload) string {
	if len(payloads) == 0 {
		return ""
	}
	var in struct {
		Query string `json:"query"`
	}
	if err := converter.GetDefaultDataConverter().FromPayload(payloads[0], &in); err != nil {
		return ""
	}
	return in.Query
}
