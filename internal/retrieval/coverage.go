package retrieval

import (
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
)

// Vocabulary is term statistics over the chunks one principal may see
// (backend.Searcher.Visible).
type Vocabulary = backend.TermCounts

// Coverage is the share of the query's term weight (BM25 IDF over v's
// chunks: those the principal may see) that text contains: 1 when every query term is there,
// 0 when none is. A query with no searchable terms covers 0.
func Coverage(an *terms.Analyzer, v Vocabulary, query, text string) float64 {
	have := an.Set(text)
	n := v.Len()
	var total, got float64
	for _, t := range an.Content(query) {
		w := backend.IDF(n, v.DocFreq(t))
		total += w
		if have[t] {
			got += w
		}
	}
	if total == 0 {
		return 0
	}
	return got / total
}
