package bleveindex

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
)

// heapSampler is an embedder that reads the live heap (after a
// collection) each time it is asked to embed.
type heapSampler struct {
	*embed.Hashed
	mu   sync.Mutex
	peak uint64
}

func (h *heapSampler) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	h.mu.Lock()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h.peak = max(h.peak, m.HeapAlloc)
	h.mu.Unlock()
	return h.Hashed.Embed(ctx, texts)
}

// A build writes its vectors window by window: while it embeds, the live
// heap holds a window of vectors, not the corpus's (here 3,000 vectors of
// 4,096 dimensions, 47 MiB, which a build that gathers them first
// holds before it writes them).
func TestBuildHoldsAWindowOfVectors(t *testing.T) {
	const n, dim = 3000, 4096
	docs := make([]corpus.Document, n)
	for i := range docs {
		docs[i] = corpus.Document{ID: fmt.Sprintf("d%05d", i), Title: fmt.Sprintf("Note %d", i),
			Text: strings.Repeat(fmt.Sprintf("kettle %d descaling filter ", i%97), 8), Authority: 1}
		docs[i].Normalize()
	}
	h, err := embed.NewHashed(dim)
	if err != nil {
		t.Fatal(err)
	}
	e := &heapSampler{Hashed: h}
	dir := t.TempDir()
	build(t, dir, wholeChunks(docs), e)
	vecBytes := uint64(n * dim * 4)
	t.Logf("live heap while embedding at most %d bytes, for %d bytes of vectors", e.peak, vecBytes)
	if e.peak > vecBytes/2 {
		t.Errorf("live heap reached %d bytes while embedding %d bytes of vectors: the build holds them", e.peak, vecBytes)
	}
	// And each vector written is the embedder's for its chunk.
	ix := open(t, dir)
	chunks := wholeChunks(docs)
	for _, i := range []uint32{0, 255, 256, 2999} { // windows' edges
		want, err := h.Embed(context.Background(), []string{backend.EmbedText(&chunks[i])})
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.vecs.ReadVectors([]uint32{i}, func(_ uint32, got []float32) {
			if !slices.Equal(got, want[0]) {
				t.Errorf("vector %d is not the embedding of chunk %s", i, chunks[i].ID)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
}
