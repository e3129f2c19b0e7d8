package release

import (
	"context"
	"errors"
	"testing"
	"time"
)

// flakyStore is a Store whose Active fails while down is set.
type flakyStore struct {
	Store
	active Active
	down   bool
}

func (f *flakyStore) Active(context.Context) (Active, error) {
	if f.down {
		return Active{}, errors.New("redis: connection refused")
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
