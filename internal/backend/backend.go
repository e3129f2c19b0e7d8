// Package backend is the retrieval backend contract: what an index of
// chunks offers retrieval, the assessor and the worker that serves it,
// and the vocabulary both implementations share (Filter, Hit, Manifest,
// BuildOptions, ...). The implementations are its subpackages: bleveindex
// (an embedded bleve index in a directory) and redisearch (one index in
// Redis shared by every worker). Package live opens the configured one
// and serves its current version across rebuilds.
//
// Every number a principal sees must be computed only from the chunks it
// may see. So a backend: scores SearchText with the statistics (document
// frequencies, chunk count, lengths) of the chunks visible to f.Groups,
// not the whole store's; gives those statistics through Visible, which
// coverage, the weak-score warning, the builtin reranker and the builtin
// assessor use; and states its problems through Warnings without
// whole-store counts. Parts keeps the statistics by ACL part for the
// bleve backend; the redisearch backend asks the engine for them (counts
// inside the ACL filter; see its stats.go), so its workers hold no term
// table.
package backend

import (
	"context"
	"time"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/names"
)

// Hit is one match.
type Hit struct {
	ChunkID string
	Score   float64
}

// VectorStats describe one vector search, for the trace.
type VectorStats struct {
	Allowed int           // chunks that passed the filter and were scored
	Took    time.Duration // the scan
	// Method says how the backend searched ("RediSearch HNSW KNN");
	// empty for an exact scan in this process.
	Method string
}

// TermCounts is term statistics over a set of chunks: how many contain a
// term, out of how many.
type TermCounts interface {
	DocFreq(term string) int
	Len() int
}

// Vocabulary is term statistics over the chunks one principal may see,
// and which of them hold which terms.
type Vocabulary interface {
	TermCounts
	// Holdings reports which sets of terms the visible chunks that pass
	// f (nil: all of them; callers give f the vocabulary's groups) hold:
	// a key is the set of terms some chunk holds exactly, bit i set when
	// it holds terms[i]; chunks holding none of terms give no key. A
	// key's value is positive and at most the number of chunks holding
	// exactly that set: bleve counts them exactly, RediSearch counts
	// those it reads and gives 1 for the sets it only checks exist (the
	// assessor reads only the keys). It returns nil and no error when it
	// cannot tell (more than MaxHeld terms, or more combinations than it
	// checks), and an error when the server did not answer or answered in
	// part: never a partial answer as if whole. A backend whose exact-set
	// checks are dear may also leave some keys open until asked
	// (OpenVocabulary, Held).
	Holdings(ctx context.Context, terms []string, f *Filter) (map[uint64]int, error)
	// Err is the first failure of the server behind the statistics since
	// Visible, nil when there was none. TermCounts has no error return:
	// a count the server did not answer is 0, and Err is how a caller
	// tells it from a true 0. Check it once before reporting anything
	// computed from the counts. bleve never fails.
	Err() error
}

// MaxHeld is the most terms Holdings takes.
const MaxHeld = 64

// Searcher is what retrieval reads of an index: filtered searches whose
// scores use the visible set's statistics, the chunks themselves, and
// the visible statistics.
type Searcher interface {
	SearchText(ctx context.Context, text string, f Filter, k int) ([]Hit, error)
	SearchVector(ctx context.Context, vec []float32, f Filter, k int) ([]Hit, VectorStats, error)
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
	// Fingerprints are the near-duplicate fingerprints of the chunks
	// (see Fingerprint), in order; 0 for an unknown id.
	Fingerprints(ids []string) []uint64
	// Visible is the statistics of the chunks visible to groups. Terms
	// that only occur in other chunks have DocFreq 0.
	Visible(groups []string) Vocabulary
	Manifest() Manifest
	// Warnings are the index's problems as groups may hear of them: no
	// whole-index counts.
	Warnings(groups []string) []string
}

// ContextSearcher is an optional Searcher capability: Visible for one
// request, whose statistics reads (DocFreq and Len have no context of
// their own) are made in ctx: they stop when the request's deadline
// passes (RediSearch). A vocabulary from it is the request's only.
type ContextSearcher interface {
	VisibleIn(ctx context.Context, groups []string) Vocabulary
}

// VisibleIn is s's Visible for a request whose context is ctx: s's
// VisibleIn when it has one (ContextSearcher), else its Visible.
func VisibleIn(ctx context.Context, s Searcher, groups []string) Vocabulary {
	if cs, ok := s.(ContextSearcher); ok {
		return cs.VisibleIn(ctx, groups)
	}
	return s.Visible(groups)
}

// Index is one open version of an index, as a worker serves it.
type Index interface {
	Searcher
	// DocFreq, Len and EachTerm are whole-index statistics, for what
	// must agree with the build (the IDF-weighted builtin embedder) and
	// for operators; never for numbers a principal sees (Visible).
	// DocFreq's error is the server's failure (RediSearch; typed
	// unavailable or timeout): never a count of 0 in place of one it
	// could not read. bleve's is nil.
	DocFreq(term string) (int, error)
	Len() int
	// EachTerm's error is the server's failure part way (RediSearch):
	// the terms given before it are not all of them.
	EachTerm(fn func(term string, df int)) error
	HasDocument(id string) bool
	// Stale reports whether a newer version of the index exists, asked
	// before every request served from this version (one stat, or one
	// Redis GET). An error means the version served cannot be confirmed
	// as the newest: the request fails rather than read it.
	Stale(ctx context.Context) (bool, error)
	// Version names the version served, for /readyz and traces.
	Version() string
	Close() error
}

// MetaSource is an optional Searcher capability: what ranking needs of
// a candidate besides its text — whether the groups may see it, its
// status and authority — without reading the chunk. Retrieval reads the
// texts of the candidates the reranker and the results need, and only
// this of the others.
type MetaSource interface {
	// ChunkMeta returns the metadata of each id, in order; an unknown id
	// is an errs.NotFound error. A backend that asks a server for it
	// stops when ctx ends.
	ChunkMeta(ctx context.Context, ids []string, groups []string) ([]ChunkMeta, error)
}

// ChunkMeta is a chunk's metadata as MetaSource returns it.
type ChunkMeta struct {
	// Visible: the chunk's ACL shares a group with the groups asked.
	Visible   bool
	Status    corpus.Status
	Authority float64
}

// HitSource is an optional Searcher capability: what a result shows of a
// chunk besides its text — ChunkMeta with its document, title, date and
// whether it has any text — without reading the chunk. Retrieval then
// reads whole only the chunks whose text it reads (the reranker's and
// the best result's), not every result's: on a server each whole chunk
// is its text and analyzed terms, ten times the rest (RediSearch).
type HitSource interface {
	// HitMeta returns the result fields of each id, in order; an
	// unknown id is an errs.NotFound error. A backend that asks a
	// server for them stops when ctx ends.
	HitMeta(ctx context.Context, ids []string, groups []string) ([]HitMeta, error)
}

// HitMeta is a chunk's result fields as HitSource returns them.
type HitMeta struct {
	ChunkMeta
	DocID, Title, Updated string
	// Empty: the chunk has no text (its Text is "" or only spaces).
	Empty bool
}

// TermSource is an optional Searcher capability: the analyzed terms of a
// chunk's title and text, kept so rerankers need not analyze them again.
// The slice is shared: callers must not modify it.
type TermSource interface {
	Terms(chunkID string) []string
}

// NameSource is an optional Index capability: the (code, name word)
// pairs its chunks' titles and texts write, per ACL group (names.Table),
// built with the index, for the builtin assessor's class reading
// (assess.PairedNamingVocabulary). Names is nil when the index keeps no
// table (one built before round 26): every word is then searched.
type NameSource interface {
	Names() *names.Table
}
