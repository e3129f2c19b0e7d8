package backend

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// BM25Query scores chunks for one query by bleve's BM25 formula with the
// statistics of a visible set, so that both backends score alike and no
// score depends on a chunk the principal cannot see. bleve scores a match
// query (a disjunction with one clause per query term, repeats included)
// as coord × Σ over the clauses a chunk matches of
//
//	idf² × queryNorm × √tf·k1 / (√tf + k1·(1 − b + b·len/avgLen))
//
// with idf = ln(1 + (N − df + 0.5)/(df + 0.5)), queryNorm = 1/√(Σ idf²),
// coord the share of clauses matched, len the chunk's length in tokens
// (its analyzed terms, repeats included) and avgLen the visible chunks'
// mean length in tokens (Lucene's definition; bleve divides by its
// dictionary size over the chunk count instead, which tends to 1 as a
// corpus grows and turns length normalisation off).
type BM25Query struct {
	// Terms are the query's analyzed terms, repeats included.
	Terms []string
	idf   []float64
	norm  float64
	avg   float64
	p     BM25
}

// BM25Stats are the statistics a BM25Query weighs its terms with: those
// of one visible set (VisibleSet, or a backend's own source of them).
type BM25Stats interface {
	TermCounts
	// AvgLen is the mean length in tokens of the visible chunks.
	AvgLen() float64
}

// IDF is BM25's inverse document frequency of a term that df of n chunks
// hold: ln(1 + (n − df + 0.5)/(df + 0.5)), Lucene's and bleve's form
// (never negative; a term no chunk holds weighs the most). It is the one
// BM25 term weight: the scorers (BM25Query, package postings, the
// redisearch backend's query weights), retrieval's coverage, the builtin
// reranker and the IDF-weighted embedder call it. The scorers, coverage
// and the reranker pass the statistics of the chunks the caller may see;
// the embedder passes the whole index's, by design: a chunk's vector is
// built once for every caller, and a query's must be built the same way.
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n-df)+0.5)/(float64(df)+0.5))
}

// LenNorm is BM25's length normalisation of a chunk of length tokens
// when the mean length is avgLen: 1 − b + b·length/avgLen, or 1 when
// avgLen is not positive (no chunks).
func (p BM25) LenNorm(length, avgLen float64) float64 {
	if avgLen <= 0 {
		return 1
	}
	return 1 - p.B + p.B*length/avgLen
}

// NewBM25Query weighs query's terms with v's statistics and parameters p.
func NewBM25Query(v BM25Stats, p BM25, query []string) BM25Query {
	n := v.Len()
	q := BM25Query{Terms: query, idf: make([]float64, len(query)), norm: 1, avg: v.AvgLen(), p: p}
	var sumSq float64
	for i, t := range query {
		q.idf[i] = IDF(n, v.DocFreq(t))
		sumSq += q.idf[i] * q.idf[i]
	}
	if sumSq > 0 {
		q.norm = 1 / math.Sqrt(sumSq)
	}
	return q
}

// IDF is the inverse document frequency query term i is weighed with.
func (q BM25Query) IDF(i int) float64 { return q.idf[i] }

// Clause is what query term i contributes to a chunk of length tokens
// holding it tf times.
func (q BM25Query) Clause(i, tf int, length float64) float64 {
	s := math.Sqrt(float64(tf))
	w := q.idf[i]
	return w * w * q.norm * s * q.p.K1 / (s + q.p.K1*q.p.LenNorm(length, q.avg))
}

// Score is a chunk's score from the sum of its clauses and how many of
// the query's clauses it matched.
func (q BM25Query) Score(sum float64, matched int) float64 {
	return sum * float64(matched) / float64(len(q.Terms))
}

// SortHits orders hits best first, ties by chunk id, and keeps k. Chunk
// ids are unique, so the order is total and an unstable sort suffices.
func SortHits(hits []Hit, k int) []Hit {
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return strings.Compare(a.ChunkID, b.ChunkID)
	})
	return hits[:min(k, len(hits))]
}
