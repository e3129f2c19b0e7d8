// Package live is the configured retrieval backend, kept live: it opens
// the index config names (bleve in a directory or RediSearch in Redis),
// building it first when the corpus or the build settings changed, builds
// it on request (`assay index`), chooses the embedder for builds and
// queries, and serves the current version across rebuilds (Index).
package live

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// Source opens the configured index of either backend.
type Source struct {
	cfg config.Config
	rdb *redis.Client // redisearch only
	// passagesOnly: the index is only read for chunk texts (a gateway
	// serving sources), so it is opened whatever it was built with.
	passagesOnly bool
}

// NewSource connects to Redis for the redisearch backend; an unreachable
// Redis is an error naming the setting.
func NewSource(ctx context.Context, cfg config.Config) (*Source, error) {
	s := &Source{cfg: cfg}
	if cfg.Index.Backend != config.BackendRediSearch {
		return s, nil
	}
	s.rdb = redisearch.NewClient(cfg.Redis.Addr, cfg.Redis.Password.Reveal())
	if err := redisearch.Ping(ctx, s.rdb); err != nil {
		s.rdb.Close()
		return nil, fmt.Errorf("index.backend redisearch: %w", err)
	}
	return s, nil
}

// NewPassageSource is the configured index's Source for a reader of
// chunk texts only (a gateway serving sources: OpenPassagesFrom). It
// does not ping Redis: a gateway may start before Redis or the index is
// there, and Built says which is missing when asked.
func NewPassageSource(cfg config.Config) *Source {
	s := &Source{cfg: cfg, passagesOnly: true}
	if cfg.Index.Backend == config.BackendRediSearch {
		s.rdb = redisearch.NewClient(cfg.Redis.Addr, cfg.Redis.Password.Reveal())
	}
	return s
}

// Stamp names one build of the configured index as Source.Built found
// it: a bleve directory's manifest file, or a RediSearch index's current
// version. The zero Stamp names none.
type Stamp struct {
	file    os.FileInfo // bleve
	version int         // redisearch (versions count from 1)
}

// Same reports whether s and o name the same build.
func (s Stamp) Same(o Stamp) bool {
	if s.file != nil || o.file != nil {
		return s.file != nil && o.file != nil && os.SameFile(s.file, o.file)
	}
	return s.version == o.version
}

// Built finds the configured index's current build without opening it,
// by what a served index's Stale reads: one stat of a bleve directory's
// manifest (bleveindex.Built), or one Redis round trip for a RediSearch
// index's current-version pointer (redisearch.CurrentVersion). Both are
// written last by a build, so a build found is a whole one. It fails
// with errs.NotFound when there is none and errs.Unavailable when Redis
// does not answer.
func (s *Source) Built(ctx context.Context) (Stamp, error) {
	if s.rdb == nil {
		fi, err := bleveindex.Built(s.cfg.IndexDir())
		return Stamp{file: fi}, err
	}
	v, err := redisearch.CurrentVersion(ctx, s.rdb, s.cfg.Index.Name)
	return Stamp{version: v}, err
}

// Close closes the Redis client.
func (s *Source) Close() error {
	if s.rdb != nil {
		return s.rdb.Close()
	}
	return nil
}

// Open opens the current version, building it first (when build is set
// and a corpus is configured) if it is missing, was built from another
// corpus or with other settings.
func (s *Source) Open(ctx context.Context, log *slog.Logger, build bool) (backend.Index, error) {
	if s.rdb == nil {
		if !build || s.passagesOnly {
			return bleveindex.Open(s.cfg.IndexDir())
		}
		return openBleve(ctx, s.cfg, log)
	}
	name := s.cfg.Index.Name
	if s.passagesOnly {
		return redisearch.Open(ctx, s.rdb, name, redisearch.Options{ExactCandidates: s.cfg.Index.ExactCandidates})
	}
	ix, err := redisearch.Open(ctx, s.rdb, name, redisearch.Options{ExactCandidates: s.cfg.Index.ExactCandidates})
	if err != nil && !errs.Is(errs.NotFound, err) && !errs.Is(errs.Invalid, err) {
		return nil, err
	}
	set, serr := DefaultBuild(s.cfg)
	if serr != nil {
		return nil, serr
	}
	if !build || s.cfg.Index.Corpus == "" {
		if err != nil {
			return nil, fmt.Errorf("%w; build it with `assay index --backend redisearch --name %s --corpus FILE`", err, name)
		}
		if !set.builtBy(ix.Manifest()) {
			return nil, errs.Errorf("index.Open", errs.Invalid, "RediSearch index %s was built with embedder %q (dim %d), this worker embeds queries with %s: rebuild the index or configure the same embedder (embed.*)",
				name, ix.Manifest().Embedder, ix.Manifest().Dim, set.embedderName())
		}
		if other := otherLayout(ix.RedisManifest(), s.cfg.Index.Vector); other != "" {
			log.Warn("the RediSearch index was built with another vector layout than index.vector names; serving it as built (its hits are the same, its small groups' callers' vector leg may be slower); rebuild it (assay index, or a new release for a release's index) to change it",
				"name", name, "built", other, "index.vector", s.cfg.Index.Vector)
		}
		return ix, nil
	}
	sum, lerr := CorpusChecksum(s.cfg.Index.Corpus, set.RequireACL)
	if lerr != nil {
		return nil, lerr
	}
	if err == nil {
		m := ix.Manifest()
		var changed string
		switch {
		case m.CorpusChecksum != sum:
			changed = "the corpus"
		case m.Chunking != set.Chunking.String():
			changed = "the chunking"
		case !set.builtBy(m):
			changed = "the embedder"
		case otherLayout(ix.RedisManifest(), s.cfg.Index.Vector) != "":
			changed = "index.vector"
		default:
			return ix, nil
		}
		log.Info(changed+" changed since the index was built; rebuilding", "corpus", s.cfg.Index.Corpus, "redis", s.cfg.Redis.Addr, "name", name)
	}
	_, st, err := s.BuildRediSearch(ctx, s.cfg.Index.Corpus, set)
	if err != nil {
		return nil, err
	}
	log.Info("index built in Redis", "redis", s.cfg.Redis.Addr, "name", name, "documents", st.Documents, "chunks", st.Chunks,
		"embedded", st.Embedded, "reused", st.Reused, "removed", st.Removed, "took", st.Took.Round(time.Millisecond))
	return redisearch.Open(ctx, s.rdb, name, redisearch.Options{ExactCandidates: s.cfg.Index.ExactCandidates})
}

// otherLayout is the vector layout m was built with when it is not the
// one index.vector names (want), and "" when they agree or m does not
// say: an index without vectors, or built before round 44, is served as
// it is (TestOwnBuildServesPlainHNSW). want is read as Build reads
// BuildOptions.Vector: in any case, empty as hnsw (a Config not loaded
// by config.Load, whose default is hnsw+small-flat), so that an index
// built with it agrees with it (TestOtherLayout).
func otherLayout(m redisearch.Manifest, want string) string {
	if want == "" {
		want = config.VectorHNSW // redisearch.Build's default
	}
	if m.VectorLayout == "" || strings.EqualFold(m.VectorLayout, want) {
		return ""
	}
	return m.VectorLayout
}

// BuildRediSearch loads, chunks and builds the corpus at corpusPath into
// the RediSearch index the configuration names, with the vector layout
// index.vector names. The source must be of the redisearch backend.
func (s *Source) BuildRediSearch(ctx context.Context, corpusPath string, set BuildSettings) (redisearch.Manifest, backend.BuildStats, error) {
	if s.rdb == nil {
		return redisearch.Manifest{}, backend.BuildStats{}, errs.Errorf("index", errs.Invalid, "index.backend is %q, not redisearch", s.cfg.Index.Backend)
	}
	var m redisearch.Manifest
	_, st, err := buildWith(ctx, corpusPath, set, func(ctx context.Context, chunks []corpus.Chunk, o backend.BuildOptions) (backend.BuildStats, error) {
		var st backend.BuildStats
		var err error
		m, st, err = redisearch.Build(ctx, s.rdb, s.cfg.Index.Name, chunks, redisearch.BuildOptions{
			Checksum: o.Checksum, Embedder: o.Embedder, Chunking: o.Chunking, BM25: o.BM25, Vector: s.cfg.Index.Vector, Progress: o.Progress,
		})
		return st, err
	})
	return m, st, err
}

// BuildSettings are everything a build needs besides where the corpus
// and the index are.
type BuildSettings struct {
	Chunking chunk.Settings
	Embedder backend.Embedder // nil: BM25 only
	// IDFDim, when set, replaces Embedder with the IDF-weighted builtin of
	// that dimension, whose statistics come from the chunks being indexed.
	IDFDim   int
	BM25     backend.BM25
	Analyzer string
	Progress func(stage string, done, total int)
	// RequireACL fails the build on a document without an acl field
	// (index.require_acl).
	RequireACL bool
	// Loaded, when set, sees the documents before they are chunked (the
	// build summary counts them per ACL).
	Loaded func(docs []corpus.Document)
}

// Build loads, chunks and indexes a corpus into the bleve index in dir.
func Build(ctx context.Context, corpusPath, dir string, s BuildSettings) (backend.Manifest, backend.BuildStats, error) {
	var m backend.Manifest
	_, st, err := buildWith(ctx, corpusPath, s, func(ctx context.Context, chunks []corpus.Chunk, o backend.BuildOptions) (backend.BuildStats, error) {
		var st backend.BuildStats
		var err error
		m, st, err = bleveindex.Build(ctx, dir, chunks, o)
		return st, err
	})
	return m, st, err
}

// writer writes chunks into one backend.
type writer func(ctx context.Context, chunks []corpus.Chunk, o backend.BuildOptions) (backend.BuildStats, error)

// buildWith loads and chunks a corpus and hands the chunks, with the
// build options s makes, to write.
func buildWith(ctx context.Context, corpusPath string, s BuildSettings, write writer) (backend.BuildOptions, backend.BuildStats, error) {
	ch, err := chunk.New(s.Chunking)
	if err != nil {
		return backend.BuildOptions{}, backend.BuildStats{}, err
	}
	docs, err := LoadCorpus(corpusPath, s.RequireACL)
	if err != nil {
		return backend.BuildOptions{}, backend.BuildStats{}, err
	}
	if len(docs) == 0 {
		return backend.BuildOptions{}, backend.BuildStats{}, errs.Errorf("index", errs.Invalid, "corpus %s has no documents", corpusPath)
	}
	if s.Loaded != nil {
		s.Loaded(docs)
	}
	chunks := ch.SplitAll(docs)
	sum := corpus.Checksum(docs)
	if s.IDFDim > 0 {
		// The vectors' IDF weights are whole-corpus statistics: with more
		// than one ACL part they would let a principal's results depend
		// on documents it may not see.
		if n := corpus.CountACLParts(docs); n > 1 {
			return backend.BuildOptions{}, backend.BuildStats{}, errs.FieldError("index", "embed.provider",
				fmt.Sprintf("builtin-idf weighs vectors by IDF over the whole corpus, and corpus %s has %d ACL parts (%s): the weights would carry statistics of documents a principal may not see; use builtin (the default), openai or none for a corpus with restricted documents",
					corpusPath, n, corpus.ACLParts(docs)))
		}
		if s.Embedder, err = embed.NewHashedIDF(s.IDFDim, embed.Counts(backend.NewStats(chunks)), sum); err != nil {
			return backend.BuildOptions{}, backend.BuildStats{}, err
		}
	}
	o := backend.BuildOptions{
		Checksum: sum, Embedder: s.Embedder, Chunking: s.Chunking.String(),
		BM25: s.BM25, Analyzer: s.Analyzer, Progress: s.Progress,
	}
	st, err := write(ctx, chunks, o)
	return o, st, err
}

// DefaultBuild is how `assay dev` and `assay worker` build the index of
// the configured corpus: the default chunker, the configured embedder,
// the tuned BM25 parameters.
func DefaultBuild(cfg config.Config) (BuildSettings, error) {
	emb, idfDim, err := EmbedderFor(cfg)
	if err != nil {
		return BuildSettings{}, err
	}
	return BuildSettings{Chunking: chunk.Default(), Embedder: emb, IDFDim: idfDim, BM25: backend.DefaultBM25, RequireACL: cfg.Index.RequireACL}, nil
}

// LoadCorpus loads a corpus, failing on documents without an acl field
// when requireACL is set.
func LoadCorpus(path string, requireACL bool) ([]corpus.Document, error) {
	docs, err := corpus.Load(path)
	if err == nil && requireACL {
		err = corpus.RequireACL(docs)
	}
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return docs, nil
}

// CorpusChecksum is the corpus.Checksum of the corpus at path, read in
// one pass (corpus.Stream) so that only ids and hashes are held, not the
// documents: checking a 500,000-chunk corpus against its index's
// manifest at start held about 780 MiB when it loaded the corpus. Its
// errors are LoadCorpus's.
func CorpusChecksum(path string, requireACL bool) (string, error) {
	var g corpus.Digest
	err := corpus.Stream(path, func(d *corpus.Document) error {
		if requireACL {
			if err := corpus.RequireACL([]corpus.Document{*d}); err != nil {
				return err
			}
		}
		g.Add(d)
		return nil
	})
	if err != nil {
		// Load's error, the one a build of this corpus reports (Load
		// also checks that ids are unique).
		if _, lerr := LoadCorpus(path, requireACL); lerr != nil {
			return "", lerr
		}
		return "", fmt.Errorf("corpus: %w", err)
	}
	return g.Sum(), nil
}

// builtBy reports whether an index built with manifest m matches the
// embedder settings s would build with.
func (s BuildSettings) builtBy(m backend.Manifest) bool {
	switch {
	case s.IDFDim > 0:
		return strings.HasPrefix(m.Embedder, fmt.Sprintf("%s/d%d/", embed.HashedIDFID, s.IDFDim))
	case s.Embedder == nil:
		return m.Embedder == ""
	}
	return m.Embedder == s.Embedder.ID()
}

// embedderName names the embedder s builds with, for errors.
func (s BuildSettings) embedderName() string {
	switch {
	case s.IDFDim > 0:
		return fmt.Sprintf("%s/d%d (corpus IDF)", embed.HashedIDFID, s.IDFDim)
	case s.Embedder == nil:
		return "no embedder"
	}
	return fmt.Sprintf("%s (dim %d)", s.Embedder.ID(), s.Embedder.Dim())
}

// openBleve opens the configured bleve index, building it from the
// configured corpus first when it is missing, was built from a different
// corpus, or was built with other settings than the defaults.
func openBleve(ctx context.Context, cfg config.Config, log *slog.Logger) (*bleveindex.Index, error) {
	dir := cfg.IndexDir()
	ix, err := bleveindex.Open(dir)
	if err != nil && !errs.Is(errs.NotFound, err) && !errs.Is(errs.Invalid, err) {
		return nil, err
	}
	if cfg.Index.Corpus == "" {
		if err != nil {
			return nil, fmt.Errorf("%w; set index.corpus (--corpus) to build one", err)
		}
		return ix, nil
	}
	set, serr := DefaultBuild(cfg)
	if serr != nil {
		if ix != nil {
			ix.Close()
		}
		return nil, serr
	}
	sum, lerr := CorpusChecksum(cfg.Index.Corpus, set.RequireACL)
	if lerr != nil {
		if ix != nil {
			ix.Close()
		}
		return nil, lerr
	}
	if err == nil {
		m := ix.Manifest()
		if m.CorpusChecksum == sum && m.Chunking == set.Chunking.String() && set.builtBy(m) {
			return ix, nil
		}
		ix.Close()
		log.Info("corpus or index settings changed since the index was built; rebuilding", "corpus", cfg.Index.Corpus)
	}
	_, st, err := Build(ctx, cfg.Index.Corpus, dir, set)
	if err != nil {
		return nil, err
	}
	log.Info("index built", "dir", dir, "documents", st.Documents, "chunks", st.Chunks,
		"embedded", st.Embedded, "reused", st.Reused, "removed", st.Removed, "took", st.Took.Round(time.Millisecond))
	return bleveindex.Open(dir)
}

// QueryEmbedder returns the embedder that embeds queries for ix: the
// builtin it was built with, or the configured OpenAI-compatible model when
// that is what built it. nil when this process cannot embed queries for ix
// (it is then searched by BM25 alone).
func QueryEmbedder(ix backend.Index, cfg config.Config) (retrieval.QueryEmbedder, error) {
	m := ix.Manifest()
	switch {
	case strings.HasPrefix(m.Embedder, embed.HashedIDFID+"/"):
		return embed.NewHashedIDF(m.Dim, ix, m.CorpusChecksum)
	case strings.HasPrefix(m.Embedder, embed.HashedID+"/"):
		return embed.NewHashed(m.Dim)
	case strings.HasPrefix(m.Embedder, "openai:"):
		if cfg.Embed.Provider != config.EmbedOpenAI || "openai:"+cfg.Embed.Model != m.Embedder || cfg.Embed.Dim != m.Dim {
			return nil, fmt.Errorf("the index was embedded with %s (dim %d); set embed.provider=openai, embed.model and embed.dim to match (ASSAY_EMBED_*) to search it by vectors",
				m.Embedder, m.Dim)
		}
		emb, _, err := EmbedderFor(cfg)
		return emb, err
	}
	return nil, nil
}

// NewRetriever wires retrieval over ix with its query embedder and the
// builtin reranker loop.reranker names (the default: rerank.BuiltinID).
func NewRetriever(ix backend.Index, cfg config.Config) (*retrieval.Retriever, error) {
	q, err := QueryEmbedder(ix, cfg)
	if err != nil {
		return nil, err
	}
	rr, ok := rerank.Model(terms.New(), cfg.Loop.Reranker)
	if !ok {
		return nil, fmt.Errorf("loop.reranker: want %s (the default) or %s, got %q", rerank.BuiltinID, rerank.V4ID, cfg.Loop.Reranker)
	}
	o := retrieval.Options{Reranker: rr}
	if q != nil {
		o.Embedder = q
	}
	return retrieval.NewWithOptions(ix, o)
}

// searcherFor is the loop's searcher over ix, and whether it runs wholly
// in this process (no embedding endpoint). An index whose queries this
// process cannot embed is searched by BM25 alone, and the log says why.
func searcherFor(ix backend.Index, cfg config.Config, log *slog.Logger) (s *retrieval.Retriever, inProcess bool) {
	r, err := NewRetriever(ix, cfg)
	if err != nil {
		log.Warn("searching by BM25 alone", "reason", err)
		return retrieval.New(ix), true
	}
	return r, !embedsByEndpoint(ix)
}

// embedsByEndpoint reports whether ix's queries are embedded by calling
// an embedding endpoint (openai), not in this process.
func embedsByEndpoint(ix backend.Index) bool {
	return strings.HasPrefix(ix.Manifest().Embedder, "openai:")
}

// EmbedderFor builds the configured embedder. The IDF-weighted builtin is
// built from the corpus being indexed: for it EmbedderFor returns its
// dimension instead, and a nil embedder; for none, nil and 0.
func EmbedderFor(cfg config.Config) (backend.Embedder, int, error) {
	dim := cfg.Embed.Dim
	if dim == 0 {
		dim = embed.DefaultHashedDim
	}
	switch cfg.Embed.Provider {
	case config.EmbedNone:
		return nil, 0, nil
	case config.EmbedBuiltinIDF:
		return nil, dim, nil
	case config.EmbedOpenAI:
		url, key := cfg.EmbedEndpoint()
		client, err := llm.New(llm.Config{BaseURL: url, APIKey: key.Reveal(), Timeout: cfg.LLM.Timeout, MaxRetries: cfg.LLM.MaxRetries})
		if err != nil {
			return nil, 0, fmt.Errorf("embed: %w", err)
		}
		emb, err := embed.NewOpenAI(embed.OpenAIConfig{Client: client, Model: cfg.Embed.Model, Dim: cfg.Embed.Dim})
		return emb, 0, err
	}
	emb, err := embed.NewHashed(dim)
	return emb, 0, err
}

// Describe says where the configured index lives, for start-up lines.
func Describe(cfg config.Config) string {
	if cfg.Index.Backend == config.BackendRediSearch {
		return fmt.Sprintf("RediSearch index %q in Redis at %s", cfg.Index.Name, cfg.Redis.Addr)
	}
	return "bleve index in " + strings.TrimSuffix(cfg.IndexDir(), "/")
}
