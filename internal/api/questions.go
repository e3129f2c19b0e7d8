package api

import "github.com/assay-rag/assay/internal/wire"

// QuestionRequest is the body of POST /v1/questions. Budget fields may
// lower the configured defaults, never raise them.
type QuestionRequest struct {
	Question    string   `json:"question"`
	MaxAttempts *int     `json:"max_attempts,omitempty"`
	DeadlineMS  *int64   `json:"deadline_ms,omitempty"`
	Filters     *Filters `json:"filters,omitempty"`
	// IdempotencyKey makes retries safe: the same key from the same
	// principal names the same run, which starts once.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// Filters narrow retrieval beyond the principal's groups. Empty lists do
// not filter.
type Filters struct {
	Types    []string `json:"types,omitempty"`
	Products []string `json:"products,omitempty"`
	Statuses []string `json:"statuses,omitempty"`
}

// UnmarshalJSON decodes strictly, naming bad fields as filters.<name>.
func (f *Filters) UnmarshalJSON(b []byte) error {
	type plain Filters
	var p plain
	if err := StrictDecode(b, &p); err != nil {
		return PrefixField("filters", err)
	}
	*f = Filters(p)
	return nil
}

// QuestionResponse is the representation of one question run.
type QuestionResponse struct {
	ID         string             `json:"id"`
	Status     Status             `json:"status"`
	Question   string             `json:"question,omitempty"`
	StopReason wire.StopReason    `json:"stop_reason,omitempty"`
	StopDetail string             `json:"stop_detail,omitempty"`
	Answer     string             `json:"answer,omitempty"`
	Citations  []CitationResponse `json:"citations"`
	Model      string             `json:"model,omitempty"`
	// Release is the release the run is pinned to (what shaped its
	// answer); absent when none was.
	Release  string      `json:"release,omitempty"`
	Attempts int         `json:"attempts,omitempty"`
	Usage    *wire.Usage `json:"usage,omitempty"`
	// Progress is where a running question is; absent once it ended or
	// when no worker answered the query.
	Progress *wire.Progress `json:"progress,omitempty"`
}

// CitationResponse is one cited source, resolved to its document.
type CitationResponse struct {
	Label string `json:"label"`
	DocID string `json:"doc_id"`
	Title string `json:"title"`
	URL   string `json:"url,omitempty"`
}

// SourcesResponse is the body of GET /v1/questions/{id}/sources: the
// passages the run gave its generator, in prompt order, with their text as
// the chunk store holds it now.
type SourcesResponse struct {
	ID      string           `json:"id"`
	Sources []SourceResponse `json:"sources"`
	// Withheld counts the run's passages not shown: no longer in the
	// index, or no longer visible to the caller's groups. Which of the two
	// is not said.
	Withheld int `json:"withheld"`
}

// SourceResponse is one passage a run used.
type SourceResponse struct {
	Label   string      `json:"label"`
	ChunkID string      `json:"chunk_id"`
	DocID   string      `json:"doc_id"`
	Title   string      `json:"title"`
	Status  wire.Status `json:"status"`
	Updated string      `json:"updated,omitempty"`
	URL     string      `json:"url,omitempty"`
	Text    string      `json:"text"`
	// Cited says whether the answer cites this passage.
	Cited bool `json:"cited"`
}
