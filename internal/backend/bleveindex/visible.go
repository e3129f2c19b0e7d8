package bleveindex

// Visible-set statistics (the rule is backend's, see parts.go there).
//
// When the groups see every ACL part, bleve's own statistics are exactly
// the visible set's and its scores are used unchanged (no cost);
// otherwise the chunks are matched and scored here, from an in-memory
// inverted index, with the visible set's IDF and average length
// (searchVisible).

import (
	"context"
	"math"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// lexicon is what BM25 scoring needs, in the terms of the index's own
// analyzer: an inverted index of the content field (term → the chunks
// holding it, with counts), each chunk's length, and term counts per ACL
// part (the index's own for the en analyzer, which Open keeps terms of).
type lexicon struct {
	an    analysis.Analyzer
	order []*corpus.Chunk
	post  map[string][]posting
	lens  []int32 // content terms per chunk, index order
	parts *backend.Parts
}

// posting is one chunk (its index in Index.order) holding a term tf times.
type posting struct {
	chunk, tf int32
}

// newLexicon builds the lexicon. For the en analyzer (the default) the
// chunk terms are the ones Open already keeps; otherwise chunks are
// analyzed again with the index's analyzer.
func newLexicon(ix *Index) (*lexicon, error) {
	name := ix.manifest.Analyzer
	if name == "" {
		name = en.AnalyzerName
	}
	an := ix.text.Mapping().AnalyzerNamed(name)
	if an == nil {
		return nil, errs.Errorf("index.Open", errs.Invalid, "%s: unknown analyzer %q", ix.dir, name)
	}
	lx := &lexicon{an: an, order: ix.order, post: map[string][]posting{}, lens: make([]int32, len(ix.order)), parts: ix.parts}
	toks := ix.toks
	if name != en.AnalyzerName {
		toks = make(map[string][]string, len(ix.order))
		for _, c := range ix.order {
			toks[c.ID] = lx.terms(c.Title + "\n" + c.Text)
		}
		lx.parts, _ = partsByACL(ix.order, toks)
	}
	tf := map[string]int32{}
	for i, c := range ix.order {
		clear(tf)
		for _, t := range toks[c.ID] {
			tf[t]++
		}
		for t, n := range tf {
			lx.post[t] = append(lx.post[t], posting{int32(i), n})
		}
		lx.lens[i] = int32(len(toks[c.ID]))
	}
	return lx, nil
}

func (lx *lexicon) terms(text string) []string {
	stream := lx.an.Analyze([]byte(text))
	out := make([]string, len(stream))
	for i, tok := range stream {
		out[i] = string(tok.Term)
	}
	return out
}

// searchVisible is SearchText for a principal who does not see every
// chunk. bleve's term statistics cannot be replaced per search (it takes
// a document count and field length, not document frequencies), so the
// chunks that pass f are matched and scored here from the lexicon's
// postings, by bleve's BM25 formula — square-rooted term frequency, query
// norm, coordination — with the visible set's statistics. A bleve match
// query is a disjunction with one clause per query token (repeats
// included); a chunk's score is the sum over the clauses it matches of
// idf² × queryNorm × tf·k1 / (tf + k1·(1 − b + b·len/avgdl)), times the
// share of clauses matched. TestVisibleScoringIsBleves checks the formula
// against bleve's own scores.
func (ix *Index) searchVisible(ctx context.Context, text string, f backend.Filter, k int, vis backend.VisibleSet) ([]backend.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, errs.E("index.SearchText", errs.Timeout, err)
	}
	lx := ix.lex
	qterms := lx.terms(text)
	if vis.Len() == 0 || k < 1 || len(qterms) == 0 {
		return nil, nil
	}
	q := backend.NewBM25Query(vis, ix.manifest.BM25, qterms)
	allows := f.Predicate()
	const unknown, allowed, denied = 0, 1, 2
	state := make([]uint8, len(lx.order))
	score := make([]float64, len(lx.order))
	matched := make([]int32, len(lx.order))
	var touched []int32
	for i, t := range qterms {
		for _, p := range lx.post[t] {
			switch state[p.chunk] {
			case denied:
				continue
			case unknown:
				if !allows.Allows(lx.order[p.chunk]) {
					state[p.chunk] = denied
					continue
				}
				state[p.chunk] = allowed
			}
			if matched[p.chunk] == 0 {
				touched = append(touched, p.chunk)
			}
			matched[p.chunk]++
			// bleve stores 1/√length as a float32 and recovers the length from it.
			norm := float64(float32(1 / math.Sqrt(float64(lx.lens[p.chunk]))))
			score[p.chunk] += q.Clause(i, int(p.tf), 1/(norm*norm))
		}
	}
	hits := make([]backend.Hit, len(touched))
	for i, c := range touched {
		hits[i] = backend.Hit{ChunkID: lx.order[c].ID, Score: q.Score(score[c], int(matched[c]))}
	}
	return backend.SortHits(hits, k), nil
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
	return append(out, ix.parts.Visible(groups).EmptyWarning()...)
}
