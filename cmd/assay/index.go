package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/index"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/redisearch"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// runIndex builds (or incrementally rebuilds) an index from a corpus.
func runIndex(ctx context.Context, e env, args []string) error {
	f := newFlags("index", e.stderr)
	corpusPath := f.String("corpus", "", "corpus `path`: a JSONL file, a Markdown/text/HTML file, or a directory of them")
	dir := f.String("index", "", "index `dir` to write (replaced only when the new index is complete); bleve backend")
	indexSettings(f)
	vector := f.String("vector", redisearch.HNSW, "RediSearch vector `algorithm`: hnsw (approximate) or flat (exact)")
	embedSettings(f)
	maxTokens := f.Int("chunk-tokens", chunk.Default().MaxTokens, "chunk window in `words`; shorter documents stay whole")
	overlap := f.Int("chunk-overlap", chunk.Default().Overlap, "overlap of size-cut windows in `words`")
	k1 := f.Float64("bm25-k1", index.DefaultBM25.K1, "BM25 `k1`")
	b := f.Float64("bm25-b", index.DefaultBM25.B, "BM25 `b`")
	analyzer := f.String("analyzer", "en", "text `analyzer`: en (stemmed) or standard")
	quiet := f.Bool("quiet", false, "no progress bar")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	redis := cfg.Index.Backend == config.BackendRediSearch
	if *corpusPath == "" || (*dir == "" && !redis) {
		return usageError("index: --corpus and --index (or --backend redisearch --name N) are required")
	}
	emb, idfDim, err := embedderFor(cfg)
	if err != nil {
		return err
	}
	progress := func(string, int, int) {}
	if !*quiet {
		progress = progressBar(e.stderr)
	}
	set := buildSettings{
		Chunking: chunk.Settings{MaxTokens: *maxTokens, Overlap: *overlap},
		Embedder: emb, IDFDim: idfDim, BM25: index.BM25{K1: *k1, B: *b}, Analyzer: *analyzer, Progress: progress,
		RequireACL: cfg.Index.RequireACL,
		Loaded: func(docs []corpus.Document) {
			fmt.Fprintf(e.stdout, "documents by ACL: %s; %s\n", corpus.ACLParts(docs), cfg.Index.ACLPolicy())
		},
	}
	if redis {
		return indexRedis(ctx, e, cfg, *corpusPath, *vector, set)
	}
	m, st, err := buildIndex(ctx, *corpusPath, *dir, set)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "indexed %d documents as %d chunks in %s (embedded %d, reused %d, removed %d) → %s\n",
		st.Documents, st.Chunks, st.Took.Round(time.Millisecond), st.Embedded, st.Reused, st.Removed, *dir)
	fmt.Fprintf(e.stdout, "  %s\n", m)
	return nil
}

// indexRedis builds the corpus into the RediSearch index cfg names.
func indexRedis(ctx context.Context, e env, cfg config.Config, corpusPath, vector string, set buildSettings) error {
	if set.Analyzer != "" && set.Analyzer != "en" {
		return usageError("index: --analyzer: the redisearch backend indexes the en analyzer's terms only")
	}
	src, err := newIndexSource(ctx, cfg)
	if err != nil {
		return err
	}
	defer src.Close()
	var m redisearch.Manifest
	_, st, err := buildIndexWith(ctx, corpusPath, set, func(ctx context.Context, chunks []corpus.Chunk, o index.BuildOptions) (index.BuildStats, error) {
		var st index.BuildStats
		var err error
		m, st, err = redisearch.Build(ctx, src.rdb, cfg.Index.Name, chunks, redisearch.BuildOptions{
			Checksum: o.Checksum, Embedder: o.Embedder, Chunking: o.Chunking, BM25: o.BM25, Vector: vector, Progress: o.Progress,
		})
		return st, err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "indexed %d documents as %d chunks in %s (embedded %d, reused %d, removed %d) → RediSearch index %q version %d at %s\n",
		st.Documents, st.Chunks, st.Took.Round(time.Millisecond), st.Embedded, st.Reused, st.Removed, cfg.Index.Name, m.Version, cfg.Redis.Addr)
	fmt.Fprintf(e.stdout, "  %s; vectors %s\n", m.Manifest, m.Vector)
	return nil
}

// buildSettings are everything buildIndex needs besides the paths.
type buildSettings struct {
	Chunking chunk.Settings
	Embedder index.Embedder // nil: BM25 only
	// IDFDim, when set, replaces Embedder with the IDF-weighted builtin of
	// that dimension, whose statistics come from the chunks being indexed.
	IDFDim   int
	BM25     index.BM25
	Analyzer string
	Progress func(stage string, done, total int)
	// RequireACL fails the build on a document without an acl field
	// (index.require_acl).
	RequireACL bool
	// Loaded, when set, sees the documents before they are chunked.
	Loaded func(docs []corpus.Document)
}

// buildIndex loads, chunks and indexes a corpus into dir.
func buildIndex(ctx context.Context, corpusPath, dir string, s buildSettings) (index.Manifest, index.BuildStats, error) {
	var m index.Manifest
	_, st, err := buildIndexWith(ctx, corpusPath, s, func(ctx context.Context, chunks []corpus.Chunk, o index.BuildOptions) (index.BuildStats, error) {
		var st index.BuildStats
		var err error
		m, st, err = index.Build(ctx, dir, chunks, o)
		return st, err
	})
	return m, st, err
}

// indexWriter writes chunks into one backend.
type indexWriter func(ctx context.Context, chunks []corpus.Chunk, o index.BuildOptions) (index.BuildStats, error)

// buildIndexWith loads and chunks a corpus and hands the chunks, with
// the build options s makes, to write.
func buildIndexWith(ctx context.Context, corpusPath string, s buildSettings, write indexWriter) (index.BuildOptions, index.BuildStats, error) {
	ch, err := chunk.New(s.Chunking)
	if err != nil {
		return index.BuildOptions{}, index.BuildStats{}, err
	}
	docs, err := loadCorpus(corpusPath, s.RequireACL)
	if err != nil {
		return index.BuildOptions{}, index.BuildStats{}, err
	}
	if len(docs) == 0 {
		return index.BuildOptions{}, index.BuildStats{}, errs.Errorf("index", errs.Invalid, "corpus %s has no documents", corpusPath)
	}
	if s.Loaded != nil {
		s.Loaded(docs)
	}
	chunks := ch.SplitAll(docs)
	sum := corpus.Checksum(docs)
	if s.IDFDim > 0 {
		if s.Embedder, err = embed.NewHashedIDF(s.IDFDim, index.NewStats(chunks), sum); err != nil {
			return index.BuildOptions{}, index.BuildStats{}, err
		}
	}
	o := index.BuildOptions{
		Checksum: sum, Embedder: s.Embedder, Chunking: s.Chunking.String(),
		BM25: s.BM25, Analyzer: s.Analyzer, Progress: s.Progress,
	}
	st, err := write(ctx, chunks, o)
	return o, st, err
}

// defaultBuild is how `assay dev` and `assay worker` build the index of the
// configured corpus: the default chunker, the configured embedder, the
// tuned BM25 parameters.
func defaultBuild(cfg config.Config) (buildSettings, error) {
	emb, idfDim, err := embedderFor(cfg)
	if err != nil {
		return buildSettings{}, err
	}
	return buildSettings{Chunking: chunk.Default(), Embedder: emb, IDFDim: idfDim, BM25: index.DefaultBM25, RequireACL: cfg.Index.RequireACL}, nil
}

// loadCorpus loads a corpus, failing on documents without an acl field
// when requireACL is set.
func loadCorpus(path string, requireACL bool) ([]corpus.Document, error) {
	docs, err := corpus.Load(path)
	if err == nil && requireACL {
		err = corpus.RequireACL(docs)
	}
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return docs, nil
}

// builtBy reports whether an index built with manifest m matches the
// embedder settings s would build with.
func (s buildSettings) builtBy(m index.Manifest) bool {
	switch {
	case s.IDFDim > 0:
		return strings.HasPrefix(m.Embedder, fmt.Sprintf("%s/d%d/", embed.HashedIDFID, s.IDFDim))
	case s.Embedder == nil:
		return m.Embedder == ""
	}
	return m.Embedder == s.Embedder.ID()
}

// embedderName names the embedder s builds with, for errors.
func (s buildSettings) embedderName() string {
	switch {
	case s.IDFDim > 0:
		return fmt.Sprintf("%s/d%d (corpus IDF)", embed.HashedIDFID, s.IDFDim)
	case s.Embedder == nil:
		return "no embedder"
	}
	return fmt.Sprintf("%s (dim %d)", s.Embedder.ID(), s.Embedder.Dim())
}

// openIndex opens the configured index, building it from the configured
// corpus first when it is missing, was built from a different corpus, or
// was built with other settings than the defaults.
func openIndex(ctx context.Context, cfg config.Config, log *slog.Logger) (*index.Index, error) {
	dir := cfg.IndexDir()
	ix, err := index.Open(dir)
	if err != nil && !errs.Is(errs.NotFound, err) && !errs.Is(errs.Invalid, err) {
		return nil, err
	}
	if cfg.Index.Corpus == "" {
		if err != nil {
			return nil, fmt.Errorf("%w; set index.corpus (--corpus) to build one", err)
		}
		return ix, nil
	}
	set, serr := defaultBuild(cfg)
	if serr != nil {
		if ix != nil {
			ix.Close()
		}
		return nil, serr
	}
	docs, lerr := loadCorpus(cfg.Index.Corpus, set.RequireACL)
	if lerr != nil {
		if ix != nil {
			ix.Close()
		}
		return nil, lerr
	}
	if err == nil {
		m := ix.Manifest()
		if m.CorpusChecksum == corpus.Checksum(docs) && m.Chunking == set.Chunking.String() && set.builtBy(m) {
			return ix, nil
		}
		ix.Close()
		log.Info("corpus or index settings changed since the index was built; rebuilding", "corpus", cfg.Index.Corpus)
	}
	_, st, err := buildIndex(ctx, cfg.Index.Corpus, dir, set)
	if err != nil {
		return nil, err
	}
	log.Info("index built", "dir", dir, "documents", st.Documents, "chunks", st.Chunks,
		"embedded", st.Embedded, "reused", st.Reused, "removed", st.Removed, "took", st.Took.Round(time.Millisecond))
	return index.Open(dir)
}

// queryEmbedder returns the embedder that embeds queries for ix: the
// builtin it was built with, or the configured OpenAI-compatible model when
// that is what built it. nil when this process cannot embed queries for ix
// (it is then searched by BM25 alone).
func queryEmbedder(ix servedIndex, cfg config.Config) (retrieval.QueryEmbedder, error) {
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
		emb, _, err := embedderFor(cfg)
		return emb, err
	}
	return nil, nil
}

// newRetriever wires retrieval over ix with its query embedder and the
// builtin reranker.
func newRetriever(ix servedIndex, cfg config.Config) (*retrieval.Retriever, error) {
	q, err := queryEmbedder(ix, cfg)
	if err != nil {
		return nil, err
	}
	o := retrieval.Options{Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights)}
	if q != nil {
		o.Embedder = q
	}
	return retrieval.NewWithOptions(ix, o)
}

// searcherFor is the loop's searcher over ix, and whether it runs wholly
// in this process (no embedding endpoint). An index whose queries this
// process cannot embed is searched by BM25 alone, and the log says why.
func searcherFor(ix servedIndex, cfg config.Config, log *slog.Logger) (s activities.Searcher, inProcess bool) {
	r, err := newRetriever(ix, cfg)
	if err != nil {
		log.Warn("searching by BM25 alone", "reason", err)
		return retrieval.New(ix), true
	}
	return r, !strings.HasPrefix(ix.Manifest().Embedder, "openai:")
}

// progressBar draws index progress on w, one bar per stage.
func progressBar(w io.Writer) func(stage string, done, total int) {
	var bar *progressbar.ProgressBar
	cur := ""
	return func(stage string, done, total int) {
		if stage != cur || bar == nil {
			if bar != nil {
				bar.Finish()
				fmt.Fprintln(w)
			}
			cur = stage
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(stage),
				progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionSetWidth(30))
		}
		bar.Set(done)
		if done >= total {
			bar.Finish()
			fmt.Fprintln(w)
			bar = nil
		}
	}
}

// embedSettings declares the flags that set the embed.* configuration.
func embedSettings(f *flags) {
	f.setting("embedder", "embed.provider", "`embedder`: builtin (hashed n-grams, offline; the default), builtin-idf (the same weighted by corpus IDF), openai (any OpenAI-compatible /v1/embeddings), or none")
	f.setting("embed-url", "embed.base_url", "embeddings API base `URL` for --embedder openai (default llm.base_url; key: ASSAY_EMBED_API_KEY or llm.api_key)")
	f.setting("embed-model", "embed.model", "embedding `model` for --embedder openai")
	f.setting("embed-dim", "embed.dim", "vector `length`: the builtin's (default 768) or the model's (required for openai)")
}

// embedderFor builds the configured embedder. The IDF-weighted builtin is
// built from the corpus being indexed: for it embedderFor returns its
// dimension instead, and a nil embedder; for none, nil and 0.
func embedderFor(cfg config.Config) (index.Embedder, int, error) {
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
