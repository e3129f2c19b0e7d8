package bleveindex

// Visible-set statistics (the rule is backend's, see parts.go there).
//
// The postings keep, per ACL group, the bitmap of the chunks it may see
// and of the terms they hold, so a principal's statistics — chunk count,
// document frequencies, bleve's average length — are computed from its
// visible chunks alone without reading posting lists, and every BM25
// search is scored with them (see package postings).

import (
	"context"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/postings"
)

// Vocabulary is term statistics over the chunks one principal may see.
type Vocabulary struct {
	*postings.Visible
	ix *Index
}

var _ backend.Vocabulary = Vocabulary{}

// Visible returns the term statistics of the chunks visible to groups.
// Terms that only occur in other chunks have DocFreq 0: statistics shown
// or acted on for a principal (spelling corrections, "no word of the
// question occurs") must never reveal words of documents they cannot see.
func (ix *Index) Visible(groups []string) backend.Vocabulary {
	return Vocabulary{Visible: ix.post.Visible(groups), ix: ix}
}

// Holdings counts the visible chunks that pass f (nil: all of them) by
// which of terms they hold (backend.Vocabulary), from the terms' chunk
// bitmaps and f's filter bitmaps. ctx and the error are there for
// backends that must ask a server: this one never fails.
func (v Vocabulary) Holdings(_ context.Context, terms []string, f *backend.Filter) (map[uint64]int, error) {
	if len(terms) > backend.MaxHeld {
		return nil, nil
	}
	if f == nil {
		return v.Visible.Holdings(terms, nil), nil
	}
	return v.Visible.Holdings(terms, v.ix.candidates(*f)), nil
}

// Err is nil: the statistics are in memory and never fail
// (backend.Vocabulary).
func (Vocabulary) Err() error { return nil }

// EachTerm calls fn for every analyzed term of the index with the number
// of chunks containing it, whoever may see them. The order is unspecified.
// Anything that shows terms to a principal must use Visible instead.
// It never fails (backend.Index).
func (ix *Index) EachTerm(fn func(term string, df int)) error {
	ix.post.EachTerm(fn)
	return nil
}

// Warnings returns the index's cheap consistency warnings as a principal
// may see them: whether the index's parts disagree (without whole-index
// counts: those are for operators, in Check) and how many of the chunks
// visible to groups have no text.
func (ix *Index) Warnings(groups []string) []string {
	var out []string
	if ix.inconsistent {
		out = append(out, "index inconsistent: its text index, chunk store and manifest disagree; rebuild it (`assay index` prints the counts)")
	}
	empty := ix.filt.empty.AndCardinality(ix.post.Visible(groups).Docs())
	return append(out, backend.EmptyWarning(int(empty))...)
}
