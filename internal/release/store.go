package release

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/assay-rag/assay/internal/errs"
)

// Store keeps manifests (write once), their statuses and the active set.
// A store is shared by every process of a deployment; the writers are
// the CLI and the ReleaseWorkflow's activities, one release at a time.
type Store interface {
	// Create stores m; a release of that name already stored is an
	// errs.Conflict error (manifests are immutable).
	Create(ctx context.Context, m Manifest) error
	// Get is the manifest of name; errs.NotFound when there is none.
	Get(ctx context.Context, name string) (Manifest, error)
	// List is every manifest, oldest first.
	List(ctx context.Context) ([]Manifest, error)
	Status(ctx context.Context, name string) (Status, error)
	SetStatus(ctx context.Context, st Status) error
	// Active is the active set; zero when no release was ever promoted.
	Active(ctx context.Context) (Active, error)
	SetActive(ctx context.Context, a Active) error
	Close() error
}

// DefaultKeep is how many releases' index versions are kept besides the
// active ones: the previous stables rollback can return to.
const DefaultKeep = 3

// Promote makes name the stable release for every new run: the old
// stable joins Previous (at most keep of them are kept), any canary ends.
func Promote(ctx context.Context, s Store, name, reason string, keep int) (Active, error) {
	if _, err := s.Get(ctx, name); err != nil {
		return Active{}, err
	}
	a, err := s.Active(ctx)
	if err != nil {
		return Active{}, err
	}
	if a.Stable != name {
		if a.Stable != "" {
			a.Previous = append([]string{a.Stable}, slices.DeleteFunc(a.Previous, func(p string) bool { return p == name || p == a.Stable })...)
		}
		if keep >= 0 && len(a.Previous) > keep {
			a.Previous = a.Previous[:keep]
		}
		a.Stable = name
	}
	a.Candidate, a.Share = "", 0
	if err := s.SetActive(ctx, a); err != nil {
		return Active{}, err
	}
	return a, setState(ctx, s, name, Promoted, 100, reason)
}

// StartCanary gives candidate share percent of new runs (0: gating, no
// traffic). The stable release must exist: promote one first.
func StartCanary(ctx context.Context, s Store, candidate string, share int, state State) error {
	if share < 0 || share > 100 {
		return errs.FieldError("release", "share", fmt.Sprintf("%d: want 0..100", share))
	}
	if _, err := s.Get(ctx, candidate); err != nil {
		return err
	}
	a, err := s.Active(ctx)
	if err != nil {
		return err
	}
	switch {
	case a.Stable == "":
		return errs.Errorf("release", errs.Invalid, "no stable release to compare %s with: promote one first (assay dev creates \"initial\")", candidate)
	case a.Stable == candidate:
		return errs.Errorf("release", errs.Conflict, "%s is the stable release already", candidate)
	case a.Candidate != "" && a.Candidate != candidate:
		return errs.Errorf("release", errs.Conflict, "release %s is in its canary already: promote or roll it back first", a.Candidate)
	}
	a.Candidate, a.Share = candidate, share
	if err := s.SetActive(ctx, a); err != nil {
		return err
	}
	return setState(ctx, s, candidate, state, share, "")
}

// Rollback ends a canary (the candidate takes no new runs; its state
// becomes state, rolled_back or rejected, with reason), or, when there is
// none, returns to the previous stable release. It returns the active
// set after.
func Rollback(ctx context.Context, s Store, state State, reason string) (Active, string, error) {
	a, err := s.Active(ctx)
	if err != nil {
		return Active{}, "", err
	}
	var from string
	switch {
	case a.Candidate != "":
		from = a.Candidate
		a.Candidate, a.Share = "", 0
	case len(a.Previous) > 0:
		from = a.Stable
		a.Stable, a.Previous = a.Previous[0], a.Previous[1:]
	default:
		return a, "", errs.Errorf("release", errs.Invalid, "nothing to roll back: no canary runs and %q has no previous release", a.Stable)
	}
	if err := s.SetActive(ctx, a); err != nil {
		return Active{}, "", err
	}
	if from != "" {
		if err := setState(ctx, s, from, state, 0, reason); err != nil {
			return a, from, err
		}
	}
	if a.Stable != "" {
		st, err := s.Status(ctx, a.Stable)
		if err == nil && st.State != Promoted {
			err = setState(ctx, s, a.Stable, Promoted, 100, "rolled back to")
		}
		if err != nil {
			return a, from, err
		}
	}
	return a, from, nil
}

// setState records name's state, keeping its workflow.
func setState(ctx context.Context, s Store, name string, state State, share int, reason string) error {
	st, err := s.Status(ctx, name)
	if err != nil && !errs.Is(errs.NotFound, err) {
		return err
	}
	st.Name, st.State, st.Share, st.Reason, st.UpdatedAt = name, state, share, reason, time.Now().UTC()
	return s.SetStatus(ctx, st)
}

// Kept lists the releases whose index versions must stay: the active
// ones, the previous stables, the keep newest releases, and any release
// not yet decided (created, gating or in its canary).
func Kept(ctx context.Context, s Store, a Active, keep int) ([]string, error) {
	out := append(a.Names(), a.Previous...)
	ms, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		if i >= len(ms)-keep {
			out = append(out, m.Name)
			continue
		}
		st, err := s.Status(ctx, m.Name)
		if err != nil && !errs.Is(errs.NotFound, err) {
			return nil, err
		}
		if st.State == Created || st.State == Gating || st.State == Canary || st.State == "" {
			out = append(out, m.Name)
		}
	}
	return out, nil
}
