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
	docs := sciFactDocs(b, 1000)
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

// BenchmarkTitledMentionsQuestion is one question's reads of its chunks'
// mentions, an op: 20 SciFact abstracts (the next of the first 1,000 each
// op, so the memo has not kept them), their terms kept in the analysis
// cache as the reranker keeps the index's, then TitledMentions of each by
// the Assess activity, its statement reading and the generator.
func BenchmarkTitledMentionsQuestion(b *testing.B) {
	docs := sciFactDocs(b, 1000)
	uncached := terms.NewUncached()
	joined := make([][]string, len(docs))
	for i, d := range docs {
		joined[i] = uncached.Terms(d.Title + "\n" + d.Text)
	}
	an := terms.New()
	const perQuestion = 20
	next := 0
	b.ReportAllocs()
	for b.Loop() {
		if next+perQuestion > len(docs) {
			next = 0
		}
		window := docs[next : next+perQuestion]
		for i, d := range window {
			an.Keep(d.Title+"\n"+d.Text, joined[next+i])
		}
		for range 3 {
			for _, d := range window {
				TitledMentions(an, d.Title, d.Text)
			}
		}
		next += perQuestion
	}
}

// sciFactDocs are SciFact's first n abstracts (ASSAY_SCIFACT_DIR, or
// ../shared/data/scifact beside the repository); the benchmark is skipped
// without them.
func sciFactDocs(b testing.TB, n int) []corpus.Document {
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data", "scifact")
	}
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		b.Skipf("SKIPPED: SciFact not available (set ASSAY_SCIFACT_DIR): %v", err)
	}
	return docs[:min(len(docs), n)]
}
