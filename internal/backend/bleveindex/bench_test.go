package bleveindex

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/terms"
)

// sciFact builds (once per benchmark) an index of SciFact's 5,183
// abstracts, their ACLs alternating between two teams, with the builtin
// embedder's vectors when e is set. ASSAY_SCIFACT names the dataset
// directory (default ../shared/data/scifact beside the repository);
// without it the benchmark is skipped.
func sciFact(b *testing.B, e backend.Embedder) *Index {
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = os.Getenv("ASSAY_SCIFACT")
	}
	if dir == "" || dir == "1" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data", "scifact")
	}
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		b.Skip("SKIPPED: no SciFact corpus (set ASSAY_SCIFACT): ", err)
	}
	chunks := wholeChunks(docs)
	for i := range chunks {
		chunks[i].ACL = []string{[]string{"team-a", "team-b"}[i%2]}
	}
	ixDir := filepath.Join(b.TempDir(), "ix")
	if _, _, err := Build(context.Background(), ixDir, chunks, backend.BuildOptions{Checksum: "x", Embedder: e}); err != nil {
		b.Fatal(err)
	}
	ix, err := Open(ixDir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return ix
}

// A SciFact claim's content terms, common ones among them.
const claim = "APOE4 expression in iPSC-derived neurons increases AlphaBeta production and tau phosphorylation causing cell death"

// callers are a full-access caller and one who sees half the corpus.
var callers = []struct {
	name   string
	groups []string
}{{"full", []string{"team-a", "team-b"}}, {"restricted", []string{"team-a"}}}

// BenchmarkHoldings measures the builtin assessor's visible-chunk check
// (Holdings over a question's terms) beside what the assessor already did
// for the same terms (one DocFreq each).
func BenchmarkHoldings(b *testing.B) {
	ix := sciFact(b, nil)
	q := terms.New().Content(claim)
	for _, c := range callers {
		v := ix.Visible(c.groups)
		b.Run(c.name+"/docfreq", func(b *testing.B) {
			n := 0
			for b.Loop() {
				for _, t := range q {
					n += v.DocFreq(t)
				}
			}
		})
		b.Run(c.name+"/holdings", func(b *testing.B) {
			for b.Loop() {
				if v.Holdings(context.Background(), q, nil) == nil {
					b.Fatal("nil")
				}
			}
		})
	}
}

// BenchmarkSearchText measures BM25 top-100 for each caller.
func BenchmarkSearchText(b *testing.B) {
	ix := sciFact(b, nil)
	for _, c := range callers {
		f := backend.Filter{Groups: c.groups}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ix.SearchText(context.Background(), claim, f, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchVector measures the vector leg (top 100, the builtin
// embedder's 768 dimensions) for each caller.
func BenchmarkSearchVector(b *testing.B) {
	e, err := embed.NewHashed(768)
	if err != nil {
		b.Fatal(err)
	}
	ix := sciFact(b, e)
	vecs, err := e.Embed(context.Background(), []string{claim})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range callers {
		f := backend.Filter{Groups: c.groups}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ix.SearchVector(context.Background(), vecs[0], f, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChunks measures reading 100 chunks back from disk, what a
// search does for its candidates.
func BenchmarkChunks(b *testing.B) {
	ix := sciFact(b, nil)
	hits, err := ix.SearchText(context.Background(), claim, backend.Filter{Groups: callers[0].groups}, 100)
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	for b.Loop() {
		if _, err := ix.Chunks(context.Background(), ids); err != nil {
			b.Fatal(err)
		}
	}
}
