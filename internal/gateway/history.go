package gateway

import (
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/wire"
)

// historyReader turns an AnswerWorkflow's history, event by event, into
// stream events. Every stage is a stage event named after its activity
// (Search → search): a scheduled activity, or the marker a local activity
// leaves when the workflow task that ran it completes. A Search starts a
// new attempt. A search after the first means the previous assessment's
// rewrite was taken, so a rewrite stage precedes it, numbered with the id
// of the completion that produced the rewrite; when that assessment ran
// as a local activity its marker is its only event, and the rewrite
// shares the id of the search marker that follows. Event ids are history
// event ids: increasing and stable.
type historyReader struct {
	attempt       int
	lastStage     string
	lastCompleted int64
	lastEmitted   int64
	closed        bool
	// dc decodes the events' payloads: the client's converter, which
	// decrypts them when histories are encrypted; nil is the SDK's
	// default.
	dc converter.DataConverter
}

// converter is the data converter that reads the events' payloads.
func (r *historyReader) converter() converter.DataConverter {
	if r.dc == nil {
		return converter.GetDefaultDataConverter()
	}
	return r.dc
}

// notStages are the local activities every run starts with that are not
// stages of the loop.
var notStages = map[string]bool{"Guard": true, "RoutingPolicy": true, "VerifyPrincipal": true}

func (r *historyReader) read(he *historypb.HistoryEvent) []Event {
	var out []Event
	switch he.GetEventType() {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		attrs := he.GetActivityTaskScheduledEventAttributes()
		var query string
		if attrs.GetActivityType().GetName() == "Search" {
			query = decodeQuery(r.converter(), attrs.GetInput().GetPayloads())
		}
		out = r.stage(out, he.GetEventId(), attrs.GetActivityType().GetName(), query)
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
		r.lastCompleted = he.GetEventId()
	case enumspb.EVENT_TYPE_MARKER_RECORDED:
		attrs := he.GetMarkerRecordedEventAttributes()
		if attrs.GetMarkerName() != localActivityMarker {
			break
		}
		var data struct{ ActivityType string }
		if err := r.converter().FromPayloads(attrs.GetDetails()["data"], &data); err != nil || notStages[data.ActivityType] {
			break
		}
		var query string
		if data.ActivityType == "Search" {
			query = decodeQuery(r.converter(), attrs.GetDetails()["result"].GetPayloads())
		}
		out = r.stage(out, he.GetEventId(), data.ActivityType, query)
		r.lastCompleted = he.GetEventId()
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		var res wire.AnswerResult
		e := Event{ID: he.GetEventId(), Closed: true, Status: api.Failed}
		if err := r.converter().FromPayloads(he.GetWorkflowExecutionCompletedEventAttributes().GetResult(), &res); err == nil {
			e.Status, e.Result = api.Completed, &res
		}
		out = r.emit(out, e)
		r.closed = true
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		out = r.emit(out, Event{ID: he.GetEventId(), Closed: true, Status: api.Failed})
		r.closed = true
	}
	return out
}

// localActivityMarker is the name of the marker the Go SDK records for a
// local activity; its details hold "data" (the activity type, among
// others) and "result".
const localActivityMarker = "LocalActivity"

// stage emits the stage event of activity at event id.
func (r *historyReader) stage(out []Event, id int64, activity, query string) []Event {
	stage := strings.ToLower(activity)
	if stage == "search" {
		r.attempt++
		if r.attempt > 1 && r.lastStage != "rewrite" {
			rid := id // the assessment was a marker: nothing lies between
			if r.lastCompleted > r.lastEmitted {
				rid = r.lastCompleted
			}
			out = r.emit(out, Event{ID: rid, Stage: &api.StageEvent{Stage: "rewrite", Attempt: r.attempt - 1, Query: query}})
		}
		out = r.emit(out, Event{ID: id, Stage: &api.StageEvent{Stage: stage, Attempt: r.attempt, Query: query}})
	} else {
		out = r.emit(out, Event{ID: id, Stage: &api.StageEvent{Stage: stage, Attempt: max(r.attempt, 1)}})
	}
	r.lastStage = stage
	return out
}

func (r *historyReader) emit(out []Event, e Event) []Event {
	r.lastEmitted = e.ID
	return append(out, e)
}

// decodeQuery reads the query field of a search activity's input or, for
// a local activity, its output; the stream does without it if the payload
// has another shape.
func decodeQuery(dc converter.DataConverter, payloads []*commonpb.Payload) string {
	if len(payloads) == 0 {
		return ""
	}
	var in struct {
		Query string `json:"query"`
	}
	if err := dc.FromPayload(payloads[0], &in); err != nil {
		return ""
	}
	return in.Query
}
