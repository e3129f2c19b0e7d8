package live

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/retrieval"
)

// Direct is the configured index opened once, not following rebuilds,
// with the retriever the service would use over it: what `assay search`
// and `assay eval retrieval` query without Temporal.
type Direct struct {
	Index     backend.Index
	Retriever *retrieval.Retriever
	src       *Source
	// rewriter is loop.rewriter: the builtin rewriter Assessor wires
	// (empty: the default).
	rewriter string
}

// OpenDirect opens the configured index (building it first when build is
// set, as Source.Open does) and wires its retriever.
func OpenDirect(ctx context.Context, cfg config.Config, log *slog.Logger, build bool) (*Direct, error) {
	src, err := NewSource(ctx, cfg)
	if err != nil {
		return nil, err
	}
	ix, err := src.Open(ctx, log, build)
	if err != nil {
		src.Close()
		return nil, err
	}
	r, err := NewRetriever(ix, cfg)
	if err != nil {
		ix.Close()
		src.Close()
		return nil, err
	}
	return &Direct{Index: ix, Retriever: r, src: src, rewriter: cfg.Loop.Rewriter}, nil
}

// Assessor is the builtin assessor and its rewriter over the index,
// wired as a worker wires them (with thes; nil: none; the rewriter
// loop.rewriter names): the offline harnesses judge with the service's
// vocabulary, its visible-chunk check (Holdings), spelling lookups
// (Spellings) and error check included.
func (d *Direct) Assessor(thes assess.Thesaurus) (*assess.Builtin, error) {
	return builtinAssessor(d.Index, thes, d.rewriter)
}

// Close closes the index and the Redis client.
func (d *Direct) Close() error {
	return errors.Join(d.Index.Close(), d.src.Close())
}

// Built is what `assay index` wrote.
type Built struct {
	Stats backend.BuildStats
	// Target names the index written; Summary describes its manifest.
	Target, Summary string
}

// BuildConfigured builds the corpus at corpusPath into the configured
// index: the bleve index in index.dir, or the RediSearch index
// index.name with the vector layout index.vector names.
func BuildConfigured(ctx context.Context, cfg config.Config, corpusPath string, set BuildSettings) (Built, error) {
	if cfg.Index.Backend != config.BackendRediSearch {
		m, st, err := Build(ctx, corpusPath, cfg.Index.Dir, set)
		return Built{Stats: st, Target: cfg.Index.Dir, Summary: m.String()}, err
	}
	src, err := NewSource(ctx, cfg)
	if err != nil {
		return Built{}, err
	}
	defer src.Close()
	m, st, err := src.BuildRediSearch(ctx, corpusPath, set)
	if err != nil {
		return Built{}, err
	}
	return Built{
		Stats:   st,
		Target:  fmt.Sprintf("RediSearch index %q version %d at %s", cfg.Index.Name, m.Version, cfg.Redis.Addr),
		Summary: fmt.Sprintf("%s; vectors %s", m.Manifest, vectorLayout(m)),
	}, nil
}

// vectorLayout names the vector layout of m: the algorithm, and for HNSW
// the layout the build was asked for (m.Vector reads HNSW for hnsw and
// hnsw+small-flat alike) with how many ACL groups got an index of their
// own and how many of those are FLAT.
func vectorLayout(m redisearch.Manifest) string {
	if m.Vector != redisearch.HNSW {
		return cmp.Or(m.Vector, "none")
	}
	return fmt.Sprintf("%s (%s: %d ACL groups with an index of their own, %d of them FLAT)",
		m.Vector, cmp.Or(m.VectorLayout, "layout not recorded"), len(m.VectorGroups), len(m.VectorGroupsFlat))
}
