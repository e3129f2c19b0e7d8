package index

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
// This package keeps term counts by ACL (aclPart), so the statistics of a
// principal's visible set are the sum of the parts it may see:
//
//   - VisibleCounts gives the document frequencies and chunk count that
//     coverage, the weak-score warning and the builtin reranker use;
//   - SearchText scores BM25 with the visible set's statistics: when the
//     groups see every part, bleve's own statistics are exactly those and
//     its scores are used unchanged (no cost); otherwise the chunks are
//     matched and scored here, from an in-memory inverted index, with
//     the visible set's IDF and average length (searchVisible);
//   - Warnings names index problems without whole-index counts.
//
// A second backend (e.g. RediSearch) must offer the same three through
// retrieval.Backend: VisibleCounts, a SearchText that scores with the
// visible set's statistics, and count-free warnings.

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// TermCounts is term statistics over a set of chunks: how many contain a
// term, out of how many.
type TermCounts interface {
	DocFreq(term string) int
	Len() int
}

// VisibleCounts returns the term statistics of the chunks visible to
// groups, as TermCounts (see Visible).
func (ix *Index) VisibleCounts(groups []string) TermCounts { return ix.Visible(groups) }

// lexicon is what BM25 scoring needs, in the terms of the index's own
// analyzer: an inverted index of the content field (term → the chunks
// holding it, with counts), each chunk's length, and term counts per ACL
// part (in the same order as Index.byACL).
type lexicon struct {
	an    analysis.Analyzer
	order []*corpus.Chunk
	post  map[string][]posting
	lens  []int32 // content terms per chunk, index order
	parts []*aclPart
	mu    sync.Mutex
	sets  map[string]bm25Set // visible parts key → statistics
}

// posting is one chunk (its index in Index.order) holding a term tf times.
type posting struct {
	chunk, tf int32
}

// bm25Set is BM25's collection statistics of one visible set.
type bm25Set struct {
	n     int
	avgdl float64
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
	lx := &lexicon{an: an, order: ix.order, post: map[string][]posting{}, lens: make([]int32, len(ix.order)), parts: ix.byACL, sets: map[string]bm25Set{}}
	toks := ix.toks
	if name != en.AnalyzerName {
		toks = make(map[string][]string, len(ix.order))
		for _, c := range ix.order {
			toks[c.ID] = lx.terms(c.Title + "\n" + c.Text)
		}
		lx.parts = partsByACL(ix.order, toks)
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

// visibleParts returns the indexes of the parts groups may see.
func (lx *lexicon) visibleParts(groups []string) []int {
	var out []int
	for i, p := range lx.parts {
		if corpus.Visible(p.acl, groups) {
			out = append(out, i)
		}
	}
	return out
}

// stats returns the collection statistics of the visible parts. The
// average length is computed as bleve computes it (distinct terms of the
// field over chunks, rounded up), so that for a principal who sees every
// chunk these scores are bleve's.
func (lx *lexicon) stats(vis []int) bm25Set {
	key := fmt.Sprint(vis)
	lx.mu.Lock()
	defer lx.mu.Unlock()
	if s, ok := lx.sets[key]; ok {
		return s
	}
	var s bm25Set
	distinct := map[string]struct{}{}
	for _, i := range vis {
		s.n += lx.parts[i].n
		for t := range lx.parts[i].df {
			distinct[t] = struct{}{}
		}
	}
	if s.n > 0 {
		s.avgdl = math.Ceil(float64(len(distinct)) / float64(s.n))
	}
	lx.sets[key] = s
	return s
}

func (lx *lexicon) docFreq(vis []int, term string) int {
	n := 0
	for _, i := range vis {
		n += lx.parts[i].df[term]
	}
	return n
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
func (ix *Index) searchVisible(ctx context.Context, text string, f Filter, k int, vis []int) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, errs.E("index.SearchText", errs.Timeout, err)
	}
	lx := ix.lex
	st := lx.stats(vis)
	qterms := lx.terms(text)
	if st.n == 0 || k < 1 || len(qterms) == 0 {
		return nil, nil
	}
	idf := make([]float64, len(qterms))
	var sumSq float64
	for i, t := range qterms {
		df := float64(lx.docFreq(vis, t))
		idf[i] = math.Log(1 + (float64(st.n)-df+0.5)/(df+0.5))
		sumSq += idf[i] * idf[i]
	}
	qnorm := 1 / math.Sqrt(sumSq)
	k1, b := search.BM25_k1, search.BM25_b
	const unknown, allowed, denied = 0, 1, 2
	state := make([]uint8, len(lx.order))
	score := make([]float64, len(lx.order))
	matched := make([]int32, len(lx.order))
	var touched []int32
	for i, t := range qterms {
		w := idf[i] * idf[i] * qnorm
		for _, p := range lx.post[t] {
			switch state[p.chunk] {
			case denied:
				continue
			case unknown:
				if !f.Allows(lx.order[p.chunk]) {
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
			length := 1 / (norm * norm)
			tf := math.Sqrt(float64(p.tf))
			score[p.chunk] += w * (tf * k1) / (tf + k1*(1-b+b*length/st.avgdl))
		}
	}
	hits := make([]Hit, len(touched))
	for i, c := range touched {
		hits[i] = Hit{ChunkID: lx.order[c].ID, Score: score[c] * float64(matched[c]) / float64(len(qterms))}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return strings.Compare(a.ChunkID, b.ChunkID)
	})
	return hits[:min(k, len(hits))], nil
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
	empty := 0
	for _, p := range ix.byACL {
		if corpus.Visible(p.acl, groups) {
			empty += p.empty
		}
	}
	if empty > 0 {
		out = append(out, fmt.Sprintf("%d chunks you can see have no text (an empty parse?)", empty))
	}
	return out
}
