package api

import (
	"time"

	"github.com/assay-rag/assay/workflows"
)

// Releases is the body of GET /v1/releases, operator data: which releases
// take new runs, every release's state (the history, newest first), and
// the progress of the release workflow that is deciding one.
type Releases struct {
	// Stable takes every new run but the candidate's share; empty before
	// any release was promoted.
	Stable string `json:"stable,omitempty"`
	// Candidate takes Share percent of new runs during a canary.
	Candidate string `json:"candidate,omitempty"`
	Share     int    `json:"share"`
	// Previous are the stables before, newest first: what rollback
	// returns to.
	Previous []string         `json:"previous,omitempty"`
	Releases []ReleaseSummary `json:"releases"`
	// Progress is the ReleaseWorkflow's status (its gate and every canary
	// window, candidate against stable) of the release in its gate or
	// canary, else of the newest release a workflow drove; absent when
	// none did or it could not be read.
	Progress *workflows.ReleaseProgress `json:"progress,omitempty"`
}

// ReleaseSummary is one release: its manifest's identity and its
// lifecycle state.
type ReleaseSummary struct {
	Name     string `json:"name"`
	State    string `json:"state"`
	Share    int    `json:"share"`
	Reason   string `json:"reason,omitempty"`
	Workflow string `json:"workflow,omitempty"`
	Note     string `json:"note,omitempty"`
	Digest   string `json:"digest"`
	// Index is the index version it serves (the backend's name for it).
	Index     string    `json:"index"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}
