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

// unescapeTerms inverts escapeTerms. The terms are substrings of one
// string (two allocations a chunk, not one or more a term): cached
// chunks hold their terms, and per-term strings were most of a worker's
// heap (TestUnescapeTermsAllocations).
func unescapeTerms(s string) []string {
	if s == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(s, " ")+1)
	// '\' and ' ' are ASCII, never part of a multi-byte rune, so the
	// escapes can be undone byte by byte.
	if strings.IndexByte(s, '\\') < 0 {
		for t := range strings.SplitSeq(s, " ") {
			if t != "" {
				out = append(out, t)
			}
		}
		return out
	}
	buf := make([]byte, 0, len(s))
	ends := make([]int, 0, cap(out))
	esc := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			buf = append(buf, c)
			esc = false
		case c == '\\':
			esc = true
		case c == ' ':
			if len(ends) == 0 && len(buf) > 0 || len(ends) > 0 && len(buf) > ends[len(ends)-1] {
				ends = append(ends, len(buf))
			}
		default:
			buf = append(buf, c)
		}
	}
	if len(ends) == 0 && len(buf) > 0 || len(ends) > 0 && len(buf) > ends[len(ends)-1] {
		ends = append(ends, len(buf))
	}
	all, from := string(buf), 0
	for _, e := range ends {
		out = append(out, all[from:e])
		from = e
	}
	return out
}
