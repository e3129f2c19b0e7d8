package release

import (
	"context"
	"sync"
	"time"

	"github.com/assay-rag/assay/internal/wire"
)

// Pinner picks the release of new runs from a store's active set, read
// at most every TTL: a promotion or rollback reaches every gateway
// within TTL (a rollback must take effect within a second). It also
// keeps the manifests of the releases it pinned to, which never change,
// for their loop defaults (Defaults).
type Pinner struct {
	// Open opens the store on first use.
	Open func(ctx context.Context) (Store, error)
	TTL  time.Duration

	mu        sync.Mutex
	store     Store
	active    Active
	read      time.Time
	manifests map[string]Manifest
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
	if err := p.open(ctx); err != nil {
		return Active{}, err
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
	// Read the manifests of releases new to this gateway now, while the
	// store answers, so their loop defaults are at hand if it stops.
	for _, name := range a.Names() {
		_, _ = p.manifest(ctx, name)
	}
	return a, nil
}

// Defaults is the AnswerInput runs pinned to release name start from:
// the loop defaults its manifest records (Loop.Template). ok is false
// for a manifest that records none.
func (p *Pinner) Defaults(ctx context.Context, name string) (in wire.AnswerInput, ok bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.open(ctx); err != nil {
		return wire.AnswerInput{}, false, err
	}
	m, err := p.manifest(ctx, name)
	if err != nil {
		return wire.AnswerInput{}, false, err
	}
	in, ok = m.Loop.Template()
	return in, ok, nil
}

// Store is the store the pinner reads, opened on first use.
func (p *Pinner) Store(ctx context.Context) (Store, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.open(ctx); err != nil {
		return nil, err
	}
	return p.store, nil
}

// open opens the store unless it is open; p.mu is held.
func (p *Pinner) open(ctx context.Context) error {
	if p.store != nil {
		return nil
	}
	s, err := p.Open(ctx)
	if err != nil {
		return err
	}
	p.store = s
	return nil
}

// manifest is release name's manifest, read once; p.mu is held.
func (p *Pinner) manifest(ctx context.Context, name string) (Manifest, error) {
	if m, ok := p.manifests[name]; ok {
		return m, nil
	}
	m, err := p.store.Get(ctx, name)
	if err != nil {
		return Manifest{}, err
	}
	if p.manifests == nil {
		p.manifests = map[string]Manifest{}
	}
	p.manifests[name] = m
	return m, nil
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
