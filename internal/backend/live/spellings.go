package live

import (
	"context"
	"sort"
	"time"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
)

// spellingChunks bounds the visible chunks Spellings reads for a term's
// words, and spellingTimeout how long it may take (within the caller's
// own deadline: the earlier of the two ends it).
const (
	spellingChunks  = 5
	spellingTimeout = 2 * time.Second
)

// Spellings returns the words the chunks v's groups may see spell term
// with, lower case, most used first (ties alphabetical): read from the
// few best-ranked visible chunks holding term that pass the run's filters
// f, the same filter the run's retrieval searches with
// (retrieval.IndexFilter), in the one search. None when no such chunk
// holds it, or the search fails or ctx ends (the rewriter then spells the
// correction another way).
func (v filteredVocabulary) Spellings(ctx context.Context, term string, f wire.Filters) []string {
	if v.ix == nil || v.an == nil || v.DocFreq(term) == 0 {
		return nil
	}
	text := v.searchable(term)
	if text == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, spellingTimeout)
	defer cancel()
	hits, err := v.ix.SearchText(ctx, text, retrieval.IndexFilter(v.groups, f), spellingChunks)
	if err != nil || len(hits) == 0 {
		return nil
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	chunks, err := v.ix.Chunks(ctx, ids)
	if err != nil {
		return nil
	}
	count := map[string]int{}
	for _, c := range chunks {
		for _, w := range assess.SurfaceWords(c.Title + "\n" + c.Text) {
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
func (v filteredVocabulary) searchable(term string) string {
	for _, e := range searchEndings {
		if ts := v.an.Terms(term + e); len(ts) == 1 && ts[0] == term {
			return term + e
		}
	}
	return ""
}
