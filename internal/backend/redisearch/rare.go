package redisearch

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// rareRule splits a query's terms into rare ones, whose postings
// RediSearch reads (the candidates are the visible chunks holding one of
// them), and common ones, which only add to the BM25STD score of a
// candidate that holds them (RediSearch's optional operator `~`: an
// OPTIONAL iterator that is skipped to each candidate, never read
// through). RediSearch 2.10 has no dynamic pruning, so a union of every
// term reads and scores every chunk holding any of them; at 500,000
// chunks a claim's two or three commonest terms are most of that work
// (docs/log/performance-scale.md, "RediSearch at 500k: where a bm25 search's
// time goes").
//
// The split is approximate: a chunk that holds only common terms is never
// a candidate. The common terms are therefore the commonest ones only
// while they carry a small share of the query's weight: a term is common
// when more than DFShare of the visible chunks hold it and the common
// terms together carry at most MassShare of the query's Σ m·idf² (bleve's
// BM25 weighs a term by its visible idf², once per occurrence in the
// query; coord further lowers a chunk that holds few of the terms). At
// least one term stays rare, and a query of fewer than MinTerms terms is
// sent whole. The rule depends only on the visible document frequencies,
// never on a query's results; its agreement with exact scoring is
// measured in docs/log/performance-scale.md ("RediSearch: rare terms match,
// common terms only score").
type rareRule struct {
	On        bool
	DFShare   float64
	MassShare float64
	MinTerms  int
	MinDF     int
	// Deeper multiplies the candidates' depth of a split query (see
	// splitDepth).
	Deeper float64
	// Unscored leaves the common terms out of the query altogether (a
	// measured alternative, off by default): the candidates are then
	// ordered by their rare terms only.
	Unscored bool
	// OptShare, when positive, puts every common term's optional clause
	// on the branches of the rarest terms only: rising visible df, while
	// those terms' visible dfs add up to at most OptShare of the visible
	// chunks (the rarest term's branch always has them); the other
	// branches carry the clauses of the OptKeep heaviest common terms
	// only. Every optional clause is skipped to each posting of its
	// branch's rare term, so the branches of the commoner rare terms were
	// most of a split query's time; without any clause there, a chunk
	// whose best terms are such a term and common ones was lost from the
	// candidates (top-10 agreement 0.91-0.95 at 500,000 chunks), with the
	// two heaviest it was not (docs/log/performance-scale.md, "Round 8").
	// Zero: every branch carries every clause.
	OptShare float64
	// OptKeep: see OptShare.
	OptKeep int
}

// query is the split query of terms under r (rareQuery; without the
// common terms when r.Unscored).
func (r rareRule) query(terms []string, weights, mass []float64, vdf []int, n int, common []bool, filter string) string {
	if !r.Unscored {
		return rareQuery(terms, weights, common, r.scored(vdf, n, common), r.kept(mass, common), filter)
	}
	var rt []string
	var rw []float64
	for i, t := range terms {
		if !common[i] {
			rt = append(rt, t)
			if i < len(weights) {
				rw = append(rw, weights[i])
			}
		}
	}
	return textQuery(rt, filter, rw)
}

// splitDepth is how many candidates a split query reads for depth:
// depth × Deeper (at least depth), rounded up.
func (r rareRule) splitDepth(depth int) int {
	return int(math.Ceil(float64(depth) * max(1, r.Deeper)))
}

// String names the rule for diagnostics.
func (r rareRule) String() string {
	if !r.On {
		return "exact"
	}
	s := "df>" + strconv.FormatFloat(r.DFShare, 'g', -1, 64) + ",mass<=" + strconv.FormatFloat(r.MassShare, 'g', -1, 64) +
		",min" + strconv.Itoa(r.MinTerms) + ",df>=" + strconv.Itoa(r.MinDF) + ",x" + strconv.FormatFloat(max(1, r.Deeper), 'g', -1, 64)
	if r.Unscored {
		s += ",unscored"
	}
	if r.OptShare > 0 {
		s += ",opt<=" + strconv.FormatFloat(r.OptShare, 'g', -1, 64) + ",keep" + strconv.Itoa(r.OptKeep)
	}
	return s
}

// kept returns which common terms keep their optional clauses on the
// branches scored leaves out: the OptKeep heaviest by mass (m·idf² over
// the visible chunks, as split weighs them; not by $weight, whose divisor
// counts hidden chunks), ties by position; nil: none.
func (r rareRule) kept(mass []float64, common []bool) []bool {
	if r.OptKeep <= 0 || r.OptShare <= 0 {
		return nil
	}
	var order []int
	for i := range common {
		if common[i] && i < len(mass) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(mass[b], mass[a]) })
	out := make([]bool, len(common))
	for _, i := range order[:min(len(order), r.OptKeep)] {
		out[i] = true
	}
	return out
}

// scored returns which rare terms' branches carry the optional clauses
// of the common terms under r (see OptShare), for terms held by vdf[i]
// of the n visible chunks; nil means every branch.
func (r rareRule) scored(vdf []int, n int, common []bool) []bool {
	if r.OptShare <= 0 {
		return nil
	}
	var order []int
	for i := range vdf {
		if !common[i] {
			order = append(order, i)
		}
	}
	// Rarest first; ties by position, so the choice is deterministic.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vdf[a], vdf[b]) })
	out := make([]bool, len(vdf))
	sum := 0
	for j, i := range order {
		if j > 0 && float64(sum+vdf[i]) > r.OptShare*float64(n) {
			break
		}
		sum += vdf[i]
		out[i] = true
	}
	return out
}

// split returns whether each term is common (true) under r, for terms
// held by vdf[i] of the n visible chunks and weighing mass[i] (m·idf²).
// nil means no term is common: send the query whole.
func (r rareRule) split(vdf []int, mass []float64, n int) []bool {
	if !r.On || len(vdf) < max(r.MinTerms, 2) || n <= 0 {
		return nil
	}
	var total float64
	for _, m := range mass {
		total += m
	}
	order := make([]int, len(vdf))
	for i := range order {
		order[i] = i
	}
	// Commonest first; ties by position, so the split is deterministic.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vdf[b], vdf[a]) })
	common := make([]bool, len(vdf))
	var mc float64
	nc := 0
	for _, i := range order[:len(order)-1] { // the rarest term always stays rare
		if float64(vdf[i]) <= r.DFShare*float64(n) || vdf[i] < r.MinDF || mc+mass[i] > r.MassShare*total {
			break
		}
		mc += mass[i]
		common[i] = true
		nc++
	}
	if nc == 0 {
		return nil
	}
	return common
}

// rareQuery is the BM25 leg's query when some terms are common: one
// branch per rare term, as textQuery writes them (the term intersected
// with the filter), each also intersected with one optional clause per
// common term, `(~@content:c)=>{$weight: w}` (when scored is not nil,
// the branches of the rare terms i with scored[i]; the others carry the
// clauses of the common terms j with kept[j] only, kept may be nil):
//
//	((@content:r1)=>{$weight: w1} F (~@content:c1)=>{$weight: w} ...) | ((@content:r2)=>... F ...) | ...
//
// The union stays the top node, read in full: RediSearch 2.10 scores a
// union inside an intersection, `(r1 | r2) ~c1`, with only one of its
// terms for some chunks (measured: a chunk holding perinat and mortal
// scored without mortal), as textQuery's comment says of a union skipped
// through by a filter. A chunk holding several rare terms counts each
// common term once per such branch; BM25STD's order is only the
// candidates' (the worker re-scores them exactly), and a chunk holding
// more of the query ranks higher under coord too. The filter is not
// repeated on the optional clauses: they never add a chunk. (The weight
// must be on the OPTIONAL node: RediSearch 2.10 ignores one on the term
// inside `~`.)
func rareQuery(terms []string, weights []float64, common, scored, kept []bool, filter string) string {
	var opt, lite strings.Builder
	for i, t := range terms {
		if !common[i] {
			continue
		}
		c := " (~@" + fieldContent + ":" + Escape(t) + ")"
		if i < len(weights) {
			c += "=>{$weight: " + strconv.FormatFloat(weights[i], 'g', 6, 64) + "}"
		}
		opt.WriteString(c)
		if kept != nil && kept[i] {
			lite.WriteString(c)
		}
	}
	if filter != "" {
		filter = " (" + filter + ")=>{$weight: 0}"
	}
	var b strings.Builder
	first := true
	for i, t := range terms {
		if common[i] {
			continue
		}
		if !first {
			b.WriteString(" | ")
		}
		first = false
		// The rare term's weight is on the term, not on the branch: a
		// branch's weight would scale its optional clauses too.
		b.WriteString("((@" + fieldContent + ":" + Escape(t) + ")")
		if i < len(weights) {
			b.WriteString("=>{$weight: " + strconv.FormatFloat(weights[i], 'g', 6, 64) + "}")
		}
		b.WriteString(filter)
		if scored == nil || scored[i] {
			b.WriteString(opt.String())
		} else {
			b.WriteString(lite.String())
		}
		b.WriteString(")")
	}
	return b.String()
}

// defaultRare is the rule an Index opens with (index.exact_candidates
// turns it off): in a query of at least 4 terms, a term is common when
// more than 1% and at least 1,000 of the caller's visible chunks hold it,
// the commonest first while the common terms carry at most 35% of the
// query's Σ m·idf²; a split query reads 1.6 times the candidates (twice
// until round 37, docs/log/round-37-p37-split.md: for the end-to-end
// benchmark's 300 questions at 500,000 chunks, as `public`, its top 10
// agree 0.998 with twice's, its top 100 0.976, and Redis's time a
// question fell 0.6 ms end to end (the mean of 7 alternated pairs): the candidates' heap and content are
// per candidate, about a sixth of the split query's time). The mass
// share was 30% until round 35 (docs/log/round-35-p35-search.md): at
// 500,000 chunks the rare terms' postings are most of the split query's
// Redis time (the union of their branches alone, counted without
// scoring, 9 of its 15 ms for the end-to-end benchmark's `public`
// questions), and a larger share reads fewer of them. Top-10 agreement
// with exhaustive exact scoring, SciFact's test claims at 500,000 chunks
// (public / all): 0.998 / 0.995 at 30%, 0.995 / 0.994 at 35%, 0.992 /
// 0.992 at 40%; on TestRareTermsAgreeWithExactScoring's Zipf corpus 40%
// fell below 0.99 (0.985 for public) and 35% did not. The shares
// were chosen on SciFact's train claims at 50,000 and 500,000 chunks and
// on a generated Zipf corpus (TestRareTermsAgreeWithExactScoring, where
// half the weight lost 1.25% of the top 10), checked on SciFact's test
// claims (docs/log/performance-scale.md, "RediSearch: rare terms match,
// common terms only score"); the df share was 5% until the 500k train
// claims showed 1% as close to a deep exact read for a quarter less time
// ("Round 6: RediSearch latency at 500k"). TestRareRuleAgreement
// measures any other rule.
//
// The common terms' optional clauses go on every branch only for the
// rarest rare terms (their visible dfs adding up to at most 0.5% of the
// visible chunks); the other branches carry the three heaviest common
// terms' clauses: at 500,000 chunks a fifth to a third less of the
// FT.SEARCH's time (an A/B of the 300 SciFact test claims), for top-10
// agreement with a deep exact read of 0.994 / 0.996 / 1.000 (all /
// public / team-07, SciFact test claims; 0.995 / 0.998 / 1.000 with
// every clause on every branch) ("Round 8").
var defaultRare = rareRule{On: true, DFShare: 0.01, MassShare: 0.35, MinTerms: 4, MinDF: 1000, Deeper: 1.6, OptShare: 0.005, OptKeep: 3}
