package api

import (
	"encoding/json"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// TestDecodeNamesTheField: every way a body can be wrong is an invalid
// error naming the field, nested fields by their path.
func TestDecodeNamesTheField(t *testing.T) {
	for _, tt := range []struct {
		body  string
		into  any
		field string
	}{
		{`{"question": 3}`, &QuestionRequest{}, "question"},
		{`{"question": "q", "groups": ["admin"]}`, &QuestionRequest{}, "groups"},
		{`{"question": "q"} {}`, &QuestionRequest{}, "body"},
		{``, &QuestionRequest{}, "body"},
		{`{"question": "q", "filters": {"types": "manual"}}`, &QuestionRequest{}, "filters.types"},
		{`{"question": "q", "filters": {"acl": []}}`, &QuestionRequest{}, "filters.acl"},
		{`{"questions": {}}`, &BatchRequest{}, "questions"},
		{`{"questions": [{"question": "a"}, {"question": 1}]}`, &BatchRequest{}, "questions[1].question"},
		{`{"questions": [{"question": "a", "principal": {}}]}`, &BatchRequest{}, "questions[0].principal"},
	} {
		err := StrictDecode([]byte(tt.body), tt.into)
		if !errs.Is(errs.Invalid, err) || errs.FieldOf(err) != tt.field {
			t.Errorf("StrictDecode(%s) = %v (field %q), want invalid on %s", tt.body, err, errs.FieldOf(err), tt.field)
		}
	}
	var req BatchRequest
	if err := StrictDecode([]byte(`{"questions": [{"id": "a", "question": "E4"}], "max_attempts": 2}`), &req); err != nil ||
		len(req.Questions) != 1 || req.Questions[0].ID != "a" || *req.MaxAttempts != 2 {
		t.Errorf("StrictDecode of a good batch = %+v, %v", req, err)
	}
}

// TestJSON pins the bytes of bodies built from other packages' types
// (the usage embedded flat, the batch aggregate from wire).
func TestJSON(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{BatchResultItem{ID: "1", QuestionID: "b-q1", Status: wire.ItemDone, StopReason: wire.Answered, LatencyMS: 12,
			Usage: wire.Usage{TokensIn: 3, TokensOut: 4, CostUSD: 0.5}},
			`{"id":"1","question_id":"b-q1","status":"done","stop_reason":"answered","latency_ms":12,"tokens_in":3,"tokens_out":4,"cost_usd":0.5}`},
		{BatchResponse{ID: "b", Status: Cancelled, Aggregate: &wire.BatchAggregate{Total: 2, Done: 1, Cancelled: 1,
			StopReasons: map[wire.StopReason]int{wire.Answered: 1}, LatencyP50MS: 7, LatencyP95MS: 7}},
			`{"id":"b","status":"cancelled","aggregate":{"total":2,"pending":0,"running":0,"done":1,"failed":0,"cancelled":1,"stop_reasons":{"answered":1},"latency_p50_ms":7,"latency_p95_ms":7,"tokens_in":0,"tokens_out":0,"cost_usd":0}}`},
		{QuestionResponse{ID: "q", Status: Running}, `{"id":"q","status":"running","citations":null}`},
		{ErrorBody{Error: ErrorDetail{Code: "invalid", Field: "question", Message: "is required"}},
			`{"error":{"code":"invalid","field":"question","message":"is required"}}`},
	} {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("json.Marshal(%T) = %s, %v\nwant %s", tt.v, b, err, tt.want)
		}
	}
}
