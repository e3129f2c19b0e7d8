package assess

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/backend"
)

// V17Model names the builtin assessor with v18's own order off
// (Builtin.OwnOrder): builtin:coverage-v17, kept selectable.
const V17Model = "builtin:coverage-v17"

// V18Model names the builtin assessor with v19's reading of the noun
// phrase asked about off (Builtin.Asked): builtin:coverage-v18, kept
// selectable.
const V18Model = "builtin:coverage-v18"

// V19Model names the builtin assessor with v20's product names off
// (Builtin.Named): builtin:coverage-v19, kept selectable.
const V19Model = "builtin:coverage-v19"

// builtin:coverage-v18 (Builtin.OwnOrder) judges the evidence in an order
// of its own. The focus and wide readings judge only the first chunk, the
// sentence reading the first five, a comparison takes the first chunk
// naming each entity, and every tie goes to the earlier chunk; in v17
// "first" was the order the evidence arrived in, so the same five chunks
// in another order could get another verdict (held-out h01, "how fast
// does the X200 spin", was accepted on the X200 specification page when
// it came first and refused when the error-code page did: round 15's
// finding, docs/log/round-15-q15-retr.md). v18 orders the chunks by what
// they hold: the service's BM25 (backend.DefaultBM25) of the attempt's
// query (the question itself on the first attempt) over the retrieved
// chunks themselves — IDF over the chunks the asker may see, each chunk's
// term counts in its title and text, lengths against the evidence's mean
// — best first, ties by chunk id. The readings' "first chunk" is then the
// chunk the searched words match best, whatever order the search's
// fusion, reranking or a caller put them in.

// ordered is req's evidence in the order it is judged in: best first by
// relevance (see above) over vocab, the asker's visible chunks, with
// OwnOrder (a sorted copy); else as it arrived. Assess orders it before
// anything reads it: the judgement, the spelling of the question (a
// misspelt word becomes the first of equally close words the evidence
// uses, see Rewriter.Spell: "replacd" is "replaced" or "replace") and
// the rewrite proposals (the feedback strategy's top hits).
func (b *Builtin) ordered(req Request, vocab Vocabulary) []Evidence {
	if !b.OwnOrder || len(req.Evidence) < 2 {
		return req.Evidence
	}
	query := req.Query
	if req.searched != nil && b.Expanded&expandOrder != 0 {
		query = searchedQuery(query, req.searched) // expanded.go: the query the search ran
	}
	if n := b.plainHits(req); n > 0 { // merged.go: the chunks only the expansion found stay below
		return append(b.ownOrder(query, req.Evidence[:n], vocab), b.ownOrder(query, req.Evidence[n:], vocab)...)
	}
	return b.ownOrder(query, req.Evidence, vocab)
}

// ownOrder is evidence sorted best first by relevance for query, ties by
// chunk id (a sorted copy).
func (b *Builtin) ownOrder(query string, evidence []Evidence, vocab Vocabulary) []Evidence {
	idx := make([]int, len(evidence))
	for i := range idx {
		idx[i] = i
	}
	rel := b.relevance(query, evidence, vocab)
	slices.SortStableFunc(idx, func(x, y int) int {
		if c := cmp.Compare(rel[y], rel[x]); c != 0 {
			return c
		}
		return strings.Compare(evidence[x].ChunkID, evidence[y].ChunkID)
	})
	out := make([]Evidence, len(idx))
	for i, j := range idx {
		out[i] = evidence[j]
	}
	return out
}

// relevance scores each chunk of evidence for text by the service's BM25
// (backend.BM25Query with backend.DefaultBM25) over the evidence itself:
// text's analyzed terms weighed by their IDF over the visible chunks
// (vocab), each chunk's term counts in its title and text, its length
// against the evidence's mean. Scores are rounded to 1e-9 so that sums
// taken in another order tie as they should.
func (b *Builtin) relevance(text string, evidence []Evidence, vocab Vocabulary) []float64 {
	qt := b.an.Terms(text)
	toks := make([][]string, len(evidence))
	var avg float64
	for i, e := range evidence {
		tt, xt := b.an.Titled(e.Title, e.Text) // as TitledMentions read them: one analysis, cached
		toks[i] = append(tt, xt...)
		avg += float64(len(toks[i]))
	}
	if len(evidence) > 0 {
		avg /= float64(len(evidence))
	}
	q := backend.NewBM25Query(lengths{vocab, avg}, backend.DefaultBM25, qt)
	out := make([]float64, len(evidence))
	for i := range evidence {
		tf := map[string]int{}
		for _, t := range toks[i] {
			tf[t]++
		}
		var sum float64
		matched := 0
		for k, t := range qt {
			if tf[t] > 0 {
				sum += q.Clause(k, tf[t], float64(len(toks[i])))
				matched++
			}
		}
		out[i] = math.Round(q.Score(sum, matched)*1e9) / 1e9
	}
	return out
}

// lengths gives a BM25Query the visible vocabulary's statistics and the
// evidence's mean length.
type lengths struct {
	Vocabulary
	avg float64
}

// AvgLen implements backend.BM25Stats.
func (l lengths) AvgLen() float64 { return l.avg }
