package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
)

// runIndex builds (or incrementally rebuilds) an index from a corpus.
func runIndex(ctx context.Context, e env, args []string) error {
	f := newFlags("index", e.stderr)
	corpusPath := f.String("corpus", "", "corpus `path`: a JSONL file, a Markdown/text/HTML file, or a directory of them")
	dir := f.String("index", "", "index `dir` to write (replaced only when the new index is complete); bleve backend")
	indexSettings(f)
	f.setting("vector", "index.vector", "RediSearch vector `layout`: hnsw+small-flat (the default: hnsw, and every ACL group under an eighth of the chunks gets a FLAT index of its vectors, exact scans for its callers; a second copy of those groups' vectors, +2.2 GiB of Redis at 500k chunks in 100 teams), hnsw (the graph alone, approximate) or flat (exact)")
	embedSettings(f)
	maxTokens := f.Int("chunk-tokens", chunk.Default().MaxTokens, "chunk window in `words`; shorter documents stay whole")
	overlap := f.Int("chunk-overlap", chunk.Default().Overlap, "overlap of size-cut windows in `words`")
	k1 := f.Float64("bm25-k1", backend.DefaultBM25.K1, "BM25 `k1`")
	b := f.Float64("bm25-b", backend.DefaultBM25.B, "BM25 `b`")
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
	emb, idfDim, err := live.EmbedderFor(cfg)
	if err != nil {
		return err
	}
	progress := func(string, int, int) {}
	if !*quiet {
		progress = progressBar(e.stderr)
	}
	set := live.BuildSettings{
		Chunking: chunk.Settings{MaxTokens: *maxTokens, Overlap: *overlap},
		Embedder: emb, IDFDim: idfDim, BM25: backend.BM25{K1: *k1, B: *b}, Analyzer: *analyzer, Progress: progress,
		RequireACL: cfg.Index.RequireACL,
		Loaded: func(docs []corpus.Document) {
			fmt.Fprintf(e.stdout, "documents by ACL: %s; %s\n", corpus.ACLParts(docs), cfg.Index.ACLPolicy())
		},
	}
	if redis && *analyzer != "" && *analyzer != "en" {
		return usageError("index: --analyzer: the redisearch backend indexes the en analyzer's terms only")
	}
	cfg.Index.Dir = *dir
	built, err := live.BuildConfigured(ctx, cfg, *corpusPath, set)
	if err != nil {
		return err
	}
	st := built.Stats
	fmt.Fprintf(e.stdout, "indexed %d documents as %d chunks in %s (embedded %d, reused %d, removed %d) → %s\n",
		st.Documents, st.Chunks, st.Took.Round(time.Millisecond), st.Embedded, st.Reused, st.Removed, built.Target)
	fmt.Fprintf(e.stdout, "  %s\n", built.Summary)
	return nil
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

// indexSettings declares the flags that choose the index backend.
func indexSettings(f *flags) {
	f.setting("backend", "index.backend", "index `backend`: bleve (embedded, the default) or redisearch (one index in Redis, shared by every worker)")
	f.setting("name", "index.name", "RediSearch index `name` (default assay)")
	f.setting("redis-addr", "redis.addr", "Redis `host:port` holding the RediSearch index (and carrying answer tokens)")
}
