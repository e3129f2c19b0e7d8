package bleveindex

import (
	"context"
	"slices"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
)

// EachTerm calls fn for every analyzed term of the index with the number
// of chunks containing it, whoever may see them. The order is unspecified.
// Anything that shows terms to a principal must use Visible instead.
func (ix *Index) EachTerm(fn func(term string, df int)) { ix.parts.EachTerm(fn) }

// partChunks says which chunks of one ACL part hold each term.
type partChunks struct {
	// post lists, for each term, the ordinals (within the part, rising)
	// of the chunks holding it (see Holdings).
	post map[string][]int32
	// chunks are the part's chunks by ordinal, for Holdings' filter.
	chunks []*corpus.Chunk
}

// partsByACL counts terms by chunk ACL (backend.Parts) and keeps, by
// part, which chunks hold each term.
func partsByACL(chunks []*corpus.Chunk, toks map[string][]string) (*backend.Parts, []partChunks) {
	parts := backend.NewParts(nil)
	var held []partChunks
	for _, c := range chunks {
		i, ord := parts.Add(c, toks[c.ID])
		if i == len(held) {
			held = append(held, partChunks{post: map[string][]int32{}})
		}
		p := &held[i]
		seen := map[string]bool{}
		for _, t := range toks[c.ID] {
			if !seen[t] {
				seen[t] = true
				p.post[t] = append(p.post[t], int32(ord))
			}
		}
		p.chunks = append(p.chunks, c)
	}
	return parts, held
}

// Vocabulary is term statistics over the chunks one principal may see.
type Vocabulary struct {
	backend.VisibleSet
	held []partChunks
}

var _ backend.Vocabulary = Vocabulary{}

// Visible returns the term statistics of the chunks visible to groups.
// Terms that only occur in other chunks have DocFreq 0: statistics shown
// or acted on for a principal (spelling corrections, "no word of the
// question occurs") must never reveal words of documents they cannot see.
func (ix *Index) Visible(groups []string) backend.Vocabulary { return ix.visible(groups) }

func (ix *Index) visible(groups []string) Vocabulary {
	return Vocabulary{VisibleSet: ix.parts.Visible(groups), held: ix.held}
}

// Holdings counts the visible chunks that pass f (nil: all of them) by
// which of terms they hold (backend.Vocabulary), from the postings kept
// in memory. ctx is there for backends that must ask a server.
func (v Vocabulary) Holdings(_ context.Context, terms []string, f *backend.Filter) map[uint64]int {
	if len(terms) > backend.MaxHeld {
		return nil
	}
	var allows backend.Predicate
	if f != nil {
		allows = f.Predicate()
	}
	out := map[uint64]int{}
	var held []uint64 // by chunk ordinal within a part
	for _, i := range v.Parts() {
		p := &v.held[i]
		n := len(p.chunks)
		held = slices.Grow(held[:0], n)[:n]
		clear(held)
		for i, t := range terms {
			for _, c := range p.post[t] {
				held[c] |= 1 << i
			}
		}
		for c, mask := range held {
			if mask != 0 && (f == nil || allows.Allows(p.chunks[c])) {
				out[mask]++
			}
		}
	}
	return out
}
