package redisearch

import (
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/backend"
)

// candidate is one BM25STD match with its content field as Redis holds
// it (escapeTerms' form): from the candidates' read, the chunk cache,
// or an HMGET. rescore counts the query's terms in it without splitting
// it into terms.
type candidate struct {
	id      string
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
		dl := float64(qc.countContent(c.content))
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

// termCounter counts a query's terms in a content field: tf[slot[i]] is
// how often the field holds query term i (a term repeated in the query
// has one slot).
//
// It matches a field's terms as the field holds them, escaped: a field
// is escapeTerms' output, and escapeStored is one-to-one with unescapeTerms
// as its inverse, so an escaped term equals escapeStored(t) exactly when it
// unescapes to t (for t UTF-8; see newTermCounter). Nothing is
// unescaped or copied, and the terms are compared by length bucket
// rather than hashed: a SciFact field is ~100
// terms of which a handful are query terms, and the map lookup of every
// term of a query term's length was most of re-scoring (round 19).
type termCounter struct {
	slot []int    // per query position
	tf   []int    // per slot, the last field counted
	keys []string // per slot, the term escaped as the content field holds it
	// byLen[n] are the slots whose escaped term is n bytes long
	// (n < maxBucket); the longer ones are all in byLen[maxBucket].
	byLen [maxBucket + 1][]int32
	// first[n] is the set of first bytes of byLen[n]'s terms: most of
	// a field's terms of a query term's length are rejected by it.
	first [maxBucket + 1][4]uint64
}

const maxBucket = 63

func newTermCounter(query []string) *termCounter {
	c := &termCounter{slot: make([]int, len(query))}
	slots := make(map[string]int, len(query))
	for i, t := range query {
		j, ok := slots[t]
		if !ok {
			j = len(slots)
			slots[t] = j
			key := escapeStored(t)
			c.keys = append(c.keys, key)
			// A term that is not UTF-8 matches no field term: a field
			// is escapeStored's output, UTF-8 (it writes an invalid
			// byte as U+FFFD), and so is every term it unescapes to.
			if utf8.ValidString(t) {
				n := min(len(key), maxBucket)
				c.byLen[n] = append(c.byLen[n], int32(j))
				if key != "" {
					c.first[n][key[0]>>6] |= 1 << (key[0] & 63)
				}
			}
		}
		c.slot[i] = j
	}
	c.tf = make([]int, len(slots))
	return c
}

// count adds one to the slot of the escaped term t (not empty), if a
// query term.
func (c *termCounter) count(t string) {
	n := min(len(t), maxBucket)
	if c.first[n][t[0]>>6]&(1<<(t[0]&63)) == 0 {
		return
	}
	for _, j := range c.byLen[n] {
		if c.keys[j] == t {
			c.tf[j]++
			return
		}
	}
}

// countContent sets tf from the content field s (escapeTerms' form) and
// returns its number of terms: what counting unescapeTerms(s) would
// give (TestCountContentIsCountTerms). Terms are separated by a space
// that is not escaped; a backslash escapes the byte after it. One pass,
// eight bytes at a time: a field's terms are short (5.7 bytes on
// SciFact), too short for a strings.IndexByte call a term to pay.
func (c *termCounter) countContent(s string) int {
	clear(c.tf)
	if len(s) > 0 && s[len(s)-1] == '\\' && oddRun(s, len(s)) {
		// A dangling escape, which escapeTerms never writes: count the
		// terms unescapeTerms gives.
		terms := unescapeTerms(s)
		for _, t := range terms {
			if t != "" {
				c.count(escapeStored(t))
			}
		}
		return len(terms)
	}
	n, from, i := 0, 0, 0
	for {
		// The next space or backslash at or after i: eight bytes at a
		// time, then byte by byte.
		for i+8 <= len(s) {
			if m := specials(load64(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(s) && s[i] != ' ' && s[i] != '\\' {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] == '\\' {
			i += 2 // the next byte is the term's
			continue
		}
		if i > from {
			n++
			c.count(s[from:i])
		}
		i++
		from = i
	}
	if from < len(s) {
		n++
		c.count(s[from:])
	}
	return n
}

// load64 is the eight bytes of s from i, little-endian (one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// specials has the high bit of each byte of w that is a space or a
// backslash set, and may set it on bytes above such a byte: its lowest
// set bit is the first one's (the zero-byte test: a borrow only runs
// upward from a zero byte).
func specials(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	a, b := w^(ones*' '), w^(ones*'\\')
	return ((a-ones)&^a | (b-ones)&^b) & highs
}

// oddRun reports whether the bytes just before s[i] are an odd run of
// backslashes: s[i] is escaped.
func oddRun(s string, i int) bool {
	odd := false
	for i--; i >= 0 && s[i] == '\\'; i-- {
		odd = !odd
	}
	return odd
}

// escapeTerms is the content field's value: the analyzed terms, each
// escaped so RediSearch's tokenizer keeps it whole.
func escapeTerms(ts []string) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(escapeStored(t))
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
