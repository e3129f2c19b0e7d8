package redisearch

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/index"
)

// candidate is one BM25STD match with its analyzed terms.
type candidate struct {
	id    string
	terms []string
}

// rescore ranks candidates by bleve's BM25 over the statistics in v (the
// principal's visible chunks), so that both backends score alike and no
// score depends on a chunk the principal cannot see. bleve scores a match
// query as coord × Σ over the query's terms (repeats included) of
//
//	idf² × queryNorm × √tf·k1 / (√tf + k1·(1 − b + b·len/avgLen))
//
// with idf = ln(1 + (N − df + 0.5)/(df + 0.5)), queryNorm = 1/√(Σ idf²),
// coord the share of query terms the chunk has, and avgLen bleve's
// (see bleveAvgLen). Ties break by chunk id.
func rescore(v Vocabulary, p index.BM25, query []string, cands []candidate, k int) []index.Hit {
	n := float64(v.Len())
	avg := v.bleveAvgLen()
	idf := make(map[string]float64, len(query))
	var sumSq float64
	for _, t := range query {
		w, ok := idf[t]
		if !ok {
			df := float64(v.DocFreq(t))
			w = math.Log(1 + (n-df+0.5)/(df+0.5))
			idf[t] = w
		}
		sumSq += w * w
	}
	norm := 1.0
	if sumSq > 0 {
		norm = 1 / math.Sqrt(sumSq)
	}
	hits := make([]index.Hit, 0, len(cands))
	tf := make(map[string]int, len(idf))
	for _, c := range cands {
		clear(tf)
		for _, t := range c.terms {
			if _, ok := idf[t]; ok {
				tf[t]++
			}
		}
		dl := float64(len(c.terms))
		lenNorm := 1.0
		if avg > 0 {
			lenNorm = 1 - p.B + p.B*dl/avg
		}
		var sum float64
		matched := 0
		for _, t := range query {
			f := tf[t]
			if f == 0 {
				continue
			}
			matched++
			s := math.Sqrt(float64(f))
			w := idf[t]
			sum += w * w * norm * s * p.K1 / (s + p.K1*lenNorm)
		}
		if matched == 0 {
			continue // matched by RediSearch on a term our analyzer splits differently
		}
		hits = append(hits, index.Hit{ChunkID: c.id, Score: sum * float64(matched) / float64(len(query))})
	}
	slices.SortStableFunc(hits, func(a, b index.Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return strings.Compare(a.ChunkID, b.ChunkID)
	})
	return hits[:min(k, len(hits))]
}

// escapeTerms is the content field's value: the analyzed terms, each
// escaped so RediSearch's tokenizer keeps it whole.
func escapeTerms(ts []string) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Escape(t))
	}
	return b.String()
}

// unescapeTerms inverts escapeTerms.
func unescapeTerms(s string) []string {
	if s == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(s, " ")+1)
	var b strings.Builder
	esc := false
	for _, r := range s {
		switch {
		case esc:
			b.WriteRune(r)
			esc = false
		case r == '\\':
			esc = true
		case r == ' ':
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}
