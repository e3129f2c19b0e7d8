// Package api holds the bodies the gateway's HTTP API accepts and returns:
// the JSON contract of /v1 (questions, batches, event streams, sources),
// of /readyz and of error answers. The gateway (package gateway) serves
// them and Go clients (package apiclient) send and read them; openapi.json
// in package gateway documents them.
//
// Request bodies decode strictly: one JSON value, no unknown fields, and
// errors that name the offending field (questions[3].question). The JSON
// names are the API: do not change them.
package api

// Status is the coarse state of a run.
type Status string

// Run states. A run that Temporal cancelled, terminated or timed out is
// Failed: a healthy answer run turns cancellation into the cancelled stop
// reason and completes.
const (
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
	// Cancelled is the status of a batch that was cancelled; its
	// questions that had started ended with the cancelled stop reason.
	Cancelled Status = "cancelled"
)

// Accepted is the body of a 202: the run's id and where it is.
type Accepted struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
}

// ErrorBody is the body of every 4xx and 5xx answer.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong: a code (an error kind such as invalid
// or not_found), the offending input field when there is one, and a
// message. Server errors carry only their status text.
type ErrorDetail struct {
	Code      string `json:"code"`
	Field     string `json:"field,omitempty"`
	Message   string `json:"message"`
	RequestID string `json:"request_id,omitempty"`
}

// Readiness is the body of /readyz.
type Readiness struct {
	Status string            `json:"status"` // ready or not_ready
	Checks map[string]string `json:"checks"` // name → "ok" or the reason
	// Info says what each dependency with something to say serves, e.g.
	// "index": the index version.
	Info map[string]string `json:"info,omitempty"`
}
