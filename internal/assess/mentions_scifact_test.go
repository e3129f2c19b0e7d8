package assess

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// BenchmarkMentionsSciFact is TitledMentions over SciFact's first 1,000
// abstracts, their analyses cached as in a question's assessment (the
// reranker analysed them): the map of terms and runs is most of the cost.
func BenchmarkMentionsSciFact(b *testing.B) {
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data", "scifact")
	}
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		b.Skipf("SKIPPED: SciFact not available (set ASSAY_SCIFACT_DIR): %v", err)
	}
	docs = docs[:min(len(docs), 1000)]
	an := terms.NewUncached()
	lists := make([][2][]string, len(docs))
	for i, d := range docs {
		lists[i] = [2][]string{an.Terms(d.Title), an.Terms(d.Text)}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lists {
			mentionsOf(l[:])
		}
	}
}
