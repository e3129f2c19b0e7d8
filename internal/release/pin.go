package release

import (
	"context"
	"sync"
	"time"
)

// Pinner picks the release of new runs from a store's active set, read
// at most every TTL: a promotion or rollback reaches every gateway
// within TTL (a rollback must take effect within a second).
type Pinner struct {
	// Open opens the store on first use.
	Open func(ctx context.Context) (Store, error)
	TTL  time.Duration

	mu     sync.Mutex
	store  Store
	active Active
	read   time.Time
}

// DefaultTTL is how long a gateway trusts the active set it read.
const DefaultTTL = 250 * time.Millisecond

// Pin is the release a new run with workflow id workflowID is pinned to
// (Active.Pick); empty when no release was ever promoted.
func (p *Pinner) Pin(ctx context.Context, workflowID string) (string, error) {
	a, err := p.Active(ctx)
	if err != nil {
		return "", err
	}
	return a.Pick(workflowID), nil
}

// Active is the store's active set, at most TTL old; when the store
// cannot be read, the last stable release alone (see below).
func (p *Pinner) Active(ctx context.Context) (Active, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.store != nil && time.Since(p.read) < p.TTL {
		return p.active, nil
	}
	if p.store == nil {
		s, err := p.Open(ctx)
		if err != nil {
			return Active{}, err
		}
		p.store = s
	}
	a, err := p.store.Active(ctx)
	if err != nil {
		if p.read.IsZero() {
			return Active{}, err
		}
		// The store is unreachable (Redis down, say): new runs go to the
		// last stable release read, never to a candidate whose canary
		// may have been stopped meanwhile. A run then fails, or not, on
		// its own terms (a search against a lost Redis stops
		// search_error) instead of every start answering 503.
		return Active{Stable: p.active.Stable}, nil
	}
	p.active, p.read = a, time.Now()
	return a, nil
}

// Close closes the store, if it was opened.
func (p *Pinner) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.store == nil {
		return nil
	}
	err := p.store.Close()
	p.store = nil
	return err
}
