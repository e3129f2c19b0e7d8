// Package bleveindex is the embedded retrieval backend (backend.Index):
// an index of chunks in a directory, served from memory-mapped files so
// that a worker's memory does not grow with the corpus.
//
// An index is a directory:
//
//	manifest.json   schema version, analyzer, BM25 parameters, embedder id
//	                and dimension, chunker settings, corpus checksum, counts
//	bleve/          the scorch index: the record of how chunks analyze, and
//	                the scorer of a search with a title boost (BM25 needs
//	                scorch on disk: a mem-only bleve index silently scores
//	                TF-IDF)
//	postings/       the content field's inverted index with per-group
//	                bitmaps (package postings): every other BM25 search,
//	                and the visible statistics
//	chunks.jsonl    the chunks, in ordinal order (chunk-id order), read on
//	chunks.tab      demand through the table and ids beside them
//	chunks.ids      (see store.go)
//	filters.json    the metadata filters' bitmaps (see filters.go)
//	names.json      the (code, name word) pairs the chunks write, per ACL
//	                group (see names.go; absent in an index built before
//	                round 26, which then opens without them)
//	chunks.terms    each chunk's analysed title and text, for the
//	                reranker (see kept.go; absent in an index built before
//	                round 29, which then opens without them)
//	vectors.f32     one little-endian float32 vector per chunk, same order
//	vectors.f32.*   their int8 and 1-bit codes (package vectors)
//	vectors.keys    per chunk, the embedding cache key (model + text hash)
//
// Build writes a complete new directory beside the target and swaps it in
// only when it is finished, so readers never see a half-written index, and
// it reuses the vectors of unchanged chunks from the index it replaces.
//
// bleve's BM25 k1 and b are process-wide package variables. Open sets them
// from the manifest, once: opening a second index with different values
// while the first is open is an errs.Conflict error.
package bleveindex

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/postings"
	"github.com/assay-rag/assay/internal/vectors"
)

// SchemaVersion changes whenever the on-disk layout or mapping changes; an
// index with another version must be rebuilt.
const SchemaVersion = 3

// Files inside an index directory.
const (
	bleveDir     = "bleve"
	postingsDir  = "postings"
	chunksFile   = "chunks.jsonl"
	manifestFile = "manifest.json"
	vectorsFile  = "vectors.f32"
	keysFile     = "vectors.keys"
)

// Index is an open index. It is safe for concurrent use.
type Index struct {
	dir      string
	text     bleve.Index
	an       analysis.Analyzer // the content field's
	manifest backend.Manifest
	store    *store
	post     *postings.Index
	filt     *filters
	vecs     *vectors.Store // nil without an embedder
	codes    subsets        // copies of visible sets' 1-bit codes (subsets.go)
	meta     *chunkMeta     // status and authority by ordinal (meta.go); nil: read the chunks
	names    *names.Table   // the chunks' name pairs (names.go); nil: none kept
	kept     *kept          // the chunks' analysed terms (kept.go); nil: none kept
	checks   []string       // what Check reports, computed at Open
	// inconsistent: bleve, the chunk store and the manifest disagree.
	inconsistent bool
	built        os.FileInfo // manifest.json as stat'ed before opening, for Stale
	closed       sync.Once
}

var bm25Params struct {
	mu   sync.Mutex
	open int
	cur  backend.BM25
}

func setBM25(p backend.BM25) error {
	bm25Params.mu.Lock()
	defer bm25Params.mu.Unlock()
	if bm25Params.open > 0 && bm25Params.cur != p {
		return errs.Errorf("index.Open", errs.Conflict,
			"bleve's BM25 parameters are process-wide: an open index uses k1=%g b=%g, this one needs k1=%g b=%g",
			bm25Params.cur.K1, bm25Params.cur.B, p.K1, p.B)
	}
	if bm25Params.open == 0 {
		// Written only while no index is open: an open one may be
		// scoring with them (and with equal values there is nothing to do).
		search.BM25_k1, search.BM25_b = p.K1, p.B
		bm25Params.cur = p
	}
	bm25Params.open++
	return nil
}

func releaseBM25() {
	bm25Params.mu.Lock()
	defer bm25Params.mu.Unlock()
	bm25Params.open--
}

// Open opens the index in dir. It fails with errs.NotFound when there is
// none, errs.Invalid when it was built with another schema version or is
// damaged, and errs.Conflict when its BM25 parameters clash with another
// open index's.
//
// Its files are opened one by one, by path; a build that swaps its
// directory in meanwhile would leave some of them the old build's and
// some the new one's, and the manifest stamped as opened (Stale's) the
// wrong one. So the manifest is stat'ed before and after: when another
// build came in between, what was opened is closed and opened again.
// A stat that fails for another reason than a missing manifest (no
// permission, a path component that is not a directory, an I/O error)
// is no rebuild: Open fails with it, naming the path (before round 48's
// review it retried and reported "rebuilt 5 times").
func Open(dir string) (*Index, error) {
	const op = "index.Open"
	for range openTries {
		before, err := statManifest(dir)
		if errors.Is(err, os.ErrNotExist) {
			_, err = readManifest(dir) // Open's errors, as before
			if err == nil {
				continue // built between the two reads
			}
			return nil, err
		}
		if err != nil {
			return nil, errs.E(op, err)
		}
		ix, err := openFiles(dir)
		if err != nil {
			return nil, err
		}
		if openedHook != nil {
			openedHook()
		}
		after, err := statManifest(dir)
		if err == nil && os.SameFile(before, after) {
			ix.built = before
			return ix, nil
		}
		ix.Close()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, errs.E(op, err)
		}
	}
	return nil, errs.Errorf("index.Open", errs.Unavailable, "%s was rebuilt %d times while it was being opened", dir, openTries)
}

// openTries bounds how often Open starts again because a build swapped
// its directory in while it opened.
const openTries = 5

// openedHook, when set (tests), runs in Open between opening the files
// and the second stat of the manifest.
var openedHook func()

// stat is os.Stat; tests replace it to fail where a file system would
// fail a stat and not a read (a flaky network mount), which no local
// file system does on demand.
var stat = os.Stat

// statManifest stats dir's manifest; its error is os.Stat's (a
// *fs.PathError naming the path and the cause).
func statManifest(dir string) (os.FileInfo, error) {
	return stat(filepath.Join(dir, manifestFile))
}

// openFiles is Open's work: the files of the build in dir.
func openFiles(dir string) (*Index, error) {
	const op = "index.Open"
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	ix := &Index{dir: dir, manifest: m}
	fail := func(err error) (*Index, error) {
		ix.closeFiles()
		return nil, errs.E(op, errs.Invalid, fmt.Errorf("%s: %w", dir, err))
	}
	if ix.store, err = openStore(dir, m.Chunks); err != nil {
		return fail(err)
	}
	if ix.post, err = postings.Open(filepath.Join(dir, postingsDir), 0); err != nil {
		return fail(err)
	}
	if ix.post.Len() != m.Chunks {
		return fail(fmt.Errorf("manifest says %d chunks, the postings hold %d: rebuild it", m.Chunks, ix.post.Len()))
	}
	if ix.filt, err = readFilters(dir); err != nil {
		return fail(fmt.Errorf("%s: %w", filtersFile, err))
	}
	ix.meta = newChunkMeta(ix.filt, m.Chunks)
	if ix.names, err = readNames(dir); err != nil {
		return fail(err)
	}
	if ix.kept, err = openKept(dir, m.Chunks); err != nil {
		return fail(err)
	}
	if m.Embedder != "" {
		if ix.vecs, err = vectors.Open(filepath.Join(dir, vectorsFile), m.Dim); err != nil {
			return fail(err)
		}
		if ix.vecs.Len() != m.Chunks {
			return fail(fmt.Errorf("manifest says %d chunks, %s holds %d vectors: rebuild it", m.Chunks, vectorsFile, ix.vecs.Len()))
		}
	}
	if err := setBM25(m.BM25); err != nil {
		ix.closeFiles()
		return nil, err
	}
	text, err := bleve.OpenUsing(filepath.Join(dir, bleveDir), map[string]any{"read_only": true})
	if err != nil {
		releaseBM25()
		ix.closeFiles()
		return nil, errs.E(op, err)
	}
	ix.text = text
	name := m.Analyzer
	if name == "" {
		name = en.AnalyzerName
	}
	if ix.an = text.Mapping().AnalyzerNamed(name); ix.an == nil {
		ix.Close()
		return nil, errs.Errorf(op, errs.Invalid, "%s: unknown analyzer %q", dir, name)
	}
	ix.checks, ix.inconsistent = ix.check()
	return ix, nil
}

// closeFiles releases what Open mapped and opened besides bleve.
func (ix *Index) closeFiles() error {
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	if ix.store != nil {
		keep(ix.store.close())
	}
	keep(ix.kept.close())
	if ix.post != nil {
		keep(ix.post.Close())
	}
	if ix.vecs != nil {
		keep(ix.vecs.Close())
	}
	return first
}

// Stale reports whether the directory now holds another index than the
// one opened: a build swaps in a new directory, so its manifest is
// another file. It costs one stat. No manifest at all (a build between
// its two renames, or the directory removed) is not staleness: the build
// opened is still the newest whole one. Another failure of the stat is
// an error: the caller cannot confirm the version and fails closed.
func (ix *Index) Stale(context.Context) (bool, error) {
	fi, err := Built(ix.dir)
	if errs.Is(errs.NotFound, err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !os.SameFile(fi, ix.built), nil
}

// Built says whether dir holds an index, opening nothing: the manifest
// Open would read, by one stat. A build swaps a whole directory in, its
// manifest included, so a manifest means an index that is complete; a
// later build's manifest is another file (os.SameFile tells them apart,
// as Stale does). It fails with errs.NotFound when there is none. A
// reader waiting for the index to exist asks it (live.Source.Built)
// instead of trying Open.
func Built(dir string) (os.FileInfo, error) {
	fi, err := statManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errs.Errorf("index.Built", errs.NotFound, "no index in %s (build one with `assay index`)", dir)
	}
	if err != nil {
		return nil, errs.E("index.Built", err)
	}
	return fi, nil
}

// Version names the index served, for /readyz and traces: the backend
// and when it was built (not the directory: callers see traces).
func (ix *Index) Version() string {
	return fmt.Sprintf("bleve (built %s)", ix.manifest.BuiltAt.Format(time.RFC3339Nano))
}

func readManifest(dir string) (backend.Manifest, error) {
	const op = "index.Open"
	var m backend.Manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return m, errs.Errorf(op, errs.NotFound, "no index in %s (build one with `assay index`)", dir)
	}
	if err != nil {
		return m, errs.E(op, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, errs.Errorf(op, errs.Invalid, "%s: bad manifest: %v", dir, err)
	}
	if m.SchemaVersion != SchemaVersion {
		return m, errs.Errorf(op, errs.Invalid, "%s: index schema version %d, this assay reads %d: rebuild it",
			dir, m.SchemaVersion, SchemaVersion)
	}
	return m, nil
}

// terms analyzes text with the content field's analyzer.
func (ix *Index) terms(text string) []string { return analyzeText(ix.an, text) }

func analyzeText(an analysis.Analyzer, text string) []string {
	stream := an.Analyze([]byte(text))
	out := make([]string, len(stream))
	for i, tok := range stream {
		out[i] = string(tok.Term)
	}
	return out
}

// Terms returns the analysed terms of the chunk id's title and text, as
// the builtin reranker would analyse them (backend.TermSource), read from
// chunks.terms; nil for an unknown id, an index built without the file
// (before round 29) or a chunk whose terms are not kept. The slice is the
// caller's.
func (ix *Index) Terms(id string) []string {
	if ix.kept == nil {
		return nil
	}
	ord, ok := ix.store.ordinal(id)
	if !ok {
		return nil
	}
	return ix.kept.terms(ord)
}

// Fingerprints returns the text fingerprints of the chunks with the given
// ids, in order; 0 for an unknown id or a chunk with no text.
func (ix *Index) Fingerprints(ids []string) []uint64 {
	out := make([]uint64, len(ids))
	for i, id := range ids {
		if ord, ok := ix.store.ordinal(id); ok {
			out[i] = ix.store.print(ord)
		}
	}
	return out
}

// check compares the index's parts with each other and its manifest, and
// reports whether they disagree.
func (ix *Index) check() ([]string, bool) {
	var out []string
	n := ix.store.n
	if c, err := ix.text.DocCount(); err != nil || int(c) != n {
		out = append(out, fmt.Sprintf("index count differs: bleve holds %d chunks, the chunk store %d (err %v)", c, n, err))
	}
	docs := 0 // every document has a chunk with ordinal 0
	for i := range n {
		if bytes.HasSuffix(ix.store.idBytes(i), []byte("#0")) {
			docs++
		}
	}
	if docs != ix.manifest.Documents {
		out = append(out, fmt.Sprintf("index count differs from corpus count: %d documents indexed, the corpus had %d", docs, ix.manifest.Documents))
	}
	inconsistent := len(out) > 0
	if empty := ix.filt.empty.GetCardinality(); empty > 0 {
		out = append(out, fmt.Sprintf("%d chunks have no text (an empty parse?)", empty))
	}
	return out, inconsistent
}

// Check returns the index's cheap consistency warnings, computed at Open:
// bleve's count against the chunk store, documents indexed against the
// corpus the manifest recorded, chunks with no text. Empty when healthy.
// They state whole-index counts: they are for operators (logs, `assay
// index`); what a principal sees is Warnings.
func (ix *Index) Check() []string { return ix.checks }

// DocFreq is the number of chunks containing term (an analyzed term, as
// terms.Analyzer produces), whoever may see them: for builds and
// operators. Anything a principal sees uses Visible.
func (ix *Index) DocFreq(term string) (int, error) { return ix.post.All().DocFreq(term), nil }

// HasDocument reports whether document id is indexed: every document has
// a chunk with ordinal 0.
func (ix *Index) HasDocument(id string) bool {
	_, ok := ix.store.ordinal(corpus.ChunkID(id, 0))
	return ok
}

// Len is the number of chunks in the index, whoever may see them: for
// operators. Anything a principal sees uses Visible.
func (ix *Index) Len() int { return ix.store.n }

// Manifest returns how the index was built.
func (ix *Index) Manifest() backend.Manifest { return ix.manifest }

// Dir is the index directory.
func (ix *Index) Dir() string { return ix.dir }

// Close releases the index. Closing it again does nothing.
func (ix *Index) Close() error {
	var err error
	ix.closed.Do(func() {
		ix.codes.close()
		if ix.text != nil {
			releaseBM25()
			err = ix.text.Close()
		}
		if e := ix.closeFiles(); e != nil && err == nil {
			err = e
		}
	})
	return err
}

// Chunks returns the chunks with the given ids, in order, read from disk.
// An unknown id is an errs.NotFound error. The chunks are the caller's.
func (ix *Index) Chunks(_ context.Context, ids []string) ([]corpus.Chunk, error) {
	const op = "index.Chunks"
	out := make([]corpus.Chunk, 0, len(ids))
	for _, id := range ids {
		ord, ok := ix.store.ordinal(id)
		if !ok {
			return nil, errs.Errorf(op, errs.NotFound, "no chunk %q", id)
		}
		c, err := ix.store.chunk(ord)
		if err != nil {
			return nil, errs.E(op, errs.Invalid, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// readChunkIDs reads the ids of the chunks in an index's chunks.jsonl,
// whatever its schema version.
func readChunkIDs(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var c struct {
			ID string `json:"id"`
		}
		err := dec.Decode(&c)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, c.ID)
	}
}
