package live

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestLoopExpand: with loop.expand and a thesaurus, the worker's search
// runs the query with the relatives translate would put for its words
// beside them (WordNet: "lumps" → "chunk", which the X200 blade page
// says), names them in an expand stage, and the page reaches the top 5
// (fresh f23); off, the query runs as typed and the page is not in the
// top 5. The builtin assessor is told whether the worker's
// searches expand (assess.Builtin.ExpandedSearch), so that v39 credits
// the relatives only when the search used them.
func TestLoopExpand(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	for i, on := range []bool{false, true} {
		worker := hollinWordNet(t, dataDir, on, i == 0)
		if b, ok := worker.cur.Load().assessor.(*assess.Builtin); !ok || b.ExpandedSearch != on {
			t.Errorf("loop.expand %v: the assessor is told its searches expand: %v, want %v", on, ok && b.ExpandedSearch, on)
		}
		res, err := worker.Search(ctx, retrieval.Request{Query: "my blender leaves lumps of fruit", Groups: []string{"public"}, K: 5})
		worker.Close()
		if err != nil {
			t.Fatal(err)
		}
		var docs []string
		for _, h := range res.Hits {
			docs = append(docs, h.DocID)
		}
		note := expandNote(res)
		found := slices.Contains(docs, "man-x200-blades")
		if on != found || on != strings.Contains(note, "chunk") {
			t.Errorf("loop.expand %v: top 5 %v, expand stage %q; want man-x200-blades and a note naming chunk only when on", on, docs, note)
		}
	}
}

// hollinWordNet opens a worker on the Hollin corpus in dataDir (building
// its index when build) with WordNet's thesaurus and loop.expand as
// given; it skips the test when no WordNet is installed. The caller
// closes the worker.
func hollinWordNet(t *testing.T, dataDir string, expand, build bool) *Index {
	t.Helper()
	const wordnet = "/usr/share/wordnet"
	cfg := config.Default()
	cfg.DataDir = dataDir
	cfg.Index.Corpus = filepath.Join("..", "..", "..", "testdata", "hollin", "corpus.jsonl")
	cfg.Loop.Thesaurus = wordnet
	cfg.Loop.Expand = expand
	worker, err := Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), build)
	if err != nil {
		t.Fatal(err)
	}
	if worker.thes == nil {
		worker.Close()
		t.Skip("no WordNet at " + wordnet)
	}
	return worker
}

// expandNote is the note of res's expand stage, "" when it has none.
func expandNote(res retrieval.Result) string {
	for _, st := range res.Stages {
		if st.Name == "expand" {
			return st.Note
		}
	}
	return ""
}
