// Package devsets is the Hollin development sets and the index the
// development harnesses search them on: the one list of the sets whose
// results have been read and fitted on (never a blind set), where their
// files are, and the Hollin corpus's index opened as a worker opens it.
// The offline harnesses read them from here: internal/assess/assessdev,
// internal/retrieval/retrievaldev and internal/generate's TestDevSets.
// When a blind set has been run and becomes a development set, add it to
// names (and to the Makefile's HOLLIN_SETS, testdata/eval/README.md).
//
// It is for tests: Open and Search take a testing.TB.
package devsets

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
)

// Names are the development sets, in the order the harnesses print them:
// "hollin" (testdata/eval/hollin.jsonl), then each testdata/eval/hollin-NAME.jsonl.
// Each call returns a new slice: a caller that changes it changes no other
// caller's list.
func Names() []string { return slices.Clone(names) }

// names is the one list Names copies.
var names = []string{"hollin", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21", "fresh22", "fresh23", "fresh24", "fresh25", "fresh26", "fresh27", "fresh28", "fresh29", "fresh30", "fresh31", "fresh32", "fresh33", "fresh34", "fresh35", "fresh36", "fresh37", "fresh38", "fresh39", "fresh40", "fresh41", "fresh42", "fresh43", "fresh44", "fresh45", "fresh46", "fresh47"}

// root is the repository's root directory, found from this file's path,
// so the paths below hold from any test's working directory.
var root = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("devsets: no source path for the repository root")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}()

// Path is path (slash-separated, from the repository root) in this
// checkout.
func Path(path string) string { return filepath.Join(root, filepath.FromSlash(path)) }

// Questions is the file of set name's questions.
func Questions(name string) string {
	if name == "hollin" {
		return Path("testdata/eval/hollin.jsonl")
	}
	return Path("testdata/eval/hollin-" + name + ".jsonl")
}

// KeyFacts is the file of set name's key facts.
func KeyFacts(name string) string {
	if name == "hollin" {
		return Path("testdata/hollin/key_facts.jsonl")
	}
	return Path("testdata/eval/hollin-" + name + "-facts.jsonl")
}

// Corpus is the Hollin corpus every set is asked of.
func Corpus() string { return Path("testdata/hollin/corpus.jsonl") }

// Open builds the Hollin corpus's index with the default configuration in
// a temporary directory and opens it as a worker does (live.OpenDirect):
// the service's retriever over the index. It is closed when t ends.
func Open(t testing.TB) *live.Direct {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus = Corpus()
	d, err := live.OpenDirect(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// Asker is the groups question q is asked as: its own, or public when it
// names none.
func Asker(q eval.Question) []string {
	if len(q.Groups) == 0 {
		return []string{corpus.PublicGroup}
	}
	return q.Groups
}

// Found is what one search returns: the retriever's result, its hits'
// chunks (best first) and those chunks as the evidence the Assess
// activity gives the assessor, each with its hit's score.
type Found struct {
	Result   retrieval.Result
	Chunks   []corpus.Chunk
	Evidence []assess.Evidence
}

// Search runs req on d's retriever, the searcher the worker's Search
// activity runs, and reads the hits' chunks. t fails on an error.
func Search(t testing.TB, d *live.Direct, req retrieval.Request) Found {
	t.Helper()
	ctx := context.Background()
	res, err := d.Retriever.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, h := range res.Hits {
		ids = append(ids, h.ChunkID)
	}
	chunks, err := d.Index.Chunks(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	f := Found{Result: res, Chunks: chunks}
	for i, c := range chunks {
		f.Evidence = append(f.Evidence, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text, Score: res.Hits[i].Score})
	}
	return f
}

// FirstRequest is question q's first search as the loop makes it: the
// question itself, asked as its asker (Asker), no filters, the top
// wire.DefaultTopK.
func FirstRequest(q eval.Question) retrieval.Request {
	return retrieval.Request{Query: q.Question, Groups: Asker(q), K: wire.DefaultTopK}
}
