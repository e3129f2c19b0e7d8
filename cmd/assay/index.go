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
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// runIndex builds (or incrementally rebuilds) an index from a corpus.
func runIndex(ctx context.Context, e env, args []string) error {
	f := newFlags("index", e.stderr)
	corpusPath := f.String("corpus", "", "corpus `path`: a JSONL file, a Markdown/text/HTML file, or a directory of them")
	dir := f.String("index", "", "index `dir` to write (replaced only when the new index is complete)")
	ef := embedFlags(f)
	maxTokens := f.Int("chunk-tokens", chunk.Default().MaxTokens, "chunk window in `words`; shorter documents stay whole")
	overlap := f.Int("chunk-overlap", chunk.Default().Overlap, "overlap of size-cut windows in `words`")
	k1 := f.Float64("bm25-k1", index.DefaultBM25.K1, "BM25 `k1`")
	b := f.Float64("bm25-b", index.DefaultBM25.B, "BM25 `b`")
	analyzer := f.String("analyzer", "en", "text `analyzer`: en (stemmed) or standard")
	quiet := f.Bool("quiet", false, "no progress bar")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	if *corpusPath == "" || *dir == "" {
		return usageError("index: --corpus and --index are required")
	}
	emb, err := ef.embedder(e)
	if err != nil {
		return err
	}
	progress := func(string, int, int) {}
	if !*quiet {
		progress = progressBar(e.stderr)
	}
	m, st, err := buildIndex(ctx, *corpusPath, *dir, buildSettings{
		Chunking: chunk.Settings{MaxTokens: *maxTokens, Overlap: *overlap},
		Embedder: emb, IDFDim: ef.idfDim(), BM25: index.BM25{K1: *k1, B: *b}, Analyzer: *analyzer, Progress: progress,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "indexed %d documents as %d chunks in %s (embedded %d, reused %d, removed %d) → %s\n",
		st.Documents, st.Chunks, st.Took.Round(time.Millisecond), st.Embedded, st.Reused, st.Removed, *dir)
	fmt.Fprintf(e.stdout, "  %s\n", m)
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
}

// buildIndex loads, chunks and indexes a corpus into dir.
func buildIndex(ctx context.Context, corpusPath, dir string, s buildSettings) (index.Manifest, index.BuildStats, error) {
	ch, err := chunk.New(s.Chunking)
	if err != nil {
		return index.Manifest{}, index.BuildStats{}, err
	}
	docs, err := corpus.Load(corpusPath)
	if err != nil {
		return index.Manifest{}, index.BuildStats{}, fmt.Errorf("corpus: %w", err)
	}
	if len(docs) == 0 {
		return index.Manifest{}, index.BuildStats{}, errs.Errorf("index", errs.Invalid, "corpus %s has no documents", corpusPath)
	}
	chunks := ch.SplitAll(docs)
	sum := corpus.Checksum(docs)
	if s.IDFDim > 0 {
		if s.Embedder, err = embed.NewHashedIDF(s.IDFDim, index.NewStats(chunks), sum); err != nil {
			return index.Manifest{}, index.BuildStats{}, err
		}
	}
	return index.Build(ctx, dir, chunks, index.BuildOptions{
		Checksum: sum, Embedder: s.Embedder, Chunking: s.Chunking.String(),
		BM25: s.BM25, Analyzer: s.Analyzer, Progress: s.Progress,
	})
}

// defaultBuild is how `assay dev` and `assay worker` build the index of the
// configured corpus: the default chunker, the builtin embedder, the tuned
// BM25 parameters.
func defaultBuild() (buildSettings, error) {
	emb, err := embed.NewHashed(embed.DefaultHashedDim)
	if err != nil {
		return buildSettings{}, err
	}
	return buildSettings{Chunking: chunk.Default(), Embedder: emb, BM25: index.DefaultBM25}, nil
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
	set, serr := defaultBuild()
	if serr != nil {
		return nil, serr
	}
	docs, lerr := corpus.Load(cfg.Index.Corpus)
	if lerr != nil {
		if ix != nil {
			ix.Close()
		}
		return nil, fmt.Errorf("corpus: %w", lerr)
	}
	if err == nil {
		m := ix.Manifest()
		if m.CorpusChecksum == corpus.Checksum(docs) && m.Chunking == set.Chunking.String() && m.Embedder == set.Embedder.ID() {
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

// queryEmbedder returns the embedder ix was built with, when this process
// can construct it without more configuration (the builtins); nil
// otherwise.
func queryEmbedder(ix *index.Index) (retrieval.QueryEmbedder, error) {
	m := ix.Manifest()
	switch {
	case strings.HasPrefix(m.Embedder, embed.HashedIDFID+"/"):
		return embed.NewHashedIDF(m.Dim, ix, m.CorpusChecksum)
	case strings.HasPrefix(m.Embedder, embed.HashedID+"/"):
		return embed.NewHashed(m.Dim)
	}
	return nil, nil
}

// newRetriever wires retrieval over ix with the index's own embedder and
// the builtin reranker. q overrides the query embedder (for an index built
// with an OpenAI-compatible model).
func newRetriever(ix *index.Index, q retrieval.QueryEmbedder) (*retrieval.Retriever, error) {
	var err error
	if q == nil {
		if q, err = queryEmbedder(ix); err != nil {
			return nil, err
		}
	}
	o := retrieval.Options{Reranker: rerank.NewBuiltin(terms.New(), ix, rerank.DefaultWeights)}
	if q != nil {
		o.Embedder = q
	}
	return retrieval.NewWithOptions(ix, o)
}

// searcherFor is the loop's searcher over ix. An index whose embedder this
// process cannot construct is searched by BM25 alone (openIndex logs it).
func searcherFor(ix *index.Index) activities.Searcher {
	if r, err := newRetriever(ix, nil); err == nil {
		return r
	}
	return retrieval.New(ix)
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

// embedOptions are the flags that select an embedder.
type embedOptions struct {
	name, url, model *string
	dim              *int
}

func embedFlags(f *flags) *embedOptions {
	return &embedOptions{
		name:  f.String("embedder", "builtin", "`embedder`: builtin (hashed n-grams, offline), builtin-idf (the same weighted by corpus IDF), openai (any OpenAI-compatible /v1/embeddings), or none"),
		url:   f.String("embed-url", "", "embeddings API base `URL` for --embedder openai, e.g. http://localhost:11434/v1 (key: ASSAY_EMBED_API_KEY)"),
		model: f.String("embed-model", "", "embedding `model` for --embedder openai"),
		dim:   f.Int("embed-dim", 0, "vector `length`: the builtin's (default 768) or the model's (required for openai)"),
	}
}

// embedder builds the selected embedder; nil for none and for
// builtin-idf, which buildIndex builds from the corpus (see idfDim).
func (o *embedOptions) embedder(e env) (index.Embedder, error) {
	switch *o.name {
	case "none", "builtin-idf":
		return nil, nil
	case "builtin":
		return embed.NewHashed(o.builtinDim())
	case "openai":
		return embed.NewOpenAI(embed.OpenAIConfig{BaseURL: *o.url, APIKey: e.getenv("ASSAY_EMBED_API_KEY"), Model: *o.model, Dim: *o.dim})
	}
	return nil, usageError(fmt.Sprintf("--embedder: want builtin, builtin-idf, openai or none, got %q", *o.name))
}

func (o *embedOptions) builtinDim() int {
	if *o.dim == 0 {
		return embed.DefaultHashedDim
	}
	return *o.dim
}

// idfDim is the IDF-weighted builtin's dimension when it is selected, else 0.
func (o *embedOptions) idfDim() int {
	if *o.name == "builtin-idf" {
		return o.builtinDim()
	}
	return 0
}
