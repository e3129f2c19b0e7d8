package retrieval_test

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
)

func TestRequestValidate(t *testing.T) {
	ok := retrieval.Request{Query: "q", Groups: []string{"public"}, K: 5}
	tests := []struct {
		mut   func(*retrieval.Request)
		field string
	}{
		{func(r *retrieval.Request) { r.Query = "  " }, "query"},
		{func(r *retrieval.Request) { r.Groups = nil }, "groups"},
		{func(r *retrieval.Request) { r.K = 0 }, "k"},
		{func(r *retrieval.Request) { r.K = retrieval.MaxK + 1 }, "k"},
		{func(r *retrieval.Request) { r.Mode = "semantic" }, "mode"},
		{func(r *retrieval.Request) { r.Filters.MinAuthority = 2 }, "filters.min_authority"},
		{func(r *retrieval.Request) { r.Filters.UpdatedFrom = "May 2026" }, "filters.updated_from"},
		{func(r *retrieval.Request) { r.Filters.UpdatedTo = "2026-13-01" }, "filters.updated_to"},
	}
	if err := ok.Validate(); err != nil {
		t.Fatalf("Validate(%+v) = %v, want nil", ok, err)
	}
	for _, tt := range tests {
		r := ok
		tt.mut(&r)
		if err := r.Validate(); !errs.Is(errs.Invalid, err) || errs.FieldOf(err) != tt.field {
			t.Errorf("Validate(%+v) = %v, want an invalid error on field %s", r, err, tt.field)
		}
	}
}

func TestModesNeedTheirParts(t *testing.T) {
	eachBackend(t, modesNeedTheirParts)
}

func modesNeedTheirParts(t *testing.T, which string) {
	_, ix := hollinOn(t, which, retrieval.Options{})
	r := retrieval.New(ix) // BM25 only
	if r.Mode() != retrieval.BM25 {
		t.Errorf("New(ix).Mode() = %s, want bm25 (no embedder)", r.Mode())
	}
	for _, m := range []retrieval.Mode{retrieval.Vector, retrieval.Hybrid, retrieval.HybridRerank} {
		_, err := r.Search(context.Background(), retrieval.Request{Query: "kettle", Groups: []string{"public"}, K: 3, Mode: m})
		if !errs.Is(errs.Unsupported, err) {
			t.Errorf("BM25-only Search(mode %s) error = %v, want unsupported", m, err)
		}
	}
	res, err := r.Search(context.Background(), retrieval.Request{Query: "kettle", Groups: []string{"public"}, K: 3})
	if err != nil || len(res.Hits) == 0 || res.Stages[0].Name != "bm25" {
		t.Errorf("BM25-only Search(kettle) = %+v, %v; want hits from a bm25 stage", res, err)
	}
}

// leaky is a backend that ignores the filter, to prove retrieval refuses
// to pass on what a broken backend leaks.
type leaky struct{ backend.Searcher }

func (l leaky) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	f.Groups = []string{"public", "staff", "finance", "partners"}
	return l.Searcher.SearchText(ctx, text, f, k)
}

func TestLeakingBackendIsAnError(t *testing.T) {
	eachBackend(t, func(t *testing.T, which string) {
		_, ix := hollinOn(t, which, retrieval.Options{})
		r := retrieval.New(leaky{ix})
		_, err := r.Search(context.Background(), retrieval.Request{Query: "internal cost prices", Groups: []string{"public"}, K: 5})
		if !errs.Is(errs.Internal, err) {
			t.Errorf("Search over a leaking backend: error = %v, want internal", err)
		}
	})
}

func TestPriorFactor(t *testing.T) {
	tests := []struct {
		st   corpus.Status
		auth float64
		want float64
	}{
		{corpus.Current, 1, 1},
		{corpus.Current, 0.3, 0.825},
		{corpus.Archived, 1, 0.5},
		{corpus.Withdrawn, 1, 0.25},
	}
	for _, tt := range tests {
		if got := retrieval.PriorFactor(tt.st, tt.auth); got != tt.want {
			t.Errorf("PriorFactor(%s, %g) = %g, want %g", tt.st, tt.auth, got, tt.want)
		}
	}
}
