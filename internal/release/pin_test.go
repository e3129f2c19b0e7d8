package release

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/errs"
)

// flakyStore is a Store whose Active and Get fail while down is set.
type flakyStore struct {
	Store
	active    Active
	manifests map[string]Manifest
	down      bool
}

var errRefused = errors.New("redis: connection refused")

func (f *flakyStore) Get(_ context.Context, name string) (Manifest, error) {
	if f.down {
		return Manifest{}, errRefused
	}
	m, ok := f.manifests[name]
	if !ok {
		return Manifest{}, errs.Errorf("test", errs.NotFound, "no release %s", name)
	}
	return m, nil
}

func (f *flakyStore) Active(context.Context) (Active, error) {
	if f.down {
		return Active{}, errRefused
	}
	return f.active, nil
}

// TestPinnerStoreUnreachable: a gateway that read the active set once keeps
// pinning new runs to its stable release while the store cannot be read,
// and never to the candidate; one that never read it answers the error.
func TestPinnerStoreUnreachable(t *testing.T) {
	st := &flakyStore{active: Active{Stable: "initial", Candidate: "fixed", Share: 100}}
	p := &Pinner{Open: func(context.Context) (Store, error) { return st, nil }, TTL: time.Nanosecond}
	ctx := context.Background()
	if got, err := p.Pin(ctx, "run-1"); err != nil || got != "fixed" {
		t.Fatalf("Pin with the store up = %q, %v; want the candidate at share 100", got, err)
	}
	st.down = true
	time.Sleep(time.Millisecond) // past the TTL
	if got, err := p.Pin(ctx, "run-1"); err != nil || got != "initial" {
		t.Errorf("Pin with the store down = %q, %v; want the last stable release, initial", got, err)
	}

	fresh := &Pinner{Open: func(context.Context) (Store, error) { return st, nil }, TTL: time.Second}
	if got, err := fresh.Pin(ctx, "run-1"); err == nil {
		t.Errorf("Pin of a gateway that never read the store = %q; want its error", got)
	}
}

// TestPinnerDefaults: a run pinned to a release starts from the loop
// defaults its manifest records, read while the store answers and kept
// when it stops; a manifest without loop defaults gives none.
func TestPinnerDefaults(t *testing.T) {
	st := &flakyStore{active: Active{Stable: "initial", Candidate: "tight", Share: 50}, manifests: map[string]Manifest{
		"initial": {Name: "initial"}, // recorded no loop defaults
		"tight":   {Name: "tight", Loop: Loop{MaxAttempts: 2, Threshold: 0.7, MaxTokens: 900, MaxCostUSD: 0.01, Deadline: 7 * time.Second, TopK: 4}},
	}}
	p := &Pinner{Open: func(context.Context) (Store, error) { return st, nil }, TTL: time.Second}
	ctx := context.Background()
	if _, err := p.Pin(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	st.down = true // the manifests were read with the active set
	in, ok, err := p.Defaults(ctx, "tight")
	if err != nil || !ok {
		t.Fatalf("Defaults(tight) with the store down = %v, %v; want the manifest read with the active set", ok, err)
	}
	want := Loop{MaxAttempts: in.Budget.MaxAttempts, Threshold: in.Threshold, MaxTokens: in.Budget.MaxTokens,
		MaxCostUSD: in.Budget.MaxCostUSD, Deadline: in.Budget.Deadline, TopK: in.TopK}
	if want != st.manifests["tight"].Loop {
		t.Errorf("Defaults(tight) = %+v; want the release's loop %+v", want, st.manifests["tight"].Loop)
	}
	if _, ok, err := p.Defaults(ctx, "initial"); err != nil || ok {
		t.Errorf("Defaults(initial) = %v, %v; want no defaults from a manifest without them", ok, err)
	}
	if _, _, err := p.Defaults(ctx, "other"); err == nil {
		t.Error("Defaults of a release never read, with the store down: want its error")
	}
}
