package release

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
)

type ctxKey struct{}

// WithName returns ctx carrying the release a run is pinned to; the
// activities set it from their input, and a Set serves that release.
func WithName(ctx context.Context, name string) context.Context {
	if name == "" {
		return ctx
	}
	return context.WithValue(ctx, ctxKey{}, name)
}

// NameFrom is the release ctx carries; empty for none.
func NameFrom(ctx context.Context) string {
	s, _ := ctx.Value(ctxKey{}).(string)
	return s
}

// Served is what a worker has of one release: its open index version.
type Served struct {
	Manifest Manifest
	Index    *live.Index
}

// Set serves every release a worker's runs are pinned to: the search,
// chunk reader and builtin assessor of the release ctx names (WithName),
// each over that release's own index version, opened on first use and
// kept open; a run without a release uses Base, what the worker serves
// as before releases existed. A release whose prompts or routing policy
// differ from this worker's (Compatible) is refused with an
// errs.Unavailable error: a worker built for it must serve it.
type Set struct {
	Base  *live.Index
	Store Store
	Cfg   config.Config
	// Worker is the manifest of what this worker runs (its prompts,
	// models and routing policy), compared with each release's.
	Worker Manifest
	Log    *slog.Logger

	mu   sync.RWMutex
	open map[string]*Served
}

// For is the release name as served here, opening its index first. Every
// search asks, so a release already open costs a read lock.
func (s *Set) For(ctx context.Context, name string) (*Served, error) {
	s.mu.RLock()
	sv, ok := s.open[name]
	s.mu.RUnlock()
	if ok {
		return sv, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sv, ok := s.open[name]; ok {
		return sv, nil
	}
	m, err := s.Store.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	if err := Compatible(s.Worker, m); err != nil {
		return nil, err
	}
	if s.open == nil {
		s.open = map[string]*Served{}
	}
	if m.Index.Served && (m.Index.Dir == s.Cfg.IndexDir() || m.Index.Name == s.Cfg.Index.Name && m.Index.Backend == config.BackendRediSearch) {
		// The served index: Base, which follows its rebuilds.
		sv := &Served{Manifest: m, Index: s.Base}
		s.open[name] = sv
		return sv, nil
	}
	cfg := s.Cfg
	cfg.Index.Corpus = ""            // a release's index is never rebuilt
	cfg.Loop.Thesaurus = m.Thesaurus // the builtin assessor's, as the release recorded it
	switch m.Index.Backend {
	case config.BackendRediSearch:
		cfg.Index.Name = m.Index.Name
	default:
		cfg.Index.Dir = m.Index.Dir
	}
	ix, err := live.Open(ctx, cfg, s.Log, false)
	if err != nil {
		return nil, fmt.Errorf("release %s: open its index: %w", name, err)
	}
	if got := ix.Current().Manifest().CorpusChecksum; !m.Index.Served && got != m.Index.Manifest.CorpusChecksum {
		ix.Close()
		return nil, errs.Errorf("release.Serve", errs.Invalid, "release %s: its index now holds corpus %s, the release was made with %s: the index was rebuilt in place", name, got, m.Index.Manifest.CorpusChecksum)
	}
	sv = &Served{Manifest: m, Index: ix}
	s.open[name] = sv
	s.Log.Info("serving release", "release", name, "index", ix.Version(), "chunks", ix.Len())
	return sv, nil
}

// Compatible reports whether a worker running w can serve release m:
// the same backend, prompts, models and routing policy (what a release
// changes besides its index needs a worker deployed for it).
func Compatible(w, m Manifest) error {
	switch {
	case w.Index.Backend != m.Index.Backend:
		return errs.Errorf("release.Serve", errs.Unavailable, "release %s uses the %s backend, this worker %s", m.Name, m.Index.Backend, w.Index.Backend)
	case w.Assessor != m.Assessor, w.Generator != m.Generator:
		return errs.Errorf("release.Serve", errs.Unavailable, "release %s assesses with %v and generates with %v, this worker with %v and %v: deploy a worker for it",
			m.Name, m.Assessor, m.Generator, w.Assessor, w.Generator)
	case w.Router != m.Router:
		return errs.Errorf("release.Serve", errs.Unavailable, "release %s has routing policy %s, this worker %s: deploy a worker for it", m.Name, m.Router, w.Router)
	case w.Reranker != m.Reranker:
		return errs.Errorf("release.Serve", errs.Unavailable, "release %s reranks with %s, this worker with %s", m.Name, m.Reranker, w.Reranker)
	}
	return nil
}

func (s *Set) index(ctx context.Context) (*live.Index, error) {
	name := NameFrom(ctx)
	if name == "" {
		return s.Base, nil
	}
	sv, err := s.For(ctx, name)
	if err != nil {
		return nil, err
	}
	return sv.Index, nil
}

// Search implements activities.Searcher on the run's release.
func (s *Set) Search(ctx context.Context, req retrieval.Request) (retrieval.Result, error) {
	ix, err := s.index(ctx)
	if err != nil {
		return retrieval.Result{}, err
	}
	return ix.Search(ctx, req)
}

// Chunks implements activities.ChunkReader on the run's release.
func (s *Set) Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error) {
	ix, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	return ix.Chunks(ctx, ids)
}

// Assess implements assess.Assessor with the builtin assessor over the
// run's release's index.
func (s *Set) Assess(ctx context.Context, req assess.Request) (assess.Result, error) {
	ix, err := s.index(ctx)
	if err != nil {
		return assess.Result{}, err
	}
	return ix.Assess(ctx, req)
}

// Close closes every release's index (not Base).
func (s *Set) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	for _, sv := range s.open {
		if sv.Index == s.Base {
			continue
		}
		if e := sv.Index.Close(); e != nil && err == nil {
			err = e
		}
	}
	s.open = nil
	return err
}
