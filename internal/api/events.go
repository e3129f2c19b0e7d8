package api

// Event types of GET /v1/questions/{id}/events.
const (
	// EventStage: the run entered a stage (condense, for a chat
	// follow-up; search, assess, rewrite, generate) of an attempt. Data:
	// StageEvent.
	EventStage = "stage"
	// EventResult is the last event: the question as GET
	// /v1/questions/{id} returns it once the run has ended.
	EventResult = "result"
	// EventToken: a piece of the answer as a streaming model writes it,
	// while the run's Generate activity runs. Data: TokenEvent. Token
	// events have no id: they are best effort, a reconnect does not
	// replay them, and the result event, not the pieces, is the answer.
	// The builtin models do not stream.
	EventToken = "token"
	// EventError says the stream broke off before the result, e.g.
	// because Temporal became unreachable; it has no id, and a client
	// reconnects with the Last-Event-ID it has. Data: ErrorDetail.
	EventError = "error"
)

// StageEvent is the data of a stage event.
type StageEvent struct {
	Stage   string `json:"stage"`
	Attempt int    `json:"attempt"`
	// Query is the attempt's query, on search and rewrite events.
	Query string `json:"query,omitempty"`
}

// TokenEvent is the data of a token event. Pieces are raw model output:
// citation markers are checked only on the whole answer, so a client shows
// them as a draft and replaces the draft with the result event's answer.
type TokenEvent struct {
	// Stream names one generation: the Generate activity's id and its
	// attempt ("7/1"). When it changes (a retried attempt, a fallback
	// model), the client starts a new draft: replace, do not append.
	Stream string `json:"stream"`
	// Attempt is the Generate activity's attempt, from 1.
	Attempt int `json:"attempt"`
	// Seq numbers the stream's pieces from 1, done marker included; a gap
	// means pieces were dropped (a slow client, or one that joined late).
	Seq int64 `json:"seq"`
	// Text is the piece; empty on the done marker.
	Text string `json:"text,omitempty"`
	// Done marks the stream's end; the result event follows once the
	// answer is checked (or a new stream, if the attempt failed).
	Done bool `json:"done,omitempty"`
}
