// Package index stores chunks for retrieval: a bleve BM25 text index with
// metadata fields for pre-filtering, and the chunk texts by id.
//
// An index is a directory. Build writes a complete new directory beside the
// target and swaps it in only when it is finished, so readers never see a
// half-written index.
package index

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
)

// SchemaVersion changes whenever the on-disk layout or mapping changes; an
// index with another version must be rebuilt.
const SchemaVersion = 1

// Files inside an index directory.
const (
	bleveDir     = "bleve"
	chunksFile   = "chunks.jsonl"
	manifestFile = "manifest.json"
)

// Field names in the bleve document.
const (
	fieldContent   = "content"
	fieldACL       = "acl"
	fieldStatus    = "status"
	fieldType      = "type"
	fieldProducts  = "products"
	fieldAuthority = "authority"
	fieldUpdated   = "updated"
)

// Manifest describes how an index was built, so a stale or incompatible
// index is detected instead of silently used.
type Manifest struct {
	SchemaVersion  int       `json:"schema_version"`
	Analyzer       string    `json:"analyzer"`
	CorpusChecksum string    `json:"corpus_checksum"`
	Documents      int       `json:"documents"`
	Chunks         int       `json:"chunks"`
	BuiltAt        time.Time `json:"built_at"`
}

// Index is an open index. It is safe for concurrent use.
type Index struct {
	dir      string
	text     bleve.Index
	chunks   map[string]corpus.Chunk
	manifest Manifest
	df       map[string]int // chunks containing each term
}

// Hit is one lexical match.
type Hit struct {
	ChunkID string
	Score   float64
}

func newMapping() mapping.IndexMapping {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
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

	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldContent, text)
	for _, f := range []string{fieldACL, fieldStatus, fieldType, fieldProducts, fieldUpdated} {
		doc.AddFieldMappingsAt(f, keyword)
	}
	doc.AddFieldMappingsAt(fieldAuthority, number)

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	m.ScoringModel = "bm25" // needs a scorch index on disk; mem-only silently scores tf-idf
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}

// Build indexes chunks into dir, replacing whatever is there only once the
// new index is complete. checksum is the corpus checksum for the manifest.
func Build(ctx context.Context, dir string, chunks []corpus.Chunk, checksum string) (Manifest, error) {
	const op = "index.Build"
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return Manifest{}, errs.E(op, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), filepath.Base(dir)+".building-")
	if err != nil {
		return Manifest{}, errs.E(op, err)
	}
	defer os.RemoveAll(tmp) // no-op after a successful rename

	text, err := bleve.New(filepath.Join(tmp, bleveDir), newMapping())
	if err != nil {
		return Manifest{}, errs.E(op, err)
	}
	docs := map[string]bool{}
	batch := text.NewBatch()
	for i := range chunks {
		if err := ctx.Err(); err != nil {
			text.Close()
			return Manifest{}, errs.E(op, errs.Timeout, err)
		}
		c := &chunks[i]
		docs[c.DocID] = true
		if err := batch.Index(c.ID, bleveDoc(c)); err != nil {
			text.Close()
			return Manifest{}, errs.E(op, err)
		}
		if batch.Size() >= 1000 {
			if err := text.Batch(batch); err != nil {
				text.Close()
				return Manifest{}, errs.E(op, err)
			}
			batch.Reset()
		}
	}
	if err := text.Batch(batch); err != nil {
		text.Close()
		return Manifest{}, errs.E(op, err)
	}
	if err := text.Close(); err != nil {
		return Manifest{}, errs.E(op, err)
	}
	if err := writeChunks(filepath.Join(tmp, chunksFile), chunks); err != nil {
		return Manifest{}, errs.E(op, err)
	}
	m := Manifest{
		SchemaVersion:  SchemaVersion,
		Analyzer:       en.AnalyzerName,
		CorpusChecksum: checksum,
		Documents:      len(docs),
		Chunks:         len(chunks),
		BuiltAt:        time.Now().UTC(),
	}
	if err := writeJSON(filepath.Join(tmp, manifestFile), m); err != nil {
		return Manifest{}, errs.E(op, err)
	}
	if err := swapDir(tmp, dir); err != nil {
		return Manifest{}, errs.E(op, err)
	}
	return m, nil
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

func bleveDoc(c *corpus.Chunk) map[string]any {
	return map[string]any{
		fieldContent:   c.Title + "\n" + c.Text,
		fieldACL:       c.ACL,
		fieldStatus:    string(c.Status),
		fieldType:      c.Type,
		fieldProducts:  c.Products,
		fieldAuthority: c.Authority,
		fieldUpdated:   c.Updated,
	}
}

func writeChunks(path string, chunks []corpus.Chunk) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range chunks {
		if err := enc.Encode(&chunks[i]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Open opens the index in dir. It fails with errs.NotFound when there is
// none and errs.Invalid when it was built with another schema version.
func Open(dir string) (*Index, error) {
	const op = "index.Open"
	var m Manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, errs.Errorf(op, errs.NotFound, "no index in %s (build one with `assay index`)", dir)
	}
	if err != nil {
		return nil, errs.E(op, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, errs.Errorf(op, errs.Invalid, "%s: bad manifest: %v", dir, err)
	}
	if m.SchemaVersion != SchemaVersion {
		return nil, errs.Errorf(op, errs.Invalid, "%s: index schema version %d, this assay reads %d: rebuild it",
			dir, m.SchemaVersion, SchemaVersion)
	}
	chunks, err := readChunks(filepath.Join(dir, chunksFile))
	if err != nil {
		return nil, errs.E(op, err)
	}
	text, err := bleve.OpenUsing(filepath.Join(dir, bleveDir), map[string]any{"read_only": true})
	if err != nil {
		return nil, errs.E(op, err)
	}
	return &Index{dir: dir, text: text, chunks: chunks, manifest: m, df: docFreqs(chunks)}, nil
}

// docFreqs counts, per term, the chunks whose title or text contain it.
func docFreqs(chunks map[string]corpus.Chunk) map[string]int {
	an := terms.New()
	df := map[string]int{}
	for _, c := range chunks {
		for t := range an.Set(c.Title + "\n" + c.Text) {
			df[t]++
		}
	}
	return df
}

// DocFreq is the number of chunks containing term (an analyzed term).
func (ix *Index) DocFreq(term string) int { return ix.df[term] }

func readChunks(path string) (map[string]corpus.Chunk, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]corpus.Chunk{}
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var c corpus.Chunk
		err := dec.Decode(&c)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[c.ID] = c
	}
}

// Close releases the index.
func (ix *Index) Close() error { return ix.text.Close() }

// Manifest returns how the index was built.
func (ix *Index) Manifest() Manifest { return ix.manifest }

// Filter restricts candidates before scoring. Groups is required: a chunk
// is a candidate only if its ACL shares a group with it.
type Filter struct {
	Groups   []string
	Types    []string
	Products []string
	Statuses []corpus.Status
}

// SearchText runs BM25 over title and text among the chunks that pass f and
// returns up to k hits, best first.
func (ix *Index) SearchText(ctx context.Context, text string, f Filter, k int) ([]Hit, error) {
	const op = "index.SearchText"
	if len(f.Groups) == 0 {
		return nil, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	}
	match := query.NewMatchQuery(text)
	match.SetField(fieldContent)
	q := query.NewBooleanQuery(nil, []query.Query{match}, nil)
	q.AddFilter(filterQuery(f))
	req := bleve.NewSearchRequestOptions(q, k, 0, false)
	res, err := ix.text.SearchInContext(ctx, req)
	if err != nil {
		return nil, errs.E(op, err)
	}
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, Hit{ChunkID: h.ID, Score: h.Score})
	}
	return hits, nil
}

func filterQuery(f Filter) query.Query {
	anyOf := func(field string, values []string) query.Query {
		qs := make([]query.Query, 0, len(values))
		for _, v := range values {
			t := query.NewTermQuery(v)
			t.SetField(field)
			qs = append(qs, t)
		}
		return query.NewDisjunctionQuery(qs)
	}
	must := []query.Query{anyOf(fieldACL, f.Groups)}
	if len(f.Types) > 0 {
		must = append(must, anyOf(fieldType, f.Types))
	}
	if len(f.Products) > 0 {
		must = append(must, anyOf(fieldProducts, f.Products))
	}
	if len(f.Statuses) > 0 {
		s := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			s[i] = string(st)
		}
		must = append(must, anyOf(fieldStatus, s))
	}
	return query.NewConjunctionQuery(must)
}

// Chunks returns the chunks with the given ids, in order. An unknown id is
// an errs.NotFound error.
func (ix *Index) Chunks(_ context.Context, ids []string) ([]corpus.Chunk, error) {
	out := make([]corpus.Chunk, 0, len(ids))
	for _, id := range ids {
		c, ok := ix.chunks[id]
		if !ok {
			return nil, errs.Errorf("index.Chunks", errs.NotFound, "no chunk %q", id)
		}
		out = append(out, c)
	}
	return out, nil
}

// Len is the number of chunks in the index.
func (ix *Index) Len() int { return len(ix.chunks) }
