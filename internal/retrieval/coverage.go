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
	return WeighQuery(an, v, query).Covered(func(t string) bool { return have[t] })
}

// QueryWeights are a query's content terms weighed as Coverage weighs
// them, for a caller that measures the coverage of many texts (the
// builtin reranker) without weighing the query again for each.
type QueryWeights struct {
	// Terms are the query's content terms (terms.Analyzer.Content),
	// repeats included.
	Terms []string
	// IDF[i] is Terms[i]'s BM25 IDF over the vocabulary's chunks.
	IDF []float64
	// Total is the sum of IDF.
	Total float64
}

// WeighQuery weighs query's content terms by BM25 IDF over v's chunks.
func WeighQuery(an *terms.Analyzer, v Vocabulary, query string) QueryWeights {
	q := QueryWeights{Terms: an.Content(query)}
	q.IDF = make([]float64, len(q.Terms))
	n := v.Len()
	for i, t := range q.Terms {
		q.IDF[i] = backend.IDF(n, v.DocFreq(t))
		q.Total += q.IDF[i]
	}
	return q
}

// Covered is the share of Total that the terms has reports present
// weigh: Coverage of the text has describes; 0 when Total is 0.
func (q QueryWeights) Covered(has func(term string) bool) float64 {
	if q.Total == 0 {
		return 0
	}
	var got float64
	for i, t := range q.Terms {
		if has(t) {
			got += q.IDF[i]
		}
	}
	return got / q.Total
}
