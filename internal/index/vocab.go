package index

import (
	"context"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/corpus"
)

// EachTerm calls fn for every analyzed term of the index with the number
// of chunks containing it, whoever may see them. The order is unspecified.
// Anything that shows terms to a principal must use Visible instead.
func (ix *Index) EachTerm(fn func(term string, df int)) {
	sum := map[string]int{}
	for _, p := range ix.byACL {
		for t, df := range p.df {
			sum[t] += df
		}
	}
	for t, df := range sum {
		fn(t, df)
	}
}

// aclPart holds the term counts of the chunks that share one ACL, and
// which of them hold each term.
type aclPart struct {
	acl   []string
	n     int
	empty int // chunks with no text
	df    map[string]int
	// post lists, for each term, the ordinals (within the part, rising)
	// of the chunks holding it (see Holdings).
	post map[string][]int32
	// chunks are the part's chunks by ordinal, for Holdings' filter.
	chunks []*corpus.Chunk
}

// partsByACL splits term counts by chunk ACL. Each chunk has exactly one
// ACL, so summing the parts a principal may see counts each visible chunk
// once. Corpora have few distinct ACLs (SciFact: one; Hollin: six).
func partsByACL(chunks []*corpus.Chunk, toks map[string][]string) []*aclPart {
	byKey := map[string]*aclPart{}
	var parts []*aclPart
	for _, c := range chunks {
		acl := slices.Sorted(slices.Values(c.ACL))
		key := strings.Join(acl, "\x00")
		p := byKey[key]
		if p == nil {
			p = &aclPart{acl: acl, df: map[string]int{}, post: map[string][]int32{}}
			byKey[key] = p
			parts = append(parts, p)
		}
		if c.Text == "" {
			p.empty++
		}
		seen := map[string]bool{}
		for _, t := range toks[c.ID] {
			if !seen[t] {
				seen[t] = true
				p.df[t]++
				p.post[t] = append(p.post[t], int32(p.n))
			}
		}
		p.chunks = append(p.chunks, c)
		p.n++
	}
	return parts
}

// Vocabulary is term statistics over the chunks one principal may see.
type Vocabulary struct {
	parts []*aclPart
}

// Visible returns the term statistics of the chunks visible to groups.
// Terms that only occur in other chunks have DocFreq 0: statistics shown
// or acted on for a principal (spelling corrections, "no word of the
// question occurs") must never reveal words of documents they cannot see.
func (ix *Index) Visible(groups []string) Vocabulary {
	var v Vocabulary
	for _, p := range ix.byACL {
		if corpus.Visible(p.acl, groups) {
			v.parts = append(v.parts, p)
		}
	}
	return v
}

// DocFreq is the number of visible chunks containing term.
func (v Vocabulary) DocFreq(term string) int {
	n := 0
	for _, p := range v.parts {
		n += p.df[term]
	}
	return n
}

// Len is the number of visible chunks.
func (v Vocabulary) Len() int {
	n := 0
	for _, p := range v.parts {
		n += p.n
	}
	return n
}

// MaxHeld is the most terms Holdings takes.
const MaxHeld = 64

// Holdings counts the visible chunks that pass f (nil: all of them) by
// which of terms they hold: bit i of a key is set when the chunks hold
// terms[i]. Chunks holding none of terms are not counted. More than
// MaxHeld terms give nil. It reads memory only; ctx is there for backends
// that must ask a server.
func (v Vocabulary) Holdings(_ context.Context, terms []string, f *Filter) map[uint64]int {
	if len(terms) > MaxHeld {
		return nil
	}
	out := map[uint64]int{}
	var held []uint64 // by chunk ordinal within a part
	for _, p := range v.parts {
		held = slices.Grow(held[:0], p.n)[:p.n]
		clear(held)
		for i, t := range terms {
			for _, c := range p.post[t] {
				held[c] |= 1 << i
			}
		}
		for c, mask := range held {
			if mask != 0 && (f == nil || f.Allows(p.chunks[c])) {
				out[mask]++
			}
		}
	}
	return out
}
