package backend

// Visible-set statistics.
//
// The rule every backend follows: a number shown to a principal, or used
// to rank what it sees, is computed only from the chunks visible to its
// groups. Document frequencies, chunk counts and average lengths of chunks
// it cannot see change BM25's IDF and length normalisation, coverage
// percentages and warnings; a caller comparing "warranty calder" with
// "warranty quoxil" could otherwise learn that "calder" occurs in a
// document it may not read. Metadata filters (types, products, dates) are
// the caller's own choice and do not change the statistics.
//
// Parts keeps term counts by ACL: each chunk has exactly one ACL, so the
// statistics of a principal's visible set are the sum of the parts it may
// see (VisibleSet). Corpora have few distinct ACLs (SciFact: one; Hollin:
// six). The bleve backend counts with it at Open; the redisearch backend
// counts inside Redis instead (package redisearch, stats.go), as a table
// per ACL part grows with the corpus and with the number of distinct ACLs.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/corpus"
)

// Part holds the term counts of the chunks that share one ACL. Its JSON
// is what the redisearch backend stores.
type Part struct {
	ACL   []string       `json:"acl"`
	N     int            `json:"n"`     // chunks
	Len   int64          `json:"len"`   // analyzed terms in them
	Empty int            `json:"empty"` // chunks with no text
	DF    map[string]int `json:"df"`
}

// Parts are an index's term counts by ACL part. Add is for building;
// once built, Parts is safe for concurrent reads.
type Parts struct {
	list  []*Part
	byKey map[string]int
}

// NewParts returns parts holding list (as stored; nil for none yet).
func NewParts(list []*Part) *Parts {
	ps := &Parts{list: list, byKey: map[string]int{}}
	for i, p := range list {
		ps.byKey[strings.Join(p.ACL, "\x00")] = i
	}
	return ps
}

// Add counts chunk c, whose title and text analyze to terms, and returns
// the index of its part and its ordinal within the part.
func (ps *Parts) Add(c *corpus.Chunk, terms []string) (part, ordinal int) {
	acl := slices.Sorted(slices.Values(c.ACL))
	key := strings.Join(acl, "\x00")
	i, ok := ps.byKey[key]
	if !ok {
		i = len(ps.list)
		ps.byKey[key] = i
		ps.list = append(ps.list, &Part{ACL: acl, DF: map[string]int{}})
	}
	p := ps.list[i]
	ordinal = p.N
	p.N++
	p.Len += int64(len(terms))
	if c.Text == "" {
		p.Empty++
	}
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if !seen[t] {
			seen[t] = true
			p.DF[t]++
		}
	}
	return i, ordinal
}

// List returns the parts, in the order they were first added.
func (ps *Parts) List() []*Part { return ps.list }

// DocFreq is the number of chunks containing term, whoever may see them:
// for builds and operators.
func (ps *Parts) DocFreq(term string) int {
	n := 0
	for _, p := range ps.list {
		n += p.DF[term]
	}
	return n
}

// Len is the number of chunks, whoever may see them.
func (ps *Parts) Len() int {
	n := 0
	for _, p := range ps.list {
		n += p.N
	}
	return n
}

// EachTerm calls fn for every term with the number of chunks containing
// it, whoever may see them. The order is unspecified.
func (ps *Parts) EachTerm(fn func(term string, df int)) {
	if len(ps.list) == 1 {
		for t, df := range ps.list[0].DF {
			fn(t, df)
		}
		return
	}
	sum := map[string]int{}
	for _, p := range ps.list {
		for t, df := range p.DF {
			sum[t] += df
		}
	}
	for t, df := range sum {
		fn(t, df)
	}
}

// Visible returns the statistics of the chunks visible to groups.
func (ps *Parts) Visible(groups []string) VisibleSet {
	v := VisibleSet{ps: ps}
	for i, p := range ps.list {
		if corpus.Visible(p.ACL, groups) {
			v.idx = append(v.idx, i)
		}
	}
	return v
}

// VisibleSet is the statistics of the ACL parts one principal may see.
type VisibleSet struct {
	ps  *Parts
	idx []int
}

// Parts are the indexes (in Parts.List) of the visible parts.
func (v VisibleSet) Parts() []int { return v.idx }

// All reports whether every chunk is visible.
func (v VisibleSet) All() bool { return len(v.idx) == len(v.ps.list) }

// DocFreq is the number of visible chunks containing term.
func (v VisibleSet) DocFreq(term string) int {
	n := 0
	for _, i := range v.idx {
		n += v.ps.list[i].DF[term]
	}
	return n
}

// Len is the number of visible chunks.
func (v VisibleSet) Len() int {
	n := 0
	for _, i := range v.idx {
		n += v.ps.list[i].N
	}
	return n
}

// AvgLen is the mean length in tokens (analyzed terms, repeats included)
// of a visible chunk: the average length BM25 divides by.
func (v VisibleSet) AvgLen() float64 {
	var n, l int64
	for _, i := range v.idx {
		n += int64(v.ps.list[i].N)
		l += v.ps.list[i].Len
	}
	if n == 0 {
		return 0
	}
	return float64(l) / float64(n)
}

// EmptyWarning says how many visible chunks have no text; nil when none.
func (v VisibleSet) EmptyWarning() []string {
	empty := 0
	for _, i := range v.idx {
		empty += v.ps.list[i].Empty
	}
	return EmptyWarning(empty)
}

// EmptyWarning says that n chunks a principal may see have no text; nil
// when n is 0.
func EmptyWarning(n int) []string {
	if n == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d chunks you can see have no text (an empty parse?)", n)}
}
