package redisearch

import (
	"context"
	"math"
	"slices"
	"strconv"
	"time"

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

// maxScoreOn turns the essential read on. Off by default: at 500,000
// chunks the bound proved the essential read's answer for 1 or 2 claims
// in 30, with the impact table as without it (a read cut inside the
// essential terms' postings lets an unread chunk hold all of them, and
// coord multiplies), and a read that falls back costs more than it saves
// (docs/performance-scale.md, "RediSearch: MaxScore on the worker's side"
// and "a tight MaxScore bound from impact data").
var maxScoreOn = false

// maxScoreImpacts: the bound reads the index's (tf, length) frontiers
// (impact.go); off, it has only the visible max tfs (r3-maxscore's bound),
// for measurements.
var maxScoreImpacts = true

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
// returned, 0 when it returned every match; maxTF, when it has a term,
// the most times any visible chunk holds it; imp, when it has a term,
// its (tf, length) frontier over the index (impact.go), which bounds its
// clause at each length by the chunks that really hold it.
func maxScoreBound(q backend.BM25Query, p backend.BM25, avg float64, plan []msTerm, cut float64, maxTF map[string]int, imp map[string]frontier) float64 {
	caps := make([]float64, len(plan))
	a := make([]float64, len(plan)) // m_t·idf_t², queryNorm apart
	fs := make([]frontier, len(plan))
	var perTerm float64
	held := 0
	for i, t := range plan {
		capTF := math.Inf(1)
		if t.essential {
			// A hair over cut/w: the quotient of the engine's product
			// must not round below a tf it holds.
			capTF = math.Floor(cut/t.weight*(1+1e-9) + 1e-9)
		}
		if m, ok := maxTF[t.term]; ok {
			capTF = math.Min(capTF, float64(m))
		}
		g := 0.0
		if f, ok := imp[t.term]; ok {
			fs[i] = f
			var any bool
			if g, any = impactClause(p.K1, p.B, avg, f, capTF, 1, 0); !any {
				capTF = 0 // no chunk holds it within the cap
			}
		}
		caps[i] = capTF
		if capTF < 1 {
			continue
		}
		if fs[i] == nil {
			g = maxClauseTF(p, avg, capTF)
		} else {
			g = math.Min(g, maxClauseTF(p, avg, capTF))
		}
		held += t.mult
		a[i] = float64(t.mult) * t.idf * t.idf
		perTerm += a[i] * g
	}
	best := math.Min(perTerm*float64(held), sharedLength(p, avg, plan, a, caps, fs))
	return best * queryNorm(q) / float64(len(q.Terms))
}

// sharedLength bounds (Σ a_t·g(tf_t, ℓ)) × (Σ m_t over the terms held)
// over every length ℓ ≥ 1 and 1 ≤ tf_t ≤ min(caps_t, ℓ) (terms with
// a_t = 0 left out): the terms of one chunk share its length, so they
// cannot all peak at the length that suits each (the term-by-term
// bound). Over ℓ in [lo, hi] a term gives at most g(min(cap, hi), lo)
// (g rises with tf and falls with ℓ), or with a frontier the most its
// points no longer than hi give at ℓ ≥ lo (none: the term is not held at
// those lengths, and does not count in coord); the intervals grow by 2%
// up to 10⁸ tokens, and past that g(tf, ℓ) ≤ g(ℓ, ℓ) < avg/(b·√ℓ). +Inf
// without length normalisation.
func sharedLength(p backend.BM25, avg float64, plan []msTerm, a, caps []float64, fs []frontier) float64 {
	if p.B <= 0 || avg <= 0 {
		return math.Inf(1)
	}
	const top = 1e8
	var best float64
	for lo := 1.0; lo < top; {
		hi := math.Max(lo+1, math.Ceil(lo*1.02))
		var sum float64
		held := 0
		for i, c := range caps {
			if a[i] <= 0 {
				continue
			}
			if fs[i] != nil {
				g, ok := impactClause(p.K1, p.B, avg, fs[i], c, lo, hi)
				if !ok {
					continue
				}
				sum += a[i] * g
			} else {
				sum += a[i] * clauseG(p.K1, p.B, avg, math.Min(c, hi), lo)
			}
			held += plan[i].mult
		}
		best = math.Max(best, sum*float64(held))
		lo = hi
	}
	var sum float64
	held := 0
	for i := range caps {
		if a[i] > 0 {
			sum += a[i] * math.Min(p.K1, avg/(p.B*math.Sqrt(top)))
			held += plan[i].mult
		}
	}
	return math.Max(best, sum*float64(held))
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
	var tr msTrace
	if maxScoreTrace != nil {
		defer func() { tr.kept = ok; maxScoreTrace(tr) }()
	}
	var terms []string
	var weights []float64
	for _, t := range plan {
		if t.essential {
			terms = append(terms, t.term)
			weights = append(weights, t.weight)
		}
	}
	tr.terms, tr.essential = len(plan), len(terms)
	depth := maxScoreFactor * candidateDepth(k)
	t0 := time.Now()
	ids, scores, all, err := ix.readScored(ctx, textQuery(terms, filter, weights), "DISMAX", depth)
	if err != nil {
		return nil, false, err
	}
	t1 := time.Now()
	cands, err := ix.loadTerms(ctx, ids)
	if err != nil {
		return nil, false, err
	}
	tr.read, tr.all, tr.readTook, tr.loadTook = len(ids), all, t1.Sub(t0), time.Since(t1)
	if !maxScoreConsistent(plan, cands, scores) {
		tr.inconsistent = true
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
	maxTF, err := ix.maxTFs(ctx, v.s, plan)
	if err != nil {
		return nil, false, err
	}
	var imp map[string]frontier
	if maxScoreImpacts {
		if imp, err = ix.impacts(ctx, planTerms(plan)); err != nil {
			return nil, false, err
		}
	}
	q := backend.NewBM25Query(v, ix.m.BM25, qterms)
	tr.bound, tr.kth = maxScoreBound(q, ix.m.BM25, v.AvgLen(), plan, cut, maxTF, imp), hits[k-1].Score
	if maxScoreTrace != nil {
		tr.maxTFBound = maxScoreBound(q, ix.m.BM25, v.AvgLen(), plan, cut, maxTF, nil)
		tr.droppedBound = maxScoreBound(q, ix.m.BM25, v.AvgLen(), plan, 0, maxTF, imp)
	}
	if tr.bound >= tr.kth {
		return nil, false, nil
	}
	return hits, true, nil
}

// planTerms are plan's terms.
func planTerms(plan []msTerm) []string {
	out := make([]string, len(plan))
	for i, t := range plan {
		out[i] = t.term
	}
	return out
}

// maxTFs returns, for the non-essential terms of plan, the most times a
// chunk visible to s holds each: DISMAX with weight 1 scores a chunk by
// the term's frequency, so the first of its matches has the largest (one
// FT.SEARCH each, pipelined, for the terms not cached; it reads the
// term's postings once per worker and visible set).
func (ix *Index) maxTFs(ctx context.Context, s *visibleStats, plan []msTerm) (map[string]int, error) {
	key, _ := setKey(s.groups)
	out := map[string]int{}
	var miss []string
	for _, t := range plan {
		if t.essential {
			continue
		}
		if m, ok := ix.maxTF.Get(key + "\x00\x00" + t.term); ok {
			out[t.term] = m
		} else {
			miss = append(miss, t.term)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	filter := ""
	if !s.all {
		filter = s.filter
	}
	pipe := ix.rdb.Pipeline()
	cmds := make([]*redis.Cmd, len(miss))
	for i, t := range miss {
		cmds[i] = pipe.Do(ctx, "FT.SEARCH", ix.vn, textQuery([]string{t}, filter, nil), "NOCONTENT", "VERBATIM", "WITHSCORES",
			"SCORER", "DISMAX", "LIMIT", 0, 1, "DIALECT", 2)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	for i, t := range miss {
		raw, err := cmds[i].Slice()
		if err != nil {
			return nil, err
		}
		_, _, scores, err := parseScored(raw, "")
		if err != nil {
			return nil, err
		}
		m := 0
		if len(scores) > 0 {
			if math.IsInf(scores[0], 0) || math.IsNaN(scores[0]) {
				continue // unreadable: no cap
			}
			m = int(math.Ceil(scores[0] - 1e-9))
		}
		out[t] = m
		ix.maxTF.Add(key+"\x00\x00"+t, m)
	}
	return out, nil
}

// msTrace is what one essential read did, for the diagnostics.
type msTrace struct {
	terms, essential, read  int
	all, inconsistent, kept bool
	bound, kth              float64
	maxTFBound              float64 // the bound without impacts (r3-maxscore's)
	droppedBound            float64 // the bound were the read exhaustive (cut 0)
	readTook, loadTook      time.Duration
}

// maxScoreTrace, when set (diagnostics only), is called after every
// essential read.
var maxScoreTrace func(msTrace)

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
