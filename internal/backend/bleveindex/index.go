// Package bleveindex is the embedded retrieval backend (backend.Index):
// a bleve BM25 text index with
// metadata fields for pre-filtering, an in-process vector index (an exact
// scan), the chunk texts by id, and a manifest that says how it was built.
//
// An index is a directory:
//
//	manifest.json   schema version, analyzer, BM25 parameters, embedder id
//	                and dimension, chunker settings, corpus checksum, counts
//	bleve/          the scorch BM25 index (BM25 needs scorch on disk: a
//	                mem-only bleve index silently scores TF-IDF)
//	chunks.jsonl    the chunks, in index order
//	vectors.f32     one little-endian float32 vector per chunk, same order
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
	"github.com/blevesearch/bleve/v2/search"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
)

// SchemaVersion changes whenever the on-disk layout or mapping changes; an
// index with another version must be rebuilt.
const SchemaVersion = 2

// Files inside an index directory.
const (
	bleveDir     = "bleve"
	chunksFile   = "chunks.jsonl"
	manifestFile = "manifest.json"
	vectorsFile  = "vectors.f32"
	keysFile     = "vectors.keys"
)

// Index is an open index. It is safe for concurrent use.
type Index struct {
	dir      string
	text     bleve.Index
	manifest backend.Manifest
	order    []*corpus.Chunk // index order; vectors follow it
	chunks   map[string]*corpus.Chunk
	vecs     []float32           // len(order) * manifest.Dim
	parts    *backend.Parts      // term counts by chunk ACL (see Visible)
	held     []partChunks        // by part: which chunks hold which terms
	prints   map[string]uint64   // chunk id → text fingerprint
	toks     map[string][]string // chunk id → analyzed title and text terms
	checks   []string            // what Check reports, computed at Open
	// inconsistent: bleve, the chunk store and the manifest disagree.
	inconsistent bool
	lex          *lexicon    // BM25 statistics by ACL part (see visible.go)
	built        os.FileInfo // manifest.json as opened, for Stale
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
func Open(dir string) (*Index, error) {
	const op = "index.Open"
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	order, err := readChunks(filepath.Join(dir, chunksFile))
	if err != nil {
		return nil, errs.E(op, errs.Invalid, err)
	}
	if len(order) != m.Chunks {
		return nil, errs.Errorf(op, errs.Invalid, "%s: manifest says %d chunks, chunks.jsonl has %d: rebuild it", dir, m.Chunks, len(order))
	}
	ix := &Index{dir: dir, manifest: m, order: order, chunks: make(map[string]*corpus.Chunk, len(order))}
	for _, c := range order {
		ix.chunks[c.ID] = c
	}
	if m.Embedder != "" {
		if ix.vecs, err = readVectors(filepath.Join(dir, vectorsFile), len(order), m.Dim); err != nil {
			return nil, errs.E(op, errs.Invalid, err)
		}
	}
	ix.prints, ix.toks = analyze(order)
	ix.parts, ix.held = partsByACL(order, ix.toks)
	if err := setBM25(m.BM25); err != nil {
		return nil, err
	}
	text, err := bleve.OpenUsing(filepath.Join(dir, bleveDir), map[string]any{"read_only": true})
	if err != nil {
		releaseBM25()
		return nil, errs.E(op, err)
	}
	ix.text = text
	ix.checks, ix.inconsistent = ix.check()
	if ix.lex, err = newLexicon(ix); err != nil {
		ix.Close()
		return nil, err
	}
	ix.built, _ = os.Stat(filepath.Join(dir, manifestFile))
	return ix, nil
}

// Stale reports whether the directory now holds another index than the
// one opened: a build swaps in a new directory, so its manifest is
// another file. It costs one stat.
func (ix *Index) Stale(context.Context) bool {
	fi, err := os.Stat(filepath.Join(ix.dir, manifestFile))
	return err == nil && ix.built != nil && !os.SameFile(fi, ix.built)
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

// analyze keeps each chunk's analyzed title and text terms (for term
// counts and rerankers) and fingerprints each chunk's text for
// near-duplicate detection. Term strings are interned: a corpus repeats a
// small vocabulary many times.
func analyze(chunks []*corpus.Chunk) (map[string]uint64, map[string][]string) {
	an := terms.New()
	prints := make(map[string]uint64, len(chunks))
	toks := make(map[string][]string, len(chunks))
	intern := map[string]string{}
	for _, c := range chunks {
		title := an.Terms(c.Title)
		text := an.Terms(c.Text)
		all := make([]string, 0, len(title)+len(text))
		for _, t := range append(title, text...) {
			if s, ok := intern[t]; ok {
				t = s
			} else {
				intern[t] = t
			}
			all = append(all, t)
		}
		toks[c.ID] = all
		prints[c.ID] = backend.Fingerprint(text)
	}
	return prints, toks
}

// Terms returns the analyzed terms of a chunk's title and text, in order
// (what terms.Analyzer gives for each), or nil for an unknown id. The
// slice is shared: callers must not modify it.
func (ix *Index) Terms(id string) []string { return ix.toks[id] }

// Fingerprints returns the text fingerprints of the chunks with the given
// ids, in order; 0 for an unknown id or a chunk with no text.
func (ix *Index) Fingerprints(ids []string) []uint64 {
	out := make([]uint64, len(ids))
	for i, id := range ids {
		out[i] = ix.prints[id]
	}
	return out
}

// check compares the index's parts with each other and its manifest, and
// reports whether they disagree.
func (ix *Index) check() ([]string, bool) {
	var out []string
	if n, err := ix.text.DocCount(); err != nil || int(n) != len(ix.order) {
		out = append(out, fmt.Sprintf("index count differs: bleve holds %d chunks, the chunk store %d (err %v)", n, len(ix.order), err))
	}
	docs := map[string]bool{}
	empty := 0
	for _, c := range ix.order {
		docs[c.DocID] = true
		if c.Text == "" {
			empty++
		}
	}
	if len(docs) != ix.manifest.Documents {
		out = append(out, fmt.Sprintf("index count differs from corpus count: %d documents indexed, the corpus had %d", len(docs), ix.manifest.Documents))
	}
	inconsistent := len(out) > 0
	if empty > 0 {
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
func (ix *Index) DocFreq(term string) int { return ix.parts.DocFreq(term) }

// HasDocument reports whether document id is indexed: every document has
// a chunk with ordinal 0.
func (ix *Index) HasDocument(id string) bool {
	_, ok := ix.chunks[corpus.ChunkID(id, 0)]
	return ok
}

// Len is the number of chunks in the index, whoever may see them: for
// operators. Anything a principal sees uses Visible.
func (ix *Index) Len() int { return len(ix.order) }

// Manifest returns how the index was built.
func (ix *Index) Manifest() backend.Manifest { return ix.manifest }

// Dir is the index directory.
func (ix *Index) Dir() string { return ix.dir }

// Close releases the index. Closing it again does nothing.
func (ix *Index) Close() error {
	var err error
	ix.closed.Do(func() {
		releaseBM25()
		err = ix.text.Close()
	})
	return err
}

// Chunks returns the chunks with the given ids, in order. An unknown id is
// an errs.NotFound error. The chunks are copies the caller may keep.
func (ix *Index) Chunks(_ context.Context, ids []string) ([]corpus.Chunk, error) {
	out := make([]corpus.Chunk, 0, len(ids))
	for _, id := range ids {
		c, ok := ix.chunks[id]
		if !ok {
			return nil, errs.Errorf("index.Chunks", errs.NotFound, "no chunk %q", id)
		}
		out = append(out, *c)
	}
	return out, nil
}

// chunk returns the stored chunk by id without copying, for the query path.
func (ix *Index) chunk(id string) (*corpus.Chunk, bool) {
	c, ok := ix.chunks[id]
	return c, ok
}

func readChunks(path string) ([]*corpus.Chunk, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*corpus.Chunk
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		c := new(corpus.Chunk)
		err := dec.Decode(c)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, c)
	}
}
