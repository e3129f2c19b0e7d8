package bleveindex

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// BenchmarkHoldings measures the builtin assessor's visible-chunk check
// (Holdings over a question's terms) on SciFact's 5,183 abstracts, beside
// what the assessor already did for the same terms (one DocFreq each).
// ASSAY_SCIFACT names the dataset directory (default ../shared/data/scifact
// beside the repository); without it the benchmark is skipped.
func BenchmarkHoldings(b *testing.B) {
	dir := os.Getenv("ASSAY_SCIFACT")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data", "scifact")
	}
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		b.Skip("SKIPPED: no SciFact corpus (set ASSAY_SCIFACT): ", err)
	}
	chunks := wholeChunks(docs)
	ptrs := make([]*corpus.Chunk, len(chunks))
	for i := range chunks {
		ptrs[i] = &chunks[i]
	}
	_, toks := analyze(ptrs)
	parts, held := partsByACL(ptrs, toks)
	var groups []string // every chunk's: the whole corpus is visible
	for _, c := range ptrs {
		groups = append(groups, c.ACL...)
	}
	v := Vocabulary{VisibleSet: parts.Visible(groups), held: held}
	// A SciFact claim's content terms, common ones among them, and three
	// thesaurus words per term would add at most three times as many.
	q := terms.New().Content("APOE4 expression in iPSC-derived neurons increases AlphaBeta production and tau phosphorylation causing cell death")
	b.Logf("%d terms, %d chunks", len(q), v.Len())
	b.Run("docfreq", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, t := range q {
				n += v.DocFreq(t)
			}
		}
	})
	b.Run("holdings", func(b *testing.B) {
		for b.Loop() {
			if v.Holdings(context.Background(), q, nil) == nil {
				b.Fatal("nil")
			}
		}
	})
}
