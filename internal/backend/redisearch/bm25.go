package redisearch

import (
	"strings"

	"github.com/assay-rag/assay/internal/backend"
)

// candidate is one BM25STD match with its analyzed terms.
type candidate struct {
	id    string
	terms []string
}

// rescore ranks candidates by bleve's BM25 over the statistics in v (the
// principal's visible chunks; see backend.BM25Query), so that both
// backends score alike and no score depends on a chunk the principal
// cannot see. Ties break by chunk id.
func rescore(v backend.BM25Stats, p backend.BM25, query []string, cands []candidate, k int) []backend.Hit {
	q := backend.NewBM25Query(v, p, query)
	pos := make(map[string][]int, len(query)) // term → its positions in query
	for i, t := range query {
		pos[t] = append(pos[t], i)
	}
	hits := make([]backend.Hit, 0, len(cands))
	tf := make(map[string]int, len(pos))
	for _, c := range cands {
		clear(tf)
		for _, t := range c.terms {
			if _, ok := pos[t]; ok {
				tf[t]++
			}
		}
		dl := float64(len(c.terms))
		var sum float64
		matched := 0
		for i, t := range query {
			if f := tf[t]; f > 0 {
				matched++
				sum += q.Clause(i, f, dl)
			}
		}
		if matched == 0 {
			continue // matched by RediSearch on a term our analyzer splits differently
		}
		hits = append(hits, backend.Hit{ChunkID: c.id, Score: q.Score(sum, matched)})
	}
	return backend.SortHits(hits, k)
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
