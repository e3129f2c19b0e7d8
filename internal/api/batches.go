package api

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/assay-rag/assay/internal/wire"
)

// Result page sizes of GET /v1/batches/{id}/results: limit is 1..MaxPageSize,
// DefaultPageSize when absent.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// BatchRequest is the JSON body of POST /v1/batches. The budget and
// filters apply to every question. The same questions can be sent as
// JSON Lines instead (Content-Type application/jsonl or
// application/x-ndjson), one BatchQuestion per line; the idempotency key
// then comes from the Idempotency-Key header.
type BatchRequest struct {
	Questions      BatchQuestions `json:"questions"`
	MaxAttempts    *int           `json:"max_attempts,omitempty"`
	DeadlineMS     *int64         `json:"deadline_ms,omitempty"`
	Filters        *Filters       `json:"filters,omitempty"`
	IdempotencyKey string         `json:"idempotency_key,omitempty"`
}

// BatchQuestion is one question of a batch. ID is the client's own; it
// defaults to the question's 1-based position.
type BatchQuestion struct {
	ID       string `json:"id,omitempty"`
	Question string `json:"question"`
}

// BatchQuestions decodes element by element, so errors name the element:
// questions[3].question.
type BatchQuestions []BatchQuestion

// UnmarshalJSON implements json.Unmarshaler.
func (qs *BatchQuestions) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := StrictDecode(b, &raw); err != nil {
		return PrefixField("questions", err)
	}
	out := make(BatchQuestions, len(raw))
	for i, r := range raw {
		if err := StrictDecode(r, &out[i]); err != nil {
			return PrefixField(fmt.Sprintf("questions[%d]", i), err)
		}
	}
	*qs = out
	return nil
}

// BatchResponse is the representation of a batch.
type BatchResponse struct {
	ID string `json:"id"`
	// Status is running, completed, cancelled or failed.
	Status    Status               `json:"status"`
	Runs      int                  `json:"runs,omitempty"`
	StartedAt *time.Time           `json:"started_at,omitempty"`
	Aggregate *wire.BatchAggregate `json:"aggregate,omitempty"`
}

// BatchResultItem is one question of a batch and, once done, its answer.
type BatchResultItem struct {
	ID         string               `json:"id"`
	QuestionID string               `json:"question_id"`
	Status     wire.BatchItemStatus `json:"status"`
	StopReason wire.StopReason      `json:"stop_reason,omitempty"`
	Answer     string               `json:"answer,omitempty"`
	Citations  []CitationResponse   `json:"citations,omitempty"`
	LatencyMS  float64              `json:"latency_ms,omitempty"`
	wire.Usage
	Error string `json:"error,omitempty"`
}

// BatchResults is one page of a batch's results.
type BatchResults struct {
	ID    string            `json:"id"`
	Items []BatchResultItem `json:"items"`
	// NextCursor fetches the next page; absent on the last one.
	NextCursor string `json:"next_cursor,omitempty"`
}
