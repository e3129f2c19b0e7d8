package redisearch

import (
	"strings"

	"github.com/assay-rag/assay/internal/backend"
)

// candidate is one BM25STD match with its analyzed terms.
type candidate struct {
	id    string
	terms []string // a cached chunk's analyzed terms
	// content is the content field as Redis returned it (escapeTerms'
	// form) when the chunk was not cached: rescore counts the query's
	// terms in it without splitting it into terms.
	content string
}

// rescore ranks candidates by bleve's BM25 over the statistics in v (the
// principal's visible chunks; see backend.BM25Query), so that both
// backends score alike and no score depends on a chunk the principal
// cannot see. Ties break by chunk id.
func rescore(v backend.BM25Stats, p backend.BM25, query []string, cands []candidate, k int) []backend.Hit {
	q := backend.NewBM25Query(v, p, query)
	qc := newTermCounter(query)
	hits := make([]backend.Hit, 0, len(cands))
	for _, c := range cands {
		var dl float64
		if c.terms != nil {
			dl = float64(qc.countTerms(c.terms))
		} else {
			dl = float64(qc.countContent(c.content))
		}
		var sum float64
		matched := 0
		for i := range query {
			if f := qc.tf[qc.slot[i]]; f > 0 {
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

// termCounter counts a query's terms in a chunk's terms: tf[slot[i]] is
// how often the chunk holds query term i (a term repeated in the query
// has one slot).
type termCounter struct {
	slots map[string]int // distinct query term → its slot
	slot  []int          // per query position
	tf    []int          // per slot, the last chunk counted
	lens  uint64         // bit n set when a query term is n bytes long (n < 64)
	long  bool           // a query term is 64 bytes or longer
}

func newTermCounter(query []string) *termCounter {
	c := &termCounter{slots: make(map[string]int, len(query)), slot: make([]int, len(query))}
	for i, t := range query {
		j, ok := c.slots[t]
		if !ok {
			j = len(c.slots)
			c.slots[t] = j
			if len(t) < 64 {
				c.lens |= 1 << len(t)
			} else {
				c.long = true
			}
		}
		c.slot[i] = j
	}
	c.tf = make([]int, len(c.slots))
	return c
}

// mayHold reports whether a term n bytes long can be a query term.
func (c *termCounter) mayHold(n int) bool {
	if n < 64 {
		return c.lens&(1<<n) != 0
	}
	return c.long
}

// countTerms sets tf from terms and returns their number.
func (c *termCounter) countTerms(terms []string) int {
	clear(c.tf)
	for _, t := range terms {
		if c.mayHold(len(t)) {
			if j, ok := c.slots[t]; ok {
				c.tf[j]++
			}
		}
	}
	return len(terms)
}

// countContent is countTerms(unescapeTerms(s)) without building the
// terms: a candidate read from Redis is counted once and dropped, and
// splitting it was most of the BM25 leg's worker CPU after the reads
// (round 16). A query term is looked up only for a term of a query
// term's length; an escaped term is unescaped into a buffer first.
func (c *termCounter) countContent(s string) int {
	clear(c.tf)
	n := 0
	if strings.IndexByte(s, '\\') < 0 {
		for len(s) > 0 {
			end := strings.IndexByte(s, ' ')
			if end < 0 {
				end = len(s)
			}
			if end > 0 {
				n++
				if c.mayHold(end) {
					if j, ok := c.slots[s[:end]]; ok {
						c.tf[j]++
					}
				}
			}
			if end == len(s) {
				break
			}
			s = s[end+1:]
		}
		return n
	}
	var buf []byte
	esc := false
	flush := func() {
		if len(buf) == 0 {
			return
		}
		n++
		if c.mayHold(len(buf)) {
			if j, ok := c.slots[string(buf)]; ok {
				c.tf[j]++
			}
		}
		buf = buf[:0]
	}
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case esc:
			buf = append(buf, b)
			esc = false
		case b == '\\':
			esc = true
		case b == ' ':
			flush()
		default:
			buf = append(buf, b)
		}
	}
	flush()
	return n
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
