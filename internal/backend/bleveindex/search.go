package bleveindex

import (
	"container/heap"
	"context"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/errs"
)

// tieMargin is how many hits past k SearchText fetches so that ties at
// the cut are broken by id, not by bleve's internal order.
const tieMargin = 16

// DefaultTitleBoost weighs a separate match on the title field on top of
// the title+text content field. Measured on the SciFact train split (see
// docs/retrieval.md); 0 turns the title clause off.
const DefaultTitleBoost = 0.0

// SearchText runs BM25 over title and text among the chunks that pass f and
// returns up to k hits, best first. Scores use the statistics of the
// chunks visible to f.Groups only (see visible.go).
func (ix *Index) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	return ix.SearchTextWeighted(ctx, text, DefaultTitleBoost, f, k)
}

// SearchTextWeighted is SearchText with an explicit title boost.
func (ix *Index) SearchTextWeighted(ctx context.Context, text string, titleBoost float64, f backend.Filter, k int) ([]backend.Hit, error) {
	const op = "index.SearchText"
	if len(f.Groups) == 0 {
		return nil, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	}
	if vis := ix.lex.parts.Visible(f.Groups); !vis.All() {
		// bleve's statistics count chunks these groups cannot see.
		if titleBoost > 0 {
			return nil, errs.Errorf(op, errs.Unsupported, "a title boost is scored with whole-index statistics; it is only available to principals who see every chunk")
		}
		return ix.searchVisible(ctx, text, f, k, vis)
	}
	match := query.NewMatchQuery(text)
	match.SetField(fieldContent)
	should := []query.Query{match}
	if titleBoost > 0 {
		title := query.NewMatchQuery(text)
		title.SetField(fieldTitle)
		title.SetBoost(titleBoost)
		should = append(should, title)
	}
	q := query.NewBooleanQuery(nil, should, nil)
	q.AddFilter(filterQuery(f))
	// bleve orders equal scores by internal document number, which differs
	// between two builds of the same corpus. Sorting on _id inside bleve
	// reads every match's id; fetching a small margin past k and breaking
	// ties by id here only sorts the hits.
	req := bleve.NewSearchRequestOptions(q, k+tieMargin, 0, false)
	res, err := ix.text.SearchInContext(ctx, req)
	if err != nil {
		return nil, errs.E(op, err)
	}
	hits := make([]backend.Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, backend.Hit{ChunkID: h.ID, Score: h.Score})
	}
	return backend.SortHits(hits, k), nil
}

// filterFields are the bleve document fields of the filter's fields.
var filterFields = map[backend.Field]string{
	backend.FieldACL: fieldACL, backend.FieldType: fieldType, backend.FieldProducts: fieldProducts,
	backend.FieldStatus: fieldStatus, backend.FieldAuthority: fieldAuthority, backend.FieldUpdated: fieldUpdated,
}

// filterQuery compiles f's conditions into a bleve query: keyword
// disjunctions, a numeric range, a term range over the date keywords.
func filterQuery(f backend.Filter) query.Query {
	var must []query.Query
	for _, c := range f.Conditions() {
		field := filterFields[c.Field]
		incl := true
		switch c.Kind {
		case backend.AnyOf:
			qs := make([]query.Query, 0, len(c.Values))
			for _, v := range c.Values {
				t := query.NewTermQuery(v)
				t.SetField(field)
				qs = append(qs, t)
			}
			must = append(must, query.NewDisjunctionQuery(qs))
		case backend.AtLeast:
			r := query.NewNumericRangeInclusiveQuery(&c.Min, nil, &incl, nil)
			r.SetField(field)
			must = append(must, r)
		case backend.DateRange:
			r := query.NewTermRangeInclusiveQuery(c.From, c.To, &incl, &incl)
			r.SetField(field)
			must = append(must, r)
		}
	}
	return query.NewConjunctionQuery(must)
}

// SearchVector scores, by dot product (cosine for unit vectors), only the
// chunks that pass f, with an exact scan, and returns up to k hits, best
// first. It fails with errs.Invalid when the index has no vectors or vec
// has the wrong dimension.
func (ix *Index) SearchVector(ctx context.Context, vec []float32, f backend.Filter, k int) ([]backend.Hit, backend.VectorStats, error) {
	const op = "index.SearchVector"
	start := time.Now()
	dim := ix.manifest.Dim
	switch {
	case len(f.Groups) == 0:
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	case ix.manifest.Embedder == "":
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "the index at %s has no vectors (built without an embedder)", ix.dir)
	case len(vec) != dim:
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "query vector has %d dimensions, the index %d", len(vec), dim)
	case k < 1:
		return nil, backend.VectorStats{}, nil
	}
	h := &minHeap{}
	var st backend.VectorStats
	allows := f.Predicate()
	for i, c := range ix.order {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, st, errs.E(op, errs.Timeout, ctx.Err())
		}
		if !allows.Allows(c) {
			continue
		}
		st.Allowed++
		s := dot(vec, ix.vecs[i*dim:(i+1)*dim])
		if h.Len() < k {
			heap.Push(h, scored{i, s})
		} else if s > (*h)[0].score {
			(*h)[0] = scored{i, s}
			heap.Fix(h, 0)
		}
	}
	out := make([]backend.Hit, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		x := heap.Pop(h).(scored)
		out[i] = backend.Hit{ChunkID: ix.order[x.i].ID, Score: float64(x.score)}
	}
	st.Took = time.Since(start)
	return out, st, nil
}

// dot is the dot product of equal-length vectors, four lanes at a time
// (independent sums let the CPU overlap the multiplies).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(a); j += 4 {
		s0 += a[j] * b[j]
		s1 += a[j+1] * b[j+1]
		s2 += a[j+2] * b[j+2]
		s3 += a[j+3] * b[j+3]
	}
	for ; j < len(a); j++ {
		s0 += a[j] * b[j]
	}
	return (s0 + s1) + (s2 + s3)
}

type scored struct {
	i     int
	score float32
}

// minHeap keeps the k best scores; ties break towards the earlier chunk so
// results are deterministic.
type minHeap []scored

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(a, b int) bool {
	if h[a].score != h[b].score {
		return h[a].score < h[b].score
	}
	return h[a].i > h[b].i
}
func (h minHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
