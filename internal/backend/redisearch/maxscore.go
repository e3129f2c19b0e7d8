package redisearch

import (
	"context"
	"math"
	"slices"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
)

// MaxScore on the worker's side (issue 20; docs/performance-scale.md,
// "RediSearch: MaxScore on the worker's side"). RediSearch 2.10 reads and
// scores every match of every query term; the commonest terms are most of
// that work and weigh least. So the BM25 leg first asks only for the
// chunks that hold an essential (rarer) term, re-scores them exactly with
// the whole query, and keeps that answer only when no chunk it did not
// read can score above its k-th: then it is exactly the top k of
// exhaustive scoring over the visible chunks. Otherwise it reads the full
// union as before.
//
// The essential read is ordered by RediSearch's DISMAX scorer, not
// BM25STD: DISMAX scores a union of branches by the best branch's
// weight × term frequency and uses no index statistic, so a chunk's
// DISMAX score is known exactly from its terms and the weights sent
// (BM25STD's average length and IDF are the engine's own counters, which
// a chunk's re-indexing inflates: they cannot be reproduced here). That
// is what makes the bound below a bound.
//
// The bound. Let the query have n clauses (terms, repeats included), a
// term t m_t of them, visible idf_t, queryNorm z, and bleve's clause
// c_t(tf, ℓ) = idf_t²·z·√tf·k1/(√tf + k1·(1 − b + b·ℓ/avgLen)); a chunk
// scores coord × Σ m_t·c_t(tf_t, ℓ), coord = Σ_{t held} m_t / n. The
// essential read returns the first D chunks by δ(c) = max_{t∈E} w_t·tf_t(c)
// (E the essential terms, w_t their weights); let cut be the D-th score
// (0 when the read returned every chunk that holds an essential term).
// A chunk u that was not read has δ(u) ≤ cut, so it holds an essential
// term t at most cap_t = ⌊cut/w_t⌋ times, and a dropped term any number
// of times. Its length ℓ is at least each tf_t, and c_t falls with ℓ, so
// c_t(tf, ℓ) ≤ G_t(cap_t) = idf_t²·z·max_{1≤tf≤cap_t} g(tf, tf) with
// g(tf, ℓ) = √tf·k1/(√tf + k1·(1 − b + b·ℓ/avgLen)). Both the sum and coord
// grow with the set of terms held, so
//
//	score(u) ≤ (Σ_{t: cap_t ≥ 1} m_t·G_t(cap_t)) × (Σ_{t: cap_t ≥ 1} m_t) / n.
//
// When that is below the k-th exact score of the chunks read (strictly:
// an unread chunk with an equal score and a smaller id would rank above),
// the chunks read hold the exact top k. The engine's DISMAX scores of the
// chunks read are checked against their terms (maxScoreConsistent); any
// difference (a term the engine tokenizes otherwise) also falls back.

// maxScoreShare and maxScoreMinDF: query terms held by more than this
// share of the visible chunks, and by more than maxScoreMinDF of them,
// are non-essential (left out of the essential read) — the terms whose
// postings made most of a search's time at 500,000 chunks. A union of
// fewer postings costs less than the essential read and the bound's risk
// of a second read.
var (
	maxScoreShare = 0.05
	maxScoreMinDF = 10_000
)

// maxScoreFactor: the essential read asks for this many times the full
// read's depth (candidateDepth).
var maxScoreFactor = 5

// msTerm is one unique visible query term in the plan.
type msTerm struct {
	term      string
	mult      int     // its clauses in the query (repeats)
	idf       float64 // visible
	weight    float64 // DISMAX weight, as sent (essential terms only)
	essential bool
}

// maxScorePlan splits the visible query terms into essential and
// non-essential ones: the commonest by visible df are left out while they
// are held by more than maxScoreShare of the visible chunks and more than
// maxScoreMinDF, keeping at least one term. ok is false when nothing would be left out.
func maxScorePlan(q backend.BM25Query, uniq []string, mult map[string]int, vis []int, n int) (plan []msTerm, ok bool) {
	idf := map[string]float64{}
	for i, t := range q.Terms {
		idf[t] = q.IDF(i)
	}
	order := make([]int, len(uniq))
	for i := range order {
		order[i] = i
	}
	// Commonest first; ties by term so the plan is deterministic.
	slices.SortFunc(order, func(a, b int) int {
		if vis[a] != vis[b] {
			return vis[b] - vis[a]
		}
		if uniq[a] < uniq[b] {
			return -1
		}
		return 1
	})
	dropped := 0
	for _, i := range order[:len(order)-1] {
		if float64(vis[i]) <= maxScoreShare*float64(n) || vis[i] <= maxScoreMinDF {
			break
		}
		dropped++
	}
	if dropped == 0 {
		return nil, false
	}
	for j, i := range order {
		t := uniq[i]
		mt := msTerm{term: t, mult: mult[t], idf: idf[t], essential: j >= dropped}
		if mt.essential {
			// The best a clause of t can give at tf 1 orders the read;
			// rounded as textQuery sends it, so δ is reproducible.
			w := float64(mt.mult) * mt.idf * mt.idf
			mt.weight, _ = strconv.ParseFloat(strconv.FormatFloat(w, 'g', 6, 64), 64)
		}
		plan = append(plan, mt)
	}
	return plan, true
}

// maxScoreBound is the best score a chunk not read can have (see the
// package comment above): cut is the last score the essential read
// returned, 0 when it returned every match.
func maxScoreBound(q backend.BM25Query, p backend.BM25, avg float64, plan []msTerm, cut float64) float64 {
	var sum float64
	held := 0
	for _, t := range plan {
		capTF := math.Inf(1)
		if t.essential {
			// A hair over cut/w: the quotient of the engine's product
			// must not round below a tf it holds.
			capTF = math.Floor(cut/t.weight*(1+1e-9) + 1e-9)
		}
		if capTF < 1 {
			continue
		}
		held += t.mult
		sum += float64(t.mult) * t.idf * t.idf * maxClauseTF(p, avg, capTF)
	}
	return sum * queryNorm(q) * float64(held) / float64(len(q.Terms))
}

// queryNorm is q's queryNorm, 1/√(Σ idf²) over its clauses (1 without
// any weight), as BM25Query computes it.
func queryNorm(q backend.BM25Query) float64 {
	var sumSq float64
	for i := range q.Terms {
		sumSq += q.IDF(i) * q.IDF(i)
	}
	if sumSq > 0 {
		return 1 / math.Sqrt(sumSq)
	}
	return 1
}

// maxClauseTF is max over integer 1 ≤ tf ≤ capTF of g(tf, tf), where
// g(tf, ℓ) = √tf·k1/(√tf + k1·(1 − b + b·ℓ/avg)) is bleve's clause without
// idf²·queryNorm: the most a term held at most capTF times can give a
// chunk of any length (a chunk holding it tf times has ℓ ≥ tf, and g
// falls with ℓ). With ℓ = tf, g = k1/(1 + k1·(1−b)/√tf + k1·b·√tf/avg),
// which rises up to tf* = (1−b)·avg/b and falls after; without length
// normalisation (b = 0 or no average) it rises towards k1.
func maxClauseTF(p backend.BM25, avg float64, capTF float64) float64 {
	b := p.B
	if avg <= 0 {
		b = 0 // BM25Query.Clause: no normalisation without an average
	}
	g := func(tf float64) float64 {
		s := math.Sqrt(tf)
		lenNorm := 1.0
		if avg > 0 {
			lenNorm = 1 - b + b*tf/avg
		}
		return s * p.K1 / (s + p.K1*lenNorm)
	}
	if b <= 0 {
		if math.IsInf(capTF, 1) {
			return p.K1
		}
		return g(capTF)
	}
	peak := (1 - b) * avg / b
	if capTF <= peak {
		return g(capTF)
	}
	lo := math.Max(1, math.Floor(peak))
	return math.Max(g(lo), g(math.Max(1, math.Min(capTF, lo+1))))
}

// maxScoreConsistent reports whether the engine's DISMAX score of each
// chunk read is what its terms give: max over essential terms of
// weight × tf.
func maxScoreConsistent(plan []msTerm, cands []candidate, scores []float64) bool {
	tf := map[string]int{}
	for i, c := range cands {
		clear(tf)
		for _, t := range c.terms {
			tf[t]++
		}
		var want float64
		for _, t := range plan {
			if t.essential {
				want = math.Max(want, t.weight*float64(tf[t.term]))
			}
		}
		if math.Abs(want-scores[i]) > 1e-6*math.Max(1, want) {
			return false
		}
	}
	return true
}

// searchEssential runs the essential read for plan and returns the exact
// top k when the bound proves it; ok false means: read the full union.
func (ix *Index) searchEssential(ctx context.Context, v Vocabulary, qterms []string, plan []msTerm, filter string, k int) (hits []backend.Hit, ok bool, err error) {
	var terms []string
	var weights []float64
	for _, t := range plan {
		if t.essential {
			terms = append(terms, t.term)
			weights = append(weights, t.weight)
		}
	}
	depth := maxScoreFactor * candidateDepth(k)
	ids, scores, all, err := ix.readScored(ctx, textQuery(terms, filter, weights), "DISMAX", depth)
	if err != nil {
		return nil, false, err
	}
	cands, err := ix.loadTerms(ctx, ids)
	if err != nil {
		return nil, false, err
	}
	if !maxScoreConsistent(plan, cands, scores) {
		return nil, false, nil
	}
	cut := 0.0
	if !all && len(scores) > 0 {
		cut = scores[len(scores)-1]
	}
	hits = rescore(v, ix.m.BM25, qterms, cands, k)
	if len(hits) < k {
		return nil, false, nil // a chunk holding only dropped terms could rank
	}
	q := backend.NewBM25Query(v, ix.m.BM25, qterms)
	if maxScoreBound(q, ix.m.BM25, v.AvgLen(), plan, cut) >= hits[k-1].Score {
		return nil, false, nil
	}
	return hits, true, nil
}

// readScored is one FT.SEARCH of query with scorer, the first n chunks
// with their scores; all reports whether they are every match.
func (ix *Index) readScored(ctx context.Context, query, scorer string, n int) (ids []string, scores []float64, all bool, err error) {
	raw, err := ix.rdb.Do(ctx, "FT.SEARCH", ix.vn, query, "NOCONTENT", "VERBATIM", "WITHSCORES", "SCORER", scorer,
		"LIMIT", 0, n, "DIALECT", 2).Slice()
	if err != nil {
		return nil, nil, false, err
	}
	total, ids, scores, err := parseScored(raw, chunkPrefix(ix.vn))
	if err != nil {
		return nil, nil, false, err
	}
	return ids, scores, int64(len(ids)) >= total, nil
}

// loadTerms returns the candidates' analyzed terms: from the chunk cache,
// else only their content field (one pipeline), which is all the exact
// re-scoring reads; nothing else of a chunk is loaded or cached.
func (ix *Index) loadTerms(ctx context.Context, ids []string) ([]candidate, error) {
	out := make([]candidate, len(ids))
	var miss []int
	for i, id := range ids {
		out[i].id = id
		if c := ix.cache.get(id); c != nil {
			out[i].terms = c.terms
		} else {
			miss = append(miss, i)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	pipe := ix.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(miss))
	for j, i := range miss {
		cmds[j] = pipe.HGet(ctx, chunkPrefix(ix.vn)+ids[i], fieldContent)
	}
	if _, err := pipe.Exec(ctx); err != nil && err != redis.Nil {
		return nil, ix.redisErr("redisearch.SearchText", err)
	}
	for j, i := range miss {
		out[i].terms = unescapeTerms(cmds[j].Val())
	}
	return out, nil
}
