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

// Active is the store's active set, at most TTL old.
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
		return Active{}, err
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
