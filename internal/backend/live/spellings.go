package live

import (
	"context"
	"sort"
	"time"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// spellingTimeout is how long Spellings' search may take (within the
// caller's own deadline: the earlier of the two ends it). It reads
// Naming's chunks (namingChunks of them).
const spellingTimeout = 2 * time.Second

// Spellings returns the words the chunks v's groups may see spell term
// with, lower case, most used first (ties alphabetical): read from the
// few best-ranked visible chunks holding term that pass the run's filters
// f, the same filter the run's retrieval searches with
// (retrieval.IndexFilter), in the one search. None when no such chunk
// holds it, or the search fails or ctx ends (the rewriter then spells the
// correction another way).
//
// The chunks are Naming's: the same search (the term's searchable text,
// the same filter, namingChunks chunks), so the texts are read
// through the same memo (heldMemo.naming), and a question whose
// assessor's class reading and rewriter's spelling both ask for a term,
// or whose later attempts spell it again, searches once (each was a
// BM25 search of a term many chunks may hold: at 500,000 chunks one of
// Redis's dearer commands, docs/log/round-32-p32-rcpu.md).
func (v filteredVocabulary) Spellings(ctx context.Context, term string, f wire.Filters) []string {
	ctx, cancel := context.WithTimeout(ctx, spellingTimeout)
	defer cancel()
	texts, err := v.Naming(ctx, term, f)
	if err != nil || len(texts) == 0 {
		return nil
	}
	count := map[string]int{}
	for i := 0; i+1 < len(texts); i += 2 { // a title, then its text
		for _, w := range assess.SurfaceWords(texts[i] + "\n" + texts[i+1]) {
			if ts := v.an.Terms(w); len(ts) == 1 && ts[0] == term {
				count[w]++
			}
		}
	}
	out := make([]string, 0, len(count))
	for w := range count {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// searchEndings are the endings searchable tries on a term.
var searchEndings = []string{"", "e", "s", "es", "ed", "ing", "al"}

// searchable is a text whose search finds the chunks holding term: the
// term with the first of searchEndings that analyzes back to it. The term
// alone is not always one: a stem may stem again ("coffe" → "coff",
// "purchas" → "purcha"), so "coffee" is searched. "" when no ending does.
func (v filteredVocabulary) searchable(term string) string { return searchable(v.an, term) }

// searchable is filteredVocabulary.searchable with an.
func searchable(an *terms.Analyzer, term string) string {
	for _, e := range searchEndings {
		if ts := an.Terms(term + e); len(ts) == 1 && ts[0] == term {
			return term + e
		}
	}
	return ""
}

// namingChunks bounds the visible chunks Naming reads for a term.
const namingChunks = 5

// Naming returns the title and text of each of the few best-ranked
// visible chunks holding term that pass the run's filters f (the builtin
// assessor's class reading, assess.NamingVocabulary): nothing when no
// visible chunk holds it; the search's error when it failed. The answer
// is kept for the question ctx serves (heldMemo), whose later attempts
// ask the same.
func (v filteredVocabulary) Naming(ctx context.Context, term string, f wire.Filters) ([]string, error) {
	ixf := retrieval.IndexFilter(v.groups, f)
	return v.held.naming(ctx, term, &ixf, func() ([]string, error) {
		return NamingTexts(ctx, v.ix, v.an, v.Vocabulary, v.groups, term, f)
	})
}

// NamePairs returns the (code, name word) pairs the chunks v's groups may
// see write (assess.PairedNamingVocabulary), read from the index's table
// (backend.NameSource); ok false when it keeps none.
func (v filteredVocabulary) NamePairs() (names.Pairs, bool) {
	ns, ok := v.ix.(backend.NameSource)
	if !ok {
		return names.Pairs{}, false
	}
	t := ns.Names()
	if t == nil {
		return names.Pairs{}, false
	}
	return t.Visible(v.groups), true
}

// NamingTexts is Naming over ix for groups, whose vocabulary is vocab.
func NamingTexts(ctx context.Context, ix backend.Searcher, an *terms.Analyzer, vocab backend.Vocabulary, groups []string, term string, f wire.Filters) ([]string, error) {
	if ix == nil || an == nil || vocab.DocFreq(term) == 0 {
		return nil, nil
	}
	text := searchable(an, term)
	if text == "" {
		return nil, nil
	}
	hits, err := ix.SearchText(ctx, text, retrieval.IndexFilter(groups, f), namingChunks)
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	chunks, err := ix.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, 2*len(chunks))
	for _, c := range chunks {
		out = append(out, c.Title, c.Text)
	}
	return out, nil
}
