package eval

import (
	"context"
	"fmt"
	"time"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/retrieval"
)

// Searcher is what the retrieval evaluation needs from a retriever.
type Searcher interface {
	Search(ctx context.Context, req retrieval.Request) (retrieval.Result, error)
}

// SearcherFunc adapts a function to Searcher.
type SearcherFunc func(ctx context.Context, req retrieval.Request) (retrieval.Result, error)

// Search calls f.
func (f SearcherFunc) Search(ctx context.Context, req retrieval.Request) (retrieval.Result, error) {
	return f(ctx, req)
}

// InMode is s searching every request in mode m.
func InMode(s Searcher, m retrieval.Mode) Searcher {
	return SearcherFunc(func(ctx context.Context, req retrieval.Request) (retrieval.Result, error) {
		req.Mode = m
		return s.Search(ctx, req)
	})
}

// System is one retrieval configuration under comparison.
type System struct {
	Name     string // e.g. "bm25"; also the run tag
	Searcher Searcher
}

// RetrievalOptions control a retrieval evaluation.
type RetrievalOptions struct {
	// K is how many results each query asks for (1..retrieval.MaxK).
	K int
	// Groups are the principal's ACL groups; empty means [public].
	Groups []string
	// Progress, if set, is called after each query.
	Progress func(system string, done, total int)
}

// SystemRun is one system's run over a query set, with the time each
// query took.
type SystemRun struct {
	System    string
	Run       Run
	Latencies []time.Duration // in query order
}

// RunQueries sends every query to s and records the ranking of documents
// it returns. Results are chunks; a document's rank is that of its
// best-ranked chunk and its score that chunk's score. A query that
// retrieves nothing is in the run with an empty ranking, so it scores zero
// instead of disappearing. Any search error stops the run: a partial run
// would make the means meaningless.
func RunQueries(ctx context.Context, sys System, queries []Query, opts RetrievalOptions) (SystemRun, error) {
	groups := opts.Groups
	if len(groups) == 0 {
		groups = []string{corpus.PublicGroup}
	}
	out := SystemRun{System: sys.Name, Run: make(Run, len(queries)), Latencies: make([]time.Duration, 0, len(queries))}
	for i, q := range queries {
		if err := ctx.Err(); err != nil {
			return SystemRun{}, err
		}
		start := time.Now()
		res, err := sys.Searcher.Search(ctx, retrieval.Request{Query: q.Text, Groups: groups, K: opts.K})
		took := time.Since(start)
		if err != nil {
			return SystemRun{}, fmt.Errorf("%s: query %s: %w", sys.Name, q.ID, err)
		}
		out.Latencies = append(out.Latencies, took)
		out.Run[q.ID] = documentRanking(res.Hits)
		if opts.Progress != nil {
			opts.Progress(sys.Name, i+1, len(queries))
		}
	}
	return out, nil
}

// documentRanking collapses chunk hits, best first, to documents.
func documentRanking(hits []retrieval.Hit) []Ranked {
	out := make([]Ranked, 0, len(hits))
	seen := make(map[string]bool, len(hits))
	for _, h := range hits {
		if seen[h.DocID] {
			continue
		}
		seen[h.DocID] = true
		out = append(out, Ranked{DocID: h.DocID, Score: h.Score})
	}
	return out
}

// RetrievalSchema names the version of RetrievalReport's JSON form. It
// changes only when a field is removed or changes meaning.
const RetrievalSchema = "assay.eval.retrieval/v1"

// RetrievalReport compares systems on one query set. Its JSON form is
// stable (see RetrievalSchema); field comments give the meaning.
type RetrievalReport struct {
	Schema string `json:"schema"` // RetrievalSchema
	// Dataset and Split say what was evaluated; Queries is how many
	// judged queries were run, each counting in every mean.
	Dataset string `json:"dataset"`
	Split   string `json:"split"`
	Queries int    `json:"queries"`
	// K is how many documents each query retrieved at most.
	K int `json:"k"`
	// Documents is the corpus size the index was built from.
	Documents int             `json:"documents"`
	Systems   []SystemSummary `json:"modes"`
}

// SystemSummary is one system's line of the comparison. Measures are
// trec_eval's, averaged over every judged query (trec_eval -c), on
// rankings cut at the report's K.
type SystemSummary struct {
	Mode      string  `json:"mode"`
	NDCG10    float64 `json:"ndcg_at_10"`    // ndcg_cut_10
	MRR10     float64 `json:"mrr_at_10"`     // recip_rank with -M 10
	Recall10  float64 `json:"recall_at_10"`  // recall_10
	Recall100 float64 `json:"recall_at_100"` // recall_100
	MAP       float64 `json:"map"`           // map, over the top K
	// NoHit counts judged queries that retrieved nothing (scored zero).
	NoHit int `json:"no_hit_queries"`
	// LatencyP50Ms and LatencyP99Ms are nearest-rank percentiles of the
	// wall time of one Search call, in milliseconds.
	LatencyP50Ms float64 `json:"latency_p50_ms"`
	LatencyP99Ms float64 `json:"latency_p99_ms"`

	// Evaluation holds the per-query measures; not part of the JSON form.
	Evaluation Evaluation `json:"-"`
	// Run is the system's run, for writing as a TREC run file.
	Run Run `json:"-"`
}

// CompareRetrieval runs every system over queries and scores each run
// against qrels. Queries without judgements are an error: they cannot be
// scored and would silently leave the means.
func CompareRetrieval(ctx context.Context, queries []Query, qrels Qrels, systems []System, opts RetrievalOptions) (RetrievalReport, error) {
	if opts.K < 1 || opts.K > retrieval.MaxK {
		return RetrievalReport{}, fmt.Errorf("eval: k %d: want 1..%d", opts.K, retrieval.MaxK)
	}
	if len(systems) == 0 {
		return RetrievalReport{}, fmt.Errorf("eval: no retrieval modes to compare")
	}
	for _, q := range queries {
		if _, ok := qrels[q.ID]; !ok {
			return RetrievalReport{}, fmt.Errorf("eval: query %s has no judgements", q.ID)
		}
	}
	judged := make(Qrels, len(queries))
	for _, q := range queries {
		judged[q.ID] = qrels[q.ID]
	}
	rep := RetrievalReport{Schema: RetrievalSchema, Queries: len(queries), K: opts.K}
	for _, sys := range systems {
		sr, err := RunQueries(ctx, sys, queries, opts)
		if err != nil {
			return RetrievalReport{}, err
		}
		ev, err := Evaluate(judged, sr.Run, Options{Complete: true, Cutoffs: []int{10, 100}})
		if err != nil {
			return RetrievalReport{}, fmt.Errorf("%s: %w", sys.Name, err)
		}
		at10, _ := ev.Mean.At(10)
		at100, _ := ev.Mean.At(100)
		rep.Systems = append(rep.Systems, SystemSummary{
			Mode:         sys.Name,
			NDCG10:       at10.NDCG,
			MRR10:        at10.RR,
			Recall10:     at10.Recall,
			Recall100:    at100.Recall,
			MAP:          ev.Mean.AP,
			NoHit:        len(ev.NoHit),
			LatencyP50Ms: millis(percentile.NearestRank(sr.Latencies, 50)),
			LatencyP99Ms: millis(percentile.NearestRank(sr.Latencies, 99)),
			Evaluation:   ev,
			Run:          sr.Run,
		})
	}
	return rep, nil
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
