package bleveindex

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/vectors"
)

// graphCorpus is n generated documents of random words, visible to
// public (even) or staff (odd).
func graphCorpus(n int) []corpus.Chunk {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("kettle warranty boiler repair filter pump valve hose seal timer heater fan motor belt gasket " +
		"fuse switch panel thermostat coil drain tank pipe nozzle spring hinge latch bracket sensor relay")
	docs := make([]corpus.Document, n)
	for i := range docs {
		var b strings.Builder
		for range 12 {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		acl := "public"
		if i%2 == 1 {
			acl = "staff"
		}
		docs[i] = corpus.Document{ID: fmt.Sprintf("d%04d", i), Title: "note", Text: b.String(), ACL: []string{acl}, Status: corpus.Current}
	}
	return wholeChunks(docs)
}

// TestVectorGraph: with the graph switched on, an index built past
// graphMinChunks has a graph; a vector search walking it with a beam as
// large as the index finds what the scan finds, a restricted caller gets
// only chunks it may see; switched off, or without the graph file, the
// search scans; a damaged graph is refused at Open.
func TestVectorGraph(t *testing.T) {
	oldOn, oldChunks, oldVisible, oldShare := graphOn, graphMinChunks, graphMinVisible, graphMinShare
	graphOn, graphMinChunks, graphMinVisible, graphMinShare = true, 1000, 0, 0
	t.Cleanup(func() {
		graphOn, graphMinChunks, graphMinVisible, graphMinShare = oldOn, oldChunks, oldVisible, oldShare
	})
	const n = 2400
	chunks := graphCorpus(n)
	dir := filepath.Join(t.TempDir(), "ix")
	e := newCounting(t)
	build(t, dir, chunks, e)
	path := filepath.Join(dir, vectorsFile)
	if _, err := os.Stat(vectors.GraphPath(path)); err != nil {
		t.Fatalf("no graph beside the vectors of %d chunks: %v", n, err)
	}
	ix := open(t, dir)
	if !ix.HasVectorGraph() {
		t.Fatal("HasVectorGraph = false")
	}
	ctx := context.Background()
	qs, err := e.Embed(ctx, []string{"kettle warranty", "pump valve seal", "thermostat relay sensor"})
	if err != nil {
		t.Fatal(err)
	}
	staff := map[string]bool{}
	for _, c := range chunks {
		if c.VisibleTo([]string{"staff"}) {
			staff[c.ID] = true
		}
	}
	for _, groups := range [][]string{{"public", "staff"}, {"staff"}} {
		f := backend.Filter{Groups: groups}
		for _, q := range qs {
			ix.SetVectorGraphBeam(-1)
			want, st, err := ix.SearchVector(ctx, q, f, 1)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(st.Method, "graph") {
				t.Errorf("beam -1: Method %q, want a scan", st.Method)
			}
			ix.SetVectorGraphBeam(n)
			got, st, err := ix.SearchVector(ctx, q, f, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(st.Method, "graph walk") {
				t.Errorf("Method %q, want a graph walk", st.Method)
			}
			if !slices.Equal(got, want) || len(got) != 1 {
				t.Errorf("%v: graph %v, scan %v", groups, got, want)
			}
			ix.SetVectorGraphBeam(8)
			got, _, err = ix.SearchVector(ctx, q, f, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range got {
				if len(groups) == 1 && !staff[h.ChunkID] {
					t.Errorf("staff-only caller got %s, a public chunk", h.ChunkID)
				}
			}
		}
	}
	ix.SetVectorGraphBeam(0)
	// Switched off, an index with a graph scans.
	graphOn = false
	if _, st, err := ix.SearchVector(ctx, qs[0], backend.Filter{Groups: []string{"public"}}, 1); err != nil || strings.Contains(st.Method, "graph") {
		t.Errorf("graph switched off: %q, %v", st.Method, err)
	}
	graphOn = true
	ix.Close()

	// Without the graph (an older index) the search scans.
	g, err := os.ReadFile(vectors.GraphPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(vectors.GraphPath(path)); err != nil {
		t.Fatal(err)
	}
	ix2 := open(t, dir)
	if ix2.HasVectorGraph() {
		t.Error("HasVectorGraph without the file")
	}
	ix2.SetVectorGraphBeam(n)
	if _, st, err := ix2.SearchVector(ctx, qs[0], backend.Filter{Groups: []string{"public"}}, 1); err != nil || strings.Contains(st.Method, "graph") {
		t.Errorf("without a graph: %q, %v", st.Method, err)
	}
	ix2.Close()

	// A damaged graph is refused, naming the file.
	g[len(g)-1] ^= 1
	if err := os.WriteFile(vectors.GraphPath(path), g, 0o644); err != nil {
		t.Fatal(err)
	}
	if ix3, err := Open(dir); err == nil {
		ix3.Close()
		t.Error("Open accepted a damaged graph")
	} else if !strings.Contains(err.Error(), "vectors.g1") || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged graph: %v", err)
	}
}
