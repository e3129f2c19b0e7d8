package eval

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Qrels are relevance judgements: query id → document id → grade. Grades
// are small non-negative integers; a negative grade means "in the pool but
// not judged" and counts as not relevant.
type Qrels map[string]map[string]int

// Ranked is one retrieved document and the score it was retrieved with.
type Ranked struct {
	DocID string
	Score float64
}

// Run is a system's rankings: query id → retrieved documents. The order of
// a slice does not matter to Evaluate, which sorts by score as trec_eval
// does; WriteRun writes it as given.
type Run map[string][]Ranked

// DefaultCutoffs returns the ranks at which Evaluate reports the cut
// measures when Options.Cutoffs is empty: trec_eval's cutoffs for P,
// recall, ndcg_cut and map_cut, plus 1 for success_1.
func DefaultCutoffs() []int { return []int{1, 5, 10, 15, 20, 30, 100, 200, 500, 1000} }

// Options are trec_eval's evaluation flags.
type Options struct {
	// RelevanceLevel is the lowest grade that counts as relevant for the
	// binary measures (trec_eval -l). Zero means trec_eval's default, 1.
	RelevanceLevel int
	// MaxDocs keeps only the first MaxDocs documents of each sorted ranking
	// (trec_eval -M). Zero means no limit.
	MaxDocs int
	// Complete averages over every query in the qrels, scoring queries
	// missing from the run as zero (trec_eval -c).
	Complete bool
	// Cutoffs are the ranks for the cut measures; empty means
	// DefaultCutoffs. They must be positive and distinct.
	Cutoffs []int
}

func (o Options) normalized() (Options, error) {
	if o.RelevanceLevel < 0 {
		return o, fmt.Errorf("eval: relevance level %d: must be 1 or more", o.RelevanceLevel)
	}
	if o.RelevanceLevel == 0 {
		o.RelevanceLevel = 1
	}
	if o.MaxDocs < 0 {
		return o, fmt.Errorf("eval: max docs %d: must be 0 (no limit) or more", o.MaxDocs)
	}
	if len(o.Cutoffs) == 0 {
		o.Cutoffs = DefaultCutoffs()
	}
	cuts := slices.Clone(o.Cutoffs)
	slices.Sort(cuts)
	for i, k := range cuts {
		if k < 1 {
			return o, fmt.Errorf("eval: cutoff %d: must be 1 or more", k)
		}
		if i > 0 && cuts[i-1] == k {
			return o, fmt.Errorf("eval: cutoff %d given twice", k)
		}
	}
	o.Cutoffs = cuts
	return o, nil
}

// Cut holds the measures taken over the first K documents of a ranking.
type Cut struct {
	K int `json:"k"`
	// Precision is relevant retrieved in the top K divided by K (P_K).
	Precision float64 `json:"p"`
	// Recall is relevant retrieved in the top K over all relevant (recall_K).
	Recall float64 `json:"recall"`
	// NDCG is normalized discounted cumulative gain at K (ndcg_cut_K).
	NDCG float64 `json:"ndcg"`
	// AP is average precision over the top K (map_cut_K).
	AP float64 `json:"ap"`
	// RR is the reciprocal rank of the first relevant document if it is in
	// the top K, else 0. trec_eval has no such measure; it equals trec_eval's
	// recip_rank computed with -M K.
	RR float64 `json:"rr"`
	// Success is 1 if a relevant document is in the top K (success_K).
	Success float64 `json:"success"`
}

// Measures are one query's measures, or their average over queries.
type Measures struct {
	QueryID   string `json:"query_id"`
	NumRet    int    `json:"num_ret"`     // documents evaluated, after MaxDocs
	NumRel    int    `json:"num_rel"`     // relevant documents in the qrels
	NumRelRet int    `json:"num_rel_ret"` // relevant documents retrieved
	// AP is average precision (map).
	AP float64 `json:"ap"`
	// RPrec is precision at rank NumRel (Rprec).
	RPrec float64 `json:"rprec"`
	// RR is the reciprocal rank of the first relevant document (recip_rank).
	RR float64 `json:"rr"`
	// NDCG is nDCG over the whole ranking (ndcg).
	NDCG float64 `json:"ndcg"`
	// Cuts are the cut measures, by increasing K.
	Cuts []Cut `json:"cuts"`
}

// At returns the measures at cutoff k and whether k was evaluated.
func (m Measures) At(k int) (Cut, bool) {
	for _, c := range m.Cuts {
		if c.K == k {
			return c, true
		}
	}
	return Cut{K: k}, false
}

// Values returns the measures under trec_eval's names (map, recip_rank,
// P_10, ndcg_cut_10, ...), plus mrr_cut_K for Cut.RR, which trec_eval
// lacks. Counts are returned as floats.
func (m Measures) Values() map[string]float64 {
	v := map[string]float64{
		"num_ret":     float64(m.NumRet),
		"num_rel":     float64(m.NumRel),
		"num_rel_ret": float64(m.NumRelRet),
		"map":         m.AP,
		"Rprec":       m.RPrec,
		"recip_rank":  m.RR,
		"ndcg":        m.NDCG,
	}
	for _, c := range m.Cuts {
		k := strconv.Itoa(c.K)
		v["P_"+k] = c.Precision
		v["recall_"+k] = c.Recall
		v["ndcg_cut_"+k] = c.NDCG
		v["map_cut_"+k] = c.AP
		v["mrr_cut_"+k] = c.RR
		v["success_"+k] = c.Success
	}
	return v
}

// Evaluation is the result of Evaluate.
type Evaluation struct {
	// Queries holds each evaluated query's measures, by query id in byte
	// order (trec_eval's order).
	Queries []Measures `json:"queries"`
	// Mean averages Queries; its QueryID is "all" and its counts are sums.
	Mean Measures `json:"mean"`
	// NoHit lists evaluated queries that have relevant documents but
	// retrieved none; they score zero on every measure.
	NoHit []string `json:"no_hit"`
}

// Evaluate scores run against qrels as trec_eval does with opts (see the
// package documentation). It fails on bad options, a NaN or infinite score,
// a document ranked twice for one query, or when no query can be evaluated.
func Evaluate(qrels Qrels, run Run, opts Options) (Evaluation, error) {
	opts, err := opts.normalized()
	if err != nil {
		return Evaluation{}, err
	}
	qids := make([]string, 0, len(qrels))
	for qid := range qrels {
		qids = append(qids, qid)
	}
	sort.Strings(qids)
	var ev Evaluation
	for _, qid := range qids {
		ranking, ok := run[qid]
		if !ok && !opts.Complete {
			continue
		}
		m, err := evaluateQuery(qid, qrels[qid], ranking, opts)
		if err != nil {
			return Evaluation{}, err
		}
		if m.NumRel > 0 && m.NumRet == 0 {
			ev.NoHit = append(ev.NoHit, qid)
		}
		ev.Queries = append(ev.Queries, m)
	}
	if len(ev.Queries) == 0 {
		return Evaluation{}, fmt.Errorf("eval: no query has both judgements and results (%d judged, %d in the run)", len(qrels), len(run))
	}
	ev.Mean = mean(ev.Queries, opts.Cutoffs)
	return ev, nil
}

// evaluateQuery computes one query's measures.
func evaluateQuery(qid string, judged map[string]int, ranking []Ranked, opts Options) (Measures, error) {
	ranked, err := sortRanking(qid, ranking)
	if err != nil {
		return Measures{}, err
	}
	if opts.MaxDocs > 0 && len(ranked) > opts.MaxDocs {
		ranked = ranked[:opts.MaxDocs]
	}
	// grades[i] is the grade of the document at rank i+1; unjudged and
	// negatively graded documents get -1, which is below every level.
	grades := make([]int, len(ranked))
	for i, r := range ranked {
		g, ok := judged[r.DocID]
		if !ok || g < 0 {
			g = -1
		}
		grades[i] = g
	}
	level := opts.RelevanceLevel
	m := Measures{QueryID: qid, NumRet: len(ranked)}
	var ideal []int // positive grades of all judged documents, best first
	for _, g := range judged {
		if g >= level {
			m.NumRel++
		}
		if g > 0 {
			ideal = append(ideal, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))

	m.Cuts = make([]Cut, len(opts.Cutoffs))
	for i, k := range opts.Cutoffs {
		m.Cuts[i].K = k
	}
	// One pass down the ranking; each cut is recorded when the pass
	// reaches it, and the ones beyond the ranking's end afterwards.
	relSoFar, apSum, dcg := 0, 0.0, 0.0
	cut := 0
	record := func(k int) {
		c := &m.Cuts[cut]
		c.Precision = float64(relSoFar) / float64(k)
		c.AP = apSum
		c.NDCG = dcg
		c.RR = m.RR
		if relSoFar > 0 {
			c.Success = 1
		}
		if m.NumRel > 0 {
			c.Recall = float64(relSoFar) / float64(m.NumRel)
		}
		cut++
	}
	for i, g := range grades {
		for cut < len(m.Cuts) && m.Cuts[cut].K == i {
			record(m.Cuts[cut].K)
		}
		if i == m.NumRel {
			m.RPrec = float64(relSoFar)
		}
		if g > 0 {
			dcg += float64(g) / math.Log2(float64(i+2))
		}
		if g >= level {
			relSoFar++
			apSum += float64(relSoFar) / float64(i+1)
			if m.RR == 0 {
				m.RR = 1 / float64(i+1)
			}
		}
	}
	if len(grades) <= m.NumRel {
		m.RPrec = float64(relSoFar)
	}
	for cut < len(m.Cuts) {
		record(m.Cuts[cut].K)
	}
	m.NumRelRet = relSoFar
	m.NDCG = dcg
	if m.NumRel > 0 {
		m.AP = apSum / float64(m.NumRel)
		m.RPrec /= float64(m.NumRel)
		for i := range m.Cuts {
			m.Cuts[i].AP /= float64(m.NumRel)
		}
	} else {
		m.AP, m.RPrec = 0, 0
		for i := range m.Cuts {
			m.Cuts[i].AP = 0
		}
	}
	// Normalize each DCG by the ideal DCG over as many ranks.
	idcg, j := 0.0, 0
	for i := range m.Cuts {
		for ; j < len(ideal) && j < m.Cuts[i].K; j++ {
			idcg += float64(ideal[j]) / math.Log2(float64(j+2))
		}
		if idcg > 0 {
			m.Cuts[i].NDCG /= idcg
		}
	}
	for ; j < len(ideal); j++ {
		idcg += float64(ideal[j]) / math.Log2(float64(j+2))
	}
	if idcg > 0 {
		m.NDCG /= idcg
	}
	return m, nil
}

// sortRanking returns ranking in trec_eval's order: score descending, then
// document id descending.
func sortRanking(qid string, ranking []Ranked) ([]Ranked, error) {
	out := slices.Clone(ranking)
	for _, r := range out {
		if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
			return nil, fmt.Errorf("eval: query %s: document %s has score %v", qid, r.DocID, r.Score)
		}
	}
	slices.SortFunc(out, func(a, b Ranked) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return strings.Compare(b.DocID, a.DocID)
	})
	for i := 1; i < len(out); i++ {
		if out[i].DocID == out[i-1].DocID {
			return nil, fmt.Errorf("eval: query %s: document %s is ranked twice", qid, out[i].DocID)
		}
	}
	return out, nil
}

// mean averages per-query measures; counts are summed.
func mean(qs []Measures, cutoffs []int) Measures {
	m := Measures{QueryID: "all", Cuts: make([]Cut, len(cutoffs))}
	for i, k := range cutoffs {
		m.Cuts[i].K = k
	}
	for _, q := range qs {
		m.NumRet += q.NumRet
		m.NumRel += q.NumRel
		m.NumRelRet += q.NumRelRet
		m.AP += q.AP
		m.RPrec += q.RPrec
		m.RR += q.RR
		m.NDCG += q.NDCG
		for i, c := range q.Cuts {
			s := &m.Cuts[i]
			s.Precision += c.Precision
			s.Recall += c.Recall
			s.NDCG += c.NDCG
			s.AP += c.AP
			s.RR += c.RR
			s.Success += c.Success
		}
	}
	n := float64(len(qs))
	m.AP /= n
	m.RPrec /= n
	m.RR /= n
	m.NDCG /= n
	for i := range m.Cuts {
		s := &m.Cuts[i]
		s.Precision /= n
		s.Recall /= n
		s.NDCG /= n
		s.AP /= n
		s.RR /= n
		s.Success /= n
	}
	return m
}
