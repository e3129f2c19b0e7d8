package bleveindex

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/postings"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/vectors"
)

// Field names in the bleve document.
const (
	fieldContent   = "content" // title + text
	fieldTitle     = "title"
	fieldACL       = "acl"
	fieldStatus    = "status"
	fieldType      = "type"
	fieldProducts  = "products"
	fieldAuthority = "authority"
	fieldUpdated   = "updated"
)

// contentFields documents fieldContent in the manifest.
const contentFields = "content=title+text, title"

func newMapping(analyzer string) mapping.IndexMapping {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = analyzer
	text.Store = false
	text.IncludeInAll = false
	text.IncludeTermVectors = false
	text.DocValues = false

	keyword := bleve.NewKeywordFieldMapping()
	keyword.Store = false
	keyword.IncludeInAll = false
	keyword.DocValues = false

	number := bleve.NewNumericFieldMapping()
	number.Store = false
	number.IncludeInAll = false
	number.DocValues = false

	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldContent, text)
	doc.AddFieldMappingsAt(fieldTitle, text)
	for _, f := range []string{fieldACL, fieldStatus, fieldType, fieldProducts, fieldUpdated} {
		doc.AddFieldMappingsAt(f, keyword)
	}
	doc.AddFieldMappingsAt(fieldAuthority, number)

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = analyzer
	m.ScoringModel = "bm25" // needs a scorch index on disk; mem-only silently scores tf-idf
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}

// normalize fills o's defaults and checks it.
func normalize(o *backend.BuildOptions) error {
	const op = "index.Build"
	if o.BM25 == (backend.BM25{}) {
		o.BM25 = backend.DefaultBM25
	}
	if o.BM25.K1 <= 0 || o.BM25.K1 > 10 || o.BM25.B < 0 || o.BM25.B > 1 {
		return errs.FieldError(op, "bm25", fmt.Sprintf("want 0 < k1 <= 10 and 0 <= b <= 1, got k1=%g b=%g", o.BM25.K1, o.BM25.B))
	}
	switch o.Analyzer {
	case "", "en":
		o.Analyzer = en.AnalyzerName
	case standard.Name:
	default:
		return errs.FieldError(op, "analyzer", fmt.Sprintf("want en or standard, got %q", o.Analyzer))
	}
	if o.Embedder != nil && o.Embedder.Dim() < 1 {
		return errs.FieldError(op, "embedder", fmt.Sprintf("%s reports dimension %d", o.Embedder.ID(), o.Embedder.Dim()))
	}
	if o.Progress == nil {
		o.Progress = func(string, int, int) {}
	}
	return nil
}

// Build indexes chunks into dir, replacing whatever is there only once the
// new index is complete. Chunk ids must be unique.
func Build(ctx context.Context, dir string, chunks []corpus.Chunk, opts backend.BuildOptions) (backend.Manifest, backend.BuildStats, error) {
	const op = "index.Build"
	start := time.Now()
	if err := normalize(&opts); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, err
	}
	docs := map[string]bool{}
	seen := make(map[string]bool, len(chunks))
	for i := range chunks {
		if seen[chunks[i].ID] {
			return backend.Manifest{}, backend.BuildStats{}, errs.Errorf(op, errs.Invalid, "chunk id %q appears twice", chunks[i].ID)
		}
		seen[chunks[i].ID] = true
		docs[chunks[i].DocID] = true
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	tmp, err := os.MkdirTemp(parent, filepath.Base(dir)+".building-")
	if err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	defer os.RemoveAll(tmp) // a no-op after a successful swap

	// Ordinals follow chunk ids, so that ties broken by ordinal (postings,
	// vectors) are broken by id.
	chunks = slices.Clone(chunks)
	slices.SortFunc(chunks, func(a, b corpus.Chunk) int { return strings.Compare(a.ID, b.ID) })
	stats := backend.BuildStats{Documents: len(docs), Chunks: len(chunks)}
	if err := writeBleve(ctx, filepath.Join(tmp, bleveDir), chunks, opts); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, err
	}
	prints, err := writePostings(ctx, tmp, chunks, opts)
	if err != nil {
		return backend.Manifest{}, backend.BuildStats{}, err
	}
	if err := writeStore(tmp, chunks, prints); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	if err := writeFilters(tmp, chunks); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	if err := writeNames(tmp, chunks); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	m := backend.Manifest{
		SchemaVersion:  SchemaVersion,
		Analyzer:       opts.Analyzer,
		Fields:         contentFields,
		BM25:           opts.BM25,
		Chunking:       opts.Chunking,
		CorpusChecksum: opts.Checksum,
		Documents:      len(docs),
		Chunks:         len(chunks),
	}
	if opts.Embedder != nil {
		m.Embedder, m.Dim = opts.Embedder.ID(), opts.Embedder.Dim()
		if err := embedAll(ctx, dir, tmp, chunks, opts, &stats); err != nil {
			return backend.Manifest{}, backend.BuildStats{}, err
		}
	}
	if old, err := readChunkIDs(filepath.Join(dir, chunksFile)); err == nil {
		for _, id := range old {
			if !seen[id] {
				stats.Removed++
			}
		}
	}
	m.BuiltAt = time.Now().UTC()
	if err := writeJSON(filepath.Join(tmp, manifestFile), m); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	if err := ctx.Err(); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, errs.Timeout, err)
	}
	if err := swapDir(tmp, dir); err != nil {
		return backend.Manifest{}, backend.BuildStats{}, errs.E(op, err)
	}
	stats.Took = time.Since(start)
	return m, stats, nil
}

func writeBleve(ctx context.Context, path string, chunks []corpus.Chunk, opts backend.BuildOptions) error {
	const op = "index.Build"
	text, err := bleve.New(path, newMapping(opts.Analyzer))
	if err != nil {
		return errs.E(op, err)
	}
	batch := text.NewBatch()
	for i := range chunks {
		if err := ctx.Err(); err != nil {
			text.Close()
			return errs.E(op, errs.Timeout, err)
		}
		c := &chunks[i]
		if err := batch.Index(c.ID, bleveDoc(c)); err != nil {
			text.Close()
			return errs.E(op, err)
		}
		if batch.Size() >= 1000 {
			if err := text.Batch(batch); err != nil {
				text.Close()
				return errs.E(op, err)
			}
			batch.Reset()
			opts.Progress("index", i+1, len(chunks))
		}
	}
	if err := text.Batch(batch); err != nil {
		text.Close()
		return errs.E(op, err)
	}
	opts.Progress("index", len(chunks), len(chunks))
	if err := text.Close(); err != nil {
		return errs.E(op, err)
	}
	return nil
}

// writePostings writes the content field's inverted index (package
// postings, under dir's postings directory) in ordinal order, analyzed
// with the index's analyzer, and the chunks' kept terms (kept.go) into
// dir, and returns the chunks' text fingerprints.
func writePostings(ctx context.Context, dir string, chunks []corpus.Chunk, opts backend.BuildOptions) ([]uint64, error) {
	const op = "index.Build"
	an := newMapping(opts.Analyzer).AnalyzerNamed(opts.Analyzer)
	if an == nil {
		return nil, errs.Errorf(op, errs.Invalid, "unknown analyzer %q", opts.Analyzer)
	}
	b, err := postings.NewBuilder(filepath.Join(dir, postingsDir))
	if err != nil {
		return nil, errs.E(op, err)
	}
	kw, err := newKeptWriter(dir, len(chunks))
	if err != nil {
		return nil, errs.E(op, err)
	}
	defer kw.abort()
	fp := terms.NewUncached()
	prints := make([]uint64, len(chunks))
	for i := range chunks {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, errs.E(op, errs.Timeout, ctx.Err())
		}
		c := &chunks[i]
		content := c.Title + "\n" + c.Text
		ts := analyzeText(an, content)
		if err := b.Add(i, ts, c.ACL); err != nil {
			return nil, errs.E(op, err)
		}
		// The kept terms are package terms' analysis, the reranker's; with
		// the en analyzer (the default) that is the postings' own
		// (terms.TestWordsEqualAnalyze), so the text is analysed once.
		if opts.Analyzer != en.AnalyzerName {
			ts = fp.Terms(content)
		}
		if err := kw.add(c, ts); err != nil {
			return nil, errs.E(op, err)
		}
		prints[i] = backend.Fingerprint(fp.Terms(c.Text))
	}
	if err := b.Finish(); err != nil {
		return nil, errs.E(op, err)
	}
	if err := kw.finish(); err != nil {
		return nil, errs.E(op, err)
	}
	return prints, nil
}

func bleveDoc(c *corpus.Chunk) map[string]any {
	return map[string]any{
		fieldContent:   c.Title + "\n" + c.Text,
		fieldTitle:     c.Title,
		fieldACL:       c.ACL,
		fieldStatus:    string(c.Status),
		fieldType:      c.Type,
		fieldProducts:  c.Products,
		fieldAuthority: c.Authority,
		fieldUpdated:   c.Updated,
	}
}

// embedAll writes vectors for chunks into tmp, reusing what the index in
// oldDir already computed with the same model. The vectors go to the file
// window by window, in ordinal order, so a build holds a window's vectors
// and not the corpus's (1.4 GiB at 500k chunks of 768 dimensions).
func embedAll(ctx context.Context, oldDir, tmp string, chunks []corpus.Chunk, opts backend.BuildOptions, stats *backend.BuildStats) error {
	const op = "index.Build"
	e := opts.Embedder
	dim := e.Dim()
	cache, old := oldVectors(oldDir, e.ID(), dim)
	if old != nil {
		defer old.Close()
	}
	keys := make([]string, len(chunks))
	todo := 0
	for i := range chunks {
		keys[i] = backend.CacheKey(e.ID(), backend.EmbedText(&chunks[i]))
		if _, ok := cache[keys[i]]; !ok {
			todo++
		}
	}
	path := filepath.Join(tmp, vectorsFile)
	f, err := os.Create(path)
	if err != nil {
		return errs.E(op, err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	// A window ends after embedBatch chunks to embed or windowChunks
	// chunks (about 8 MiB of vectors), whichever comes first.
	const embedBatch = 256
	windowChunks := max(embedBatch, (8<<20)/(4*dim))
	window := make([]float32, 0, windowChunks*dim)
	var part []int // the window's chunks to embed
	var texts []string
	for from := 0; from < len(chunks); {
		if err := ctx.Err(); err != nil {
			return errs.E(op, errs.Timeout, err)
		}
		window, part, texts = window[:0], part[:0], texts[:0]
		to := from
		for ; to < len(chunks) && to-from < windowChunks && len(part) < embedBatch; to++ {
			window = window[:len(window)+dim]
			o, ok := cache[keys[to]]
			if !ok {
				part = append(part, to)
				texts = append(texts, backend.EmbedText(&chunks[to]))
				continue
			}
			v := window[len(window)-dim:]
			if err := old.ReadVectors([]uint32{o}, func(_ uint32, x []float32) { copy(v, x) }); err != nil {
				return errs.E(op, err)
			}
			stats.Reused++
		}
		if len(part) > 0 {
			got, err := e.Embed(ctx, texts)
			if err != nil {
				return errs.E(op, err)
			}
			if len(got) != len(part) {
				return errs.Errorf(op, errs.Schema, "%s returned %d vectors for %d texts", e.ID(), len(got), len(part))
			}
			for j, i := range part {
				if len(got[j]) != dim {
					return errs.Errorf(op, errs.Schema, "%s returned a %d-dimensional vector, want %d", e.ID(), len(got[j]), dim)
				}
				copy(window[(i-from)*dim:], got[j])
			}
			stats.Embedded += len(part)
			opts.Progress("embed", stats.Embedded, todo)
		}
		if err := writeFloats(w, window); err != nil {
			return errs.E(op, err)
		}
		from = to
	}
	if err := w.Flush(); err != nil {
		return errs.E(op, err)
	}
	if err := f.Close(); err != nil {
		return errs.E(op, err)
	}
	if err := vectors.BuildCodes(path, dim); err != nil {
		return errs.E(op, err)
	}
	return os.WriteFile(filepath.Join(tmp, keysFile), []byte(strings.Join(keys, "\n")+"\n"), 0o644)
}

// oldVectors maps the replaced index's cache keys to their ordinals in
// its vector store, when it was built with the same model (whatever its
// schema version: the vector files have not changed); anything
// unreadable just means no reuse. The store must be closed.
func oldVectors(dir, model string, dim int) (map[string]uint32, *vectors.Store) {
	var m backend.Manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil || json.Unmarshal(b, &m) != nil || m.Embedder != model || m.Dim != dim {
		return nil, nil
	}
	if b, err = os.ReadFile(filepath.Join(dir, keysFile)); err != nil {
		return nil, nil
	}
	keys := strings.Fields(string(b))
	s, err := vectors.Open(filepath.Join(dir, vectorsFile), dim)
	if err != nil {
		return nil, nil
	}
	if s.Len() != len(keys) {
		s.Close()
		return nil, nil
	}
	out := make(map[string]uint32, len(keys))
	for i, k := range keys {
		out[k] = uint32(i)
	}
	return out, s
}

// writeFloats writes xs little-endian.
func writeFloats(w *bufio.Writer, xs []float32) error {
	var buf [4]byte
	for _, x := range xs {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(x))
		if _, err := w.Write(buf[:]); err != nil {
			return err
		}
	}
	return nil
}

// swapDir replaces dst with src: dst moves aside, src moves in, the old
// copy goes. A crash in between leaves either the old or the new index.
func swapDir(src, dst string) error {
	old := dst + ".old"
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(dst, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
