package wire

// BatchItemStatus is where one question of a batch is.
type BatchItemStatus string

// Item states. Done means the child run ended with a stop reason (which
// may be any of them, cancelled included); Failed means the child
// workflow itself failed; Cancelled means the batch was cancelled before
// the question started.
const (
	ItemPending   BatchItemStatus = "pending"
	ItemRunning   BatchItemStatus = "running"
	ItemDone      BatchItemStatus = "done"
	ItemFailed    BatchItemStatus = "failed"
	ItemCancelled BatchItemStatus = "cancelled"
)

// BatchAggregate sums up a batch's questions. Latency percentiles and
// usage cover the questions that are done.
type BatchAggregate struct {
	Total       int                `json:"total"`
	Pending     int                `json:"pending"`
	Running     int                `json:"running"`
	Done        int                `json:"done"`
	Failed      int                `json:"failed"`
	Cancelled   int                `json:"cancelled"`
	StopReasons map[StopReason]int `json:"stop_reasons"`
	// LatencyP50MS and LatencyP95MS are nearest-rank percentiles of the
	// child runs' own durations (Trace.TotalMS), without queueing time.
	LatencyP50MS float64 `json:"latency_p50_ms"`
	LatencyP95MS float64 `json:"latency_p95_ms"`
	Usage
}
