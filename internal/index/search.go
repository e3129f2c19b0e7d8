package index

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// Filter restricts candidates before scoring. Groups is required: a chunk
// is a candidate only if its ACL shares a group with it. Other empty fields
// do not filter.
type Filter struct {
	Groups   []string
	Types    []string
	Products []string
	Statuses []corpus.Status
	// MinAuthority keeps chunks with at least this authority.
	MinAuthority float64
	// UpdatedFrom and UpdatedTo (YYYY-MM-DD, inclusive) keep chunks updated
	// in that range; a chunk with no date fails a date filter.
	UpdatedFrom, UpdatedTo string
}

// Allows reports whether c passes f. It is the vector index's filter and
// the definition the bleve filter query must match.
func (f *Filter) Allows(c *corpus.Chunk) bool {
	switch {
	case !c.VisibleTo(f.Groups):
		return false
	case len(f.Types) > 0 && !slices.Contains(f.Types, c.Type):
		return false
	case len(f.Products) > 0 && !corpus.Visible(c.Products, f.Products):
		return false
	case len(f.Statuses) > 0 && !slices.Contains(f.Statuses, c.Status):
		return false
	case c.Authority < f.MinAuthority:
		return false
	case f.UpdatedFrom != "" && (c.Updated == "" || c.Updated < f.UpdatedFrom):
		return false
	case f.UpdatedTo != "" && (c.Updated == "" || c.Updated > f.UpdatedTo):
		return false
	}
	return true
}

// Hit is one match.
type Hit struct {
	ChunkID string
	Score   float64
}

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
func (ix *Index) SearchText(ctx context.Context, text string, f Filter, k int) ([]Hit, error) {
	return ix.SearchTextWeighted(ctx, text, DefaultTitleBoost, f, k)
}

// SearchTextWeighted is SearchText with an explicit title boost.
func (ix *Index) SearchTextWeighted(ctx context.Context, text string, titleBoost float64, f Filter, k int) ([]Hit, error) {
	const op = "index.SearchText"
	if len(f.Groups) == 0 {
		return nil, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	}
	if vis := ix.lex.visibleParts(f.Groups); len(vis) < len(ix.lex.parts) {
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
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, Hit{ChunkID: h.ID, Score: h.Score})
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return strings.Compare(a.ChunkID, b.ChunkID)
	})
	return hits[:min(k, len(hits))], nil
}

func filterQuery(f Filter) query.Query {
	anyOf := func(field string, values []string) query.Query {
		qs := make([]query.Query, 0, len(values))
		for _, v := range values {
			t := query.NewTermQuery(v)
			t.SetField(field)
			qs = append(qs, t)
		}
		return query.NewDisjunctionQuery(qs)
	}
	must := []query.Query{anyOf(fieldACL, f.Groups)}
	if len(f.Types) > 0 {
		must = append(must, anyOf(fieldType, f.Types))
	}
	if len(f.Products) > 0 {
		must = append(must, anyOf(fieldProducts, f.Products))
	}
	if len(f.Statuses) > 0 {
		s := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			s[i] = string(st)
		}
		must = append(must, anyOf(fieldStatus, s))
	}
	if f.MinAuthority > 0 {
		incl := true
		r := query.NewNumericRangeInclusiveQuery(&f.MinAuthority, nil, &incl, nil)
		r.SetField(fieldAuthority)
		must = append(must, r)
	}
	if f.UpdatedFrom != "" || f.UpdatedTo != "" {
		incl := true
		r := query.NewTermRangeInclusiveQuery(f.UpdatedFrom, f.UpdatedTo, &incl, &incl)
		r.SetField(fieldUpdated)
		must = append(must, r)
	}
	return query.NewConjunctionQuery(must)
}

// VectorStats describe one vector search, for the trace.
type VectorStats struct {
	Allowed int           // chunks that passed the filter and were scored
	Took    time.Duration // the scan
	// Method says how another backend searched ("RediSearch HNSW KNN");
	// empty for this index's exact scan.
	Method string
}

// SearchVector scores, by dot product (cosine for unit vectors), only the
// chunks that pass f, with an exact scan, and returns up to k hits, best
// first. It fails with errs.Invalid when the index has no vectors or vec
// has the wrong dimension.
func (ix *Index) SearchVector(ctx context.Context, vec []float32, f Filter, k int) ([]Hit, VectorStats, error) {
	const op = "index.SearchVector"
	start := time.Now()
	dim := ix.manifest.Dim
	switch {
	case len(f.Groups) == 0:
		return nil, VectorStats{}, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	case ix.manifest.Embedder == "":
		return nil, VectorStats{}, errs.Errorf(op, errs.Invalid, "the index at %s has no vectors (built without an embedder)", ix.dir)
	case len(vec) != dim:
		return nil, VectorStats{}, errs.Errorf(op, errs.Invalid, "query vector has %d dimensions, the index %d", len(vec), dim)
	case k < 1:
		return nil, VectorStats{}, nil
	}
	h := &minHeap{}
	var st VectorStats
	for i, c := range ix.order {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, st, errs.E(op, errs.Timeout, ctx.Err())
		}
		if !f.Allows(c) {
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
	out := make([]Hit, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		x := heap.Pop(h).(scored)
		out[i] = Hit{ChunkID: ix.order[x.i].ID, Score: float64(x.score)}
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

// String describes the manifest in one line for logs and the CLI.
func (m Manifest) String() string {
	emb := "no vectors"
	if m.Embedder != "" {
		emb = fmt.Sprintf("%s (dim %d)", m.Embedder, m.Dim)
	}
	return fmt.Sprintf("%d documents, %d chunks; analyzer %s, bm25 k1=%g b=%g; %s; %s",
		m.Documents, m.Chunks, m.Analyzer, m.BM25.K1, m.BM25.B, emb, m.Chunking)
}
