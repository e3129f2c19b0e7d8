package eval

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/golden"
	"github.com/assay-rag/assay/internal/retrieval"
)

// scripted is a Searcher that answers each query text with fixed chunk
// hits, and records the requests it saw.
type scripted struct {
	hits map[string][]retrieval.Hit
	seen []retrieval.Request
}

func (s *scripted) Search(_ context.Context, req retrieval.Request) (retrieval.Result, error) {
	s.seen = append(s.seen, req)
	return retrieval.Result{Hits: s.hits[req.Query]}, nil
}

func hit(doc string, ordinal int, score float64) retrieval.Hit {
	return retrieval.Hit{ChunkID: doc + "#" + string(rune('0'+ordinal)), DocID: doc, Score: score}
}

func TestCompareRetrievalByHand(t *testing.T) {
	queries := []Query{{"q1", "alpha"}, {"q2", "beta"}, {"q3", "gamma"}}
	qrels := Qrels{
		"q1": {"a": 1, "b": 0},
		"q2": {"c": 2, "d": 1},
		"q3": {"e": 1},
	}
	s := &scripted{hits: map[string][]retrieval.Hit{
		// a's second chunk must not count as a second document.
		"alpha": {hit("b", 0, 9), hit("a", 0, 8), hit("a", 1, 7)},
		"beta":  {hit("d", 0, 5), hit("x", 0, 4), hit("c", 0, 3)},
		// gamma retrieves nothing: it must count as zero, not vanish.
	}}
	rep, err := CompareRetrieval(context.Background(), queries, qrels, []System{{"fake", s}}, RetrievalOptions{K: 50})
	if err != nil {
		t.Fatal(err)
	}
	// By hand:
	//   q1: ranking b, a. First relevant at rank 2: RR 1/2; AP (1/2)/1;
	//       DCG 1/log2(3), ideal 1: nDCG 0.6309; recall 1.
	//   q2: ranking d(1), x, c(2). RR 1; AP (1/1 + 2/3)/2 = 0.8333;
	//       DCG 1 + 2/log2(4) = 2, ideal 2 + 1/log2(3) = 2.6309:
	//       nDCG 0.7602; recall 1.
	//   q3: nothing retrieved: all 0.
	ndcg1 := 1 / math.Log2(3)
	ndcg2 := 2 / (2 + 1/math.Log2(3))
	want := SystemSummary{
		Mode:      "fake",
		NDCG10:    (ndcg1 + ndcg2 + 0) / 3,
		MRR10:     (0.5 + 1 + 0) / 3,
		Recall10:  (1 + 1 + 0) / 3.0,
		Recall100: (1 + 1 + 0) / 3.0,
		MAP:       (0.5 + (1+2.0/3)/2 + 0) / 3,
		NoHit:     1,
	}
	got := rep.Systems[0]
	for _, m := range []struct {
		name      string
		got, want float64
	}{
		{"ndcg_at_10", got.NDCG10, want.NDCG10},
		{"mrr_at_10", got.MRR10, want.MRR10},
		{"recall_at_10", got.Recall10, want.Recall10},
		{"recall_at_100", got.Recall100, want.Recall100},
		{"map", got.MAP, want.MAP},
	} {
		if math.Abs(m.got-m.want) > 1e-12 {
			t.Errorf("CompareRetrieval %s = %.6f, want %.6f", m.name, m.got, m.want)
		}
	}
	if got.NoHit != 1 || rep.Queries != 3 || got.Evaluation.Mean.NumRet != 5 {
		t.Errorf("CompareRetrieval = no-hit %d, queries %d, num_ret %d; want 1, 3, 5", got.NoHit, rep.Queries, got.Evaluation.Mean.NumRet)
	}
	if r := got.Run["q1"]; !reflect.DeepEqual(r, []Ranked{{"b", 9}, {"a", 8}}) {
		t.Errorf("run for q1 = %v, want b then a, one entry per document", r)
	}
	for _, req := range s.seen {
		if req.K != 50 || !reflect.DeepEqual(req.Groups, []string{"public"}) {
			t.Errorf("Search request = %+v, want k 50 and groups [public]", req)
		}
	}
}

func TestCompareRetrievalErrors(t *testing.T) {
	ok := &scripted{}
	failing := SearcherFunc(func(context.Context, retrieval.Request) (retrieval.Result, error) {
		return retrieval.Result{}, errors.New("index closed")
	})
	qs := []Query{{"q1", "a"}}
	qrels := Qrels{"q1": {"d": 1}}
	tests := []struct {
		name    string
		queries []Query
		systems []System
		k       int
		want    string
	}{
		{"k too large", qs, []System{{"bm25", ok}}, retrieval.MaxK + 1, "k 1001: want 1..1000"},
		{"k zero", qs, []System{{"bm25", ok}}, 0, "k 0"},
		{"no systems", qs, nil, 10, "no retrieval modes"},
		{"unjudged query", []Query{{"q9", "a"}}, []System{{"bm25", ok}}, 10, "query q9 has no judgements"},
		{"search fails", qs, []System{{"bm25", failing}}, 10, "bm25: query q1: index closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CompareRetrieval(context.Background(), tc.queries, qrels, tc.systems, RetrievalOptions{K: tc.k})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CompareRetrieval = %v, want error containing %q", err, tc.want)
			}
		})
	}
}

func TestRetrievalReportGolden(t *testing.T) {
	rep := RetrievalReport{
		Schema: RetrievalSchema, Dataset: "scifact", Split: "test", Queries: 300, K: 100, Documents: 5183,
		Systems: []SystemSummary{
			{Mode: "bm25", NDCG10: 0.675, MRR10: 0.64, Recall10: 0.8, Recall100: 0.92, MAP: 0.63, LatencyP50Ms: 0.61, LatencyP99Ms: 2.5},
			{Mode: "hybrid+rerank", NDCG10: 0.7, MRR10: 0.66, Recall10: 0.83, Recall100: 0.95, MAP: 0.65, NoHit: 2, LatencyP50Ms: 12.25, LatencyP99Ms: 40},
		},
	}
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"retrieval_table.golden", func(b *bytes.Buffer) error { return rep.WriteTable(b) }},
		{"retrieval_report.golden.json", func(b *bytes.Buffer) error { return rep.WriteJSON(b) }},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", tc.file), buf.Bytes())
	}
}
