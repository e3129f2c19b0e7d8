package workflows

import "time"

// The ReleaseWorkflow's activities, by name.
const (
	ReleaseGateActivity   = "ReleaseGate"
	ReleaseStateActivity  = "ReleaseState"
	ReleaseWindowActivity = "ReleaseWindow"
)

// ReleaseInput starts a ReleaseWorkflow: the candidate release and the
// stable one it is compared with, the labelled gate questions (inline,
// so the history holds what was asked), the canary steps and the
// thresholds.
type ReleaseInput struct {
	Release string `json:"release"`
	Stable  string `json:"stable"`
	// Questions are the gate's labelled questions, one JSON object each
	// as `assay eval answers` reads them (package eval), asked as one
	// batch on each release; none skips the gate.
	Questions []string `json:"questions,omitempty"`
	// Corpus is the file the questions are labelled against, read by the
	// worker that judges the gate.
	Corpus string `json:"corpus,omitempty"`
	// Steps are the canary shares in percent, ascending, ending at 100.
	Steps []int `json:"steps"`
	// StepRuns is how many of the candidate's runs each step waits for;
	// StepTimeout how long at most (then it decides on what it has, or
	// holds when the candidate ran nothing).
	StepRuns    int           `json:"step_runs"`
	StepTimeout time.Duration `json:"step_timeout"`
	// Poll is how often a step counts runs.
	Poll       time.Duration     `json:"poll"`
	Thresholds ReleaseThresholds `json:"thresholds"`
	// Approve makes the workflow wait for the approve signal before the
	// canary and before promotion.
	Approve bool `json:"approve,omitempty"`
}

// ReleaseThresholds are what a candidate may lose against stable. Drops
// and rises are absolute rates (0.05 is five points); a candidate fails
// when it is worse than stable by more.
type ReleaseThresholds struct {
	// The gate.
	RightSourceDrop      float64 `json:"right_source_drop"`
	RefusalDrop          float64 `json:"refusal_drop"`
	CitationValidityDrop float64 `json:"citation_validity_drop"`
	// MaxLeaks is the forbidden documents the candidate may show: 0.
	MaxLeaks int `json:"max_leaks"`
	// P95Ratio bounds the candidate's p95 latency by stable's times
	// this, plus P95SlackMS (small sets have noisy tails).
	P95Ratio   float64 `json:"p95_ratio"`
	P95SlackMS float64 `json:"p95_slack_ms"`
	// The canary.
	ErrorRise        float64 `json:"error_rise"`
	RefusedRise      float64 `json:"refused_rise"`
	InsufficientRise float64 `json:"insufficient_context_rise"`
	// CostRatio bounds the candidate's cost per question by stable's
	// times this (when stable's is above 0).
	CostRatio float64 `json:"cost_ratio"`
}

// DefaultReleaseThresholds are the thresholds `assay release start`
// declares unless told otherwise.
func DefaultReleaseThresholds() ReleaseThresholds {
	return ReleaseThresholds{
		RightSourceDrop: 0.05, RefusalDrop: 0.05, CitationValidityDrop: 0.05, MaxLeaks: 0,
		P95Ratio: 2, P95SlackMS: 500,
		ErrorRise: 0.05, RefusedRise: 0.10, InsufficientRise: 0.10, CostRatio: 1.5,
	}
}

// GateInput asks for the gate set's results on one release.
type GateInput struct {
	Release   string   `json:"release"`
	Questions []string `json:"questions"`
	Corpus    string   `json:"corpus"`
}

// GateSummary is one release's results on the gate set.
type GateSummary struct {
	Release          string  `json:"release"`
	Questions        int     `json:"questions"`
	RightSourceCited float64 `json:"right_source_cited"`
	Refusal          float64 `json:"no_answer_refusal"`
	CitationValidity float64 `json:"citation_validity"`
	Leaks            int     `json:"leaks"`
	RunsFailed       int     `json:"runs_failed"`
	P95MS            float64 `json:"p95_ms"`
	Batch            string  `json:"batch"` // the BatchWorkflow's id
}

// ReleaseStateInput changes the store: the candidate's canary share
// (State gating or canary), promotion, or rollback (State rolled_back or
// rejected, with Reason).
type ReleaseStateInput struct {
	Release  string `json:"release"`
	State    string `json:"state"`
	Share    int    `json:"share"`
	Reason   string `json:"reason,omitempty"`
	Workflow string `json:"workflow,omitempty"`
}

// WindowInput asks for the closed runs of two releases started since
// Since.
type WindowInput struct {
	Candidate string    `json:"candidate"`
	Stable    string    `json:"stable"`
	Since     time.Time `json:"since"`
	// StableSince, when set, starts stable's window earlier (at the
	// canary's start): at 100% stable takes no new runs, and its runs of
	// the earlier steps are the baseline.
	StableSince time.Time `json:"stable_since,omitzero"`
	// CostAt is how many candidate runs the window needs before the
	// activity reads runs' results for their cost: only a window that
	// will be decided on pays for it.
	CostAt int `json:"cost_at,omitempty"`
}

// WindowStats are one release's closed runs in a canary window.
type WindowStats struct {
	Runs         int     `json:"runs"`
	Errors       int     `json:"errors"` // typed error stops
	Refused      int     `json:"refused"`
	Insufficient int     `json:"insufficient_context"`
	P95MS        float64 `json:"p95_ms"`
	// CostUSD is summed over CostRuns of the runs: their results are
	// read one by one, so at most MaxCostRuns of them.
	CostUSD  float64 `json:"cost_usd"`
	CostRuns int     `json:"cost_runs"`
}

// MaxCostRuns bounds how many runs' results a canary window reads for
// their cost.
const MaxCostRuns = 50

// Rate is n over the window's runs (0 without runs).
func (w WindowStats) Rate(n int) float64 {
	if w.Runs == 0 {
		return 0
	}
	return float64(n) / float64(w.Runs)
}

// CostPerRun is the mean cost of a run (0 without costed runs).
func (w WindowStats) CostPerRun() float64 { return w.CostUSD / float64(max(w.CostRuns, 1)) }

// WindowOutput compares the two releases over one window.
type WindowOutput struct {
	Candidate WindowStats `json:"candidate"`
	Stable    WindowStats `json:"stable"`
}

// ReleaseProgress is what the ReleaseWorkflow's status query returns.
type ReleaseProgress struct {
	Release string `json:"release"`
	Stable  string `json:"stable"`
	State   string `json:"state"`
	Share   int    `json:"share"`
	Paused  bool   `json:"paused,omitempty"`
	// Waiting says what the workflow waits for ("approve", "runs").
	Waiting string        `json:"waiting,omitempty"`
	Reason  string        `json:"reason,omitempty"`
	Gate    []GateSummary `json:"gate,omitempty"`
	// Steps are the canary windows decided so far.
	Steps []ReleaseStep `json:"steps,omitempty"`
}

// ReleaseStep is one canary step's window and verdict.
type ReleaseStep struct {
	Share  int          `json:"share"`
	Window WindowOutput `json:"window"`
	Passed bool         `json:"passed"`
}
