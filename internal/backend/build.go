package backend

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// BM25 holds the BM25 parameters an index scores with (bleve's formula,
// √tf inside the saturation, with the visible chunks' mean length in
// tokens as the average length; see BM25Query).
type BM25 struct {
	K1 float64 `json:"k1"`
	B  float64 `json:"b"`
}

// DefaultBM25 was chosen on the train queries of SciFact alone and of the
// 50,000-chunk synthetic corpus (see docs/retrieval.md, "BM25"): with the
// mean length as the average, SciFact is flat from k1 3 to 10 and b 0.4
// to 0.9; the large corpus wants a high k1 (√tf already saturates) and a
// low b; so do the Hollin cases (a high b lets short, low-authority
// tickets beat the policies). b 0.4 is the Lucene peer's.
var DefaultBM25 = BM25{K1: 10, B: 0.4}

// Manifest describes how an index was built, so a stale or incompatible
// index is detected instead of silently used.
type Manifest struct {
	SchemaVersion int    `json:"schema_version"`
	Analyzer      string `json:"analyzer"`
	// Fields says what the BM25 content field holds.
	Fields string `json:"fields"`
	BM25   BM25   `json:"bm25"`
	// Embedder is the embedding model id; empty when the index has no
	// vectors.
	Embedder       string    `json:"embedder,omitempty"`
	Dim            int       `json:"dim,omitempty"`
	Chunking       string    `json:"chunking,omitempty"`
	CorpusChecksum string    `json:"corpus_checksum"`
	Documents      int       `json:"documents"`
	Chunks         int       `json:"chunks"`
	BuiltAt        time.Time `json:"built_at"`
}

// String describes the manifest in one line for logs and the CLI.
func (m Manifest) String() string {
	emb := "no vectors"
	if m.Embedder != "" {
		emb = fmt.Sprintf("%s (dim %d)", m.Embedder, m.Dim)
	}
	return fmt.Sprintf("%d documents, %d chunks; analyzer %s, bm25 k1=%g b=%g; %s; %s",
		m.Documents, m.Chunks, m.Analyzer, m.BM25.K1, m.BM25.B, emb, m.Chunking)
}

// Embedder turns texts into vectors of a fixed dimension.
type Embedder interface {
	// ID names the model; vectors from different ids never mix.
	ID() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// BuildOptions say how to build an index.
type BuildOptions struct {
	// Checksum is the corpus checksum recorded in the manifest.
	Checksum string
	// Embedder, when set, gives every chunk a vector. Unchanged chunks
	// reuse the vectors of the index being replaced (same embedder id).
	Embedder Embedder
	// Chunking describes the chunker settings, for the manifest.
	Chunking string
	// BM25 parameters; zero means DefaultBM25.
	BM25 BM25
	// Analyzer is "en" (default: Unicode words, lower case, English stop
	// words, Porter stems) or "standard" (no stemming). The redisearch
	// backend indexes the en analyzer's terms only.
	Analyzer string
	// Progress, when set, is called as chunks are indexed and embedded.
	Progress func(stage string, done, total int)
}

// BuildStats say what a build did.
type BuildStats struct {
	Documents int
	Chunks    int
	Embedded  int // chunks whose vectors were computed
	Reused    int // chunks whose vectors came from the replaced index
	Removed   int // chunks of the replaced index that are gone
	Took      time.Duration
}

// EmbedText is what a chunk's vector is computed from: title and text,
// as for BM25.
func EmbedText(c *corpus.Chunk) string { return c.Title + "\n" + c.Text }

// CacheKey identifies a vector by model and input text (see EmbedText),
// so a chunk whose text is unchanged is never embedded twice by the same
// model across builds.
func CacheKey(model, text string) string {
	h := sha256.New()
	io.WriteString(h, model)
	h.Write([]byte{0})
	io.WriteString(h, text)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Stats are term statistics over a set of chunks, counted exactly as an
// opened index counts DocFreq. A build uses them before the index exists,
// e.g. for an embedder that weighs words by IDF.
type Stats struct {
	df map[string]int
	n  int
}

// NewStats counts the analyzed terms of chunks' titles and texts.
func NewStats(chunks []corpus.Chunk) *Stats {
	an := terms.NewUncached()
	df := map[string]int{}
	for i := range chunks {
		for t := range an.Set(chunks[i].Title + "\n" + chunks[i].Text) {
			df[t]++
		}
	}
	return &Stats{df: df, n: len(chunks)}
}

// DocFreq is the number of chunks containing term.
func (s *Stats) DocFreq(term string) int { return s.df[term] }

// Len is the number of chunks.
func (s *Stats) Len() int { return s.n }
