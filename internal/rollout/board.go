package rollout

import (
	"context"
	"slices"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/workflows"
)

// Board reads what GET /v1/releases shows: the active set, every
// release's state, and the status query of the ReleaseWorkflow deciding
// one (its gate and the canary's live comparison).
type Board struct {
	Store  func(ctx context.Context) (release.Store, error)
	Client client.Client
	// QueryTimeout bounds the status query; default 2s (a query needs a
	// worker, and a closed workflow's is answered by replaying it).
	QueryTimeout time.Duration
}

// boardHistory bounds the releases listed, newest first.
const boardHistory = 50

// Releases implements gateway.ReleaseBoard.
func (b *Board) Releases(ctx context.Context) (api.Releases, error) {
	st, err := b.Store(ctx)
	if err != nil {
		return api.Releases{}, err
	}
	act, err := st.Active(ctx)
	if err != nil {
		return api.Releases{}, err
	}
	ms, err := st.List(ctx)
	if err != nil {
		return api.Releases{}, err
	}
	slices.Reverse(ms) // newest first
	ms = ms[:min(len(ms), boardHistory)]
	out := api.Releases{Stable: act.Stable, Candidate: act.Candidate, Share: act.Share, Previous: act.Previous,
		Releases: make([]api.ReleaseSummary, 0, len(ms))}
	for _, m := range ms {
		s := api.ReleaseSummary{Name: m.Name, State: string(release.Created), Note: m.Note, Digest: m.Digest,
			Index: m.Index.Version, CreatedAt: m.CreatedAt}
		if rs, err := st.Status(ctx, m.Name); err == nil {
			s.State, s.Share, s.Reason, s.Workflow, s.UpdatedAt = string(rs.State), rs.Share, rs.Reason, rs.Workflow, rs.UpdatedAt
		}
		out.Releases = append(out.Releases, s)
	}
	if wf := deciding(out.Releases); wf != "" && b.Client != nil {
		out.Progress = b.progress(ctx, wf)
	}
	return out, nil
}

// deciding is the workflow whose progress the board shows: the one of a
// release in its gate or canary, else the newest release's that had one.
func deciding(rs []api.ReleaseSummary) string {
	for _, r := range rs {
		if r.Workflow != "" && (r.State == string(release.Gating) || r.State == string(release.Canary)) {
			return r.Workflow
		}
	}
	for _, r := range rs {
		if r.Workflow != "" {
			return r.Workflow
		}
	}
	return ""
}

// progress is workflow wf's status query; nil when it cannot be read.
func (b *Board) progress(ctx context.Context, wf string) *workflows.ReleaseProgress {
	d := b.QueryTimeout
	if d == 0 {
		d = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	v, err := b.Client.QueryWorkflow(ctx, wf, "", workflows.QueryReleaseStatus)
	if err != nil {
		return nil
	}
	var p workflows.ReleaseProgress
	if v.Get(&p) != nil {
		return nil
	}
	return &p
}
