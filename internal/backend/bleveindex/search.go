package bleveindex

import (
	"context"
	"fmt"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/postings"
	"github.com/assay-rag/assay/internal/vectors"
)

// tieMargin is how many hits past k SearchText fetches so that ties at
// the cut are broken by id, not by bleve's internal order.
const tieMargin = 16

// DefaultTitleBoost weighs a separate match on the title field on top of
// the title+text content field. Measured on the SciFact train split (see
// docs/retrieval.md); 0 turns the title clause off.
const DefaultTitleBoost = 0.0

// SearchText runs BM25 over title and text among the chunks that pass f and
// returns up to k hits, best first, ties by chunk id. Scores use the
// statistics of the chunks visible to f.Groups only (see visible.go).
func (ix *Index) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	return ix.SearchTextWeighted(ctx, text, DefaultTitleBoost, f, k)
}

// SearchTextWeighted is SearchText with an explicit title boost. Without
// one the postings serve it (MaxScore top-k over the visible chunks that
// pass the filter's bitmaps); with one bleve scores it, which it can only
// do with whole-index statistics and its own average length (distinct
// terms over chunks, not the mean length the postings use): its scores
// are for measuring a title boost, not comparable with the default's.
func (ix *Index) SearchTextWeighted(ctx context.Context, text string, titleBoost float64, f backend.Filter, k int) ([]backend.Hit, error) {
	const op = "index.SearchText"
	if len(f.Groups) == 0 {
		return nil, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	}
	vis := ix.post.Visible(f.Groups)
	if titleBoost > 0 {
		if vis.Len() != ix.Len() {
			// bleve's statistics count chunks these groups cannot see.
			return nil, errs.Errorf(op, errs.Unsupported, "a title boost is scored with whole-index statistics; it is only available to principals who see every chunk")
		}
		return ix.searchBleve(ctx, text, titleBoost, f, k)
	}
	if err := ctx.Err(); err != nil {
		return nil, errs.E(op, errs.Timeout, err)
	}
	p := ix.manifest.BM25
	hits, err := vis.Search(ctx, ix.terms(text), ix.filt.allowed(f), k, postings.Params{K1: p.K1, B: p.B})
	if err != nil {
		return nil, errs.E(op, err)
	}
	out := make([]backend.Hit, len(hits))
	for i, h := range hits {
		out[i] = backend.Hit{ChunkID: ix.store.id(int(h.Ord)), Score: h.Score}
	}
	return out, nil
}

// searchBleve is SearchTextWeighted scored by bleve, with whole-index
// statistics: for principals who see every chunk.
func (ix *Index) searchBleve(ctx context.Context, text string, titleBoost float64, f backend.Filter, k int) ([]backend.Hit, error) {
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
		return nil, errs.E("index.SearchText", err)
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
// chunks that pass f and returns up to k hits, best first, ties to the
// lower ordinal (chunk id). With the index's 1-bit codes (package vectors'
// DefaultType) they pick vectors.DefaultOverfetch(k)×k candidates that are
// re-ranked with the float32 vectors; an index without codes is scanned
// exactly. It fails with errs.Invalid when the index has no vectors or vec
// has the wrong dimension.
func (ix *Index) SearchVector(ctx context.Context, vec []float32, f backend.Filter, k int) ([]backend.Hit, backend.VectorStats, error) {
	const op = "index.SearchVector"
	start := time.Now()
	switch {
	case len(f.Groups) == 0:
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "no principal groups: refusing an unfiltered search")
	case ix.vecs == nil:
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "the index at %s has no vectors (built without an embedder)", ix.dir)
	case len(vec) != ix.manifest.Dim:
		return nil, backend.VectorStats{}, errs.Errorf(op, errs.Invalid, "query vector has %d dimensions, the index %d", len(vec), ix.manifest.Dim)
	case k < 1:
		return nil, backend.VectorStats{}, nil
	}
	allowed := ix.candidates(f)
	var st backend.VectorStats
	st.Allowed = ix.Len()
	if allowed != nil {
		st.Allowed = int(allowed.GetCardinality())
	}
	typ, over := vectors.Float32, 1
	if ix.vecs.Has(vectors.DefaultType) {
		typ, over = vectors.DefaultType, vectors.DefaultOverfetch(k)
	}
	if typ == vectors.Float32 || k*over >= st.Allowed {
		st.Method = fmt.Sprintf("exact float32 scan of %d chunks", st.Allowed)
	} else if typ == vectors.Bit && ix.vecs.Has(vectors.Int8) && k*over > k*vectors.Int8Narrow {
		st.Method = fmt.Sprintf("%s codes of %d chunks, the best %d narrowed to %d by their int8 codes and re-ranked in float32,",
			typ, st.Allowed, k*over, k*vectors.Int8Narrow)
	} else {
		st.Method = fmt.Sprintf("%s codes of %d chunks, the best %d re-ranked in float32,", typ, st.Allowed, k*over)
	}
	var got []vectors.Hit
	var err error
	if sub := ix.subset(f, allowed, typ); sub != nil {
		got, err = ix.vecs.SearchSubset(ctx, vec, sub, k, typ, over)
	} else {
		got, err = ix.vecs.Search(ctx, vec, allowed, k, typ, over)
	}
	if err != nil {
		return nil, st, errs.E(op, err)
	}
	out := make([]backend.Hit, len(got))
	for i, h := range got {
		out[i] = backend.Hit{ChunkID: ix.store.id(int(h.Ordinal)), Score: float64(h.Score)}
	}
	st.Took = time.Since(start)
	return out, st, nil
}

// subset is the contiguous copy of the 1-bit codes of allowed (subsets.go)
// when allowed is exactly what f.Groups may see, a Bit search scans it,
// and the set has one; nil otherwise.
func (ix *Index) subset(f backend.Filter, allowed *roaring.Bitmap, typ vectors.Type) *vectors.Subset {
	if allowed == nil || typ != vectors.Bit || allowed != ix.post.Visible(f.Groups).Docs() {
		return nil
	}
	return ix.codes.get(ix.vecs, allowed, ix.Len())
}

// candidates is the bitmap of the chunks visible to f.Groups that pass
// f's other conditions; nil when that is every chunk.
func (ix *Index) candidates(f backend.Filter) *roaring.Bitmap {
	vis := ix.post.Visible(f.Groups)
	allowed := ix.filt.allowed(f)
	switch {
	case allowed == nil && vis.Len() == ix.Len():
		return nil
	case allowed == nil:
		return vis.Docs() // read only
	}
	allowed.And(vis.Docs())
	return allowed
}
