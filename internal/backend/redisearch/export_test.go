package redisearch

import (
	"context"

	"github.com/assay-rag/assay/internal/backend"
)

// swap sets *p to v and returns what it was: each setter below.
func swap[T any](p *T, v T) T {
	old := *p
	*p = v
	return old
}

// SetOverFetch sets the BM25 over-fetch factor for a
// measurement and returns the previous one.
func SetOverFetch(n int) int {
	return swap(&overFetch, n)
}

// SetMaxPostings sets how many postings Holdings reads before it checks
// which combinations are held instead, and returns the previous bound.
func SetMaxPostings(n int) int {
	return swap(&maxPostings, n)
}

// SetMaxSetTerms sets how many terms' document frequencies a visible
// set made afterwards caches, and returns the previous bound.
func SetMaxSetTerms(n int) int {
	return swap(&maxSetTerms, n)
}

// SetHNSW sets the HNSW graph's M and EF_CONSTRUCTION for later builds
// and the vector leg's EF_RUNTIME, and returns the previous values.
func SetHNSW(m, efConstruction, efRuntime int) (int, int, int) {
	om, oc, or := hnswM, hnswEFConstruction, vectorEF
	hnswM, hnswEFConstruction, vectorEF = m, efConstruction, efRuntime
	return om, oc, or
}

// SetTieMargin sets how many chunks past the depth the BM25 leg's read
// asks for, and returns the previous margin.
func SetTieMargin(n int) int {
	return swap(&tieMargin, n)
}

// SetHNSWType sets the HNSW vectors' element type for later builds and
// returns the previous one.
func SetHNSWType(typ string) string {
	return swap(&hnswType, typ)
}

// SetRareRule sets the BM25 leg's rare-term rule for indexes opened
// afterwards (on: common terms only score; see rare.go) and returns a
// function that restores the previous rule.
func SetRareRule(on bool, dfShare, massShare float64, minTerms, minDF int, deeper float64, optShare float64, optKeep int) func() {
	old := defaultRare
	defaultRare = rareRule{On: on, DFShare: dfShare, MassShare: massShare, MinTerms: minTerms, MinDF: minDF, Deeper: deeper, OptShare: optShare, OptKeep: optKeep}
	return func() { defaultRare = old }
}

// RareSplits reports whether the index's rule sends text, searched by a
// principal of groups, as rare terms with common ones only scoring.
func (ix *Index) RareSplits(ctx context.Context, text string, groups []string) (bool, error) {
	qt, v, err := ix.weigh(ctx, ix.an.Terms(text), groups)
	if err != nil {
		return false, err
	}
	return ix.rare.split(qt.vdf, qt.mass, v.s.n) != nil, nil
}

// RareCandidates sends the rare-term form of terms (common[i]: the term
// only scores; scored[i]: rare term i's branch has the common terms'
// optional clauses, nil: every branch), filtered to groups, and returns
// the candidates' ids, their BM25STD scores in read order and the number
// of chunks matched.
func (ix *Index) RareCandidates(ctx context.Context, terms []string, common, scored []bool, groups []string, depth int) ([]string, []float64, int64, error) {
	weights := make([]float64, len(terms))
	for i := range weights {
		weights[i] = 1
	}
	return ix.scoredCandidates(ctx, rareQuery(terms, weights, common, scored, nil, FilterQuery(backend.Filter{Groups: groups})), depth)
}

func (ix *Index) scoredCandidates(ctx context.Context, q string, depth int) ([]string, []float64, int64, error) {
	raw, err := ix.rdb.Do(ctx, "FT.SEARCH", ix.vn, q, "NOCONTENT", "VERBATIM", "WITHSCORES", "SCORER", "BM25STD",
		"LIMIT", 0, depth, "DIALECT", 2).Slice()
	if err != nil {
		return nil, nil, 0, err
	}
	total, ids, scores, err := parseScored(raw, chunkPrefix(ix.vn))
	return ids, scores, total, err
}

// RareScored returns which rare terms' branches carry the optional
// clauses under the rule with OptShare share (rareRule.scored).
func RareScored(share float64, vdf []int, n int, common []bool) []bool {
	return rareRule{OptShare: share}.scored(vdf, n, common)
}

// RareKept returns which common terms keep their clauses on the other
// branches under the rule with OptShare share and OptKeep keep.
func RareKept(share float64, keep int, mass []float64, common []bool) []bool {
	return rareRule{OptShare: share, OptKeep: keep}.kept(mass, common)
}

// RareQuery is rareQuery with every weight 1 and no filter.
func RareQuery(terms []string, common, scored, kept []bool) string {
	weights := make([]float64, len(terms))
	for i := range weights {
		weights[i] = 1
	}
	return rareQuery(terms, weights, common, scored, kept, "")
}

// DefaultRareOpt is the shipped rule's OptShare and OptKeep.
var DefaultRareOptShare, DefaultRareOptKeep = defaultRare.OptShare, defaultRare.OptKeep

// DefaultRareDeeper is the shipped rule's Deeper.
var DefaultRareDeeper = defaultRare.Deeper

// DefaultRareMassShare is the shipped rule's MassShare.
var DefaultRareMassShare = defaultRare.MassShare

// SetPostingsScorer sets the scorer of Holdings' postings reads ("": the
// engine's default) and returns the previous one.
func SetPostingsScorer(s string) string {
	return swap(&postingsScorer, s)
}

// SetCheckPostings sets what one of Holdings' existence checks counts
// for, in postings read, when it weighs reading its common terms
// instead (0: never), and returns the previous price.
func SetCheckPostings(n int) int {
	return swap(&checkPostings, n)
}

// SetMaxHoldingCounts sets how many existence checks one Holdings may
// send before it cannot tell, and returns the previous bound.
func SetMaxHoldingCounts(n int) int {
	return swap(&maxHoldingCounts, n)
}

// RedisErr is redisErr: how the Index types a Redis failure.
func (ix *Index) RedisErr(op string, err error) error { return ix.redisErr(op, err) }

// SetReadContent sets whether SearchText's candidates' read returns
// their content field (readContent) and returns the previous setting.
func SetReadContent(on bool) bool {
	return swap(&readContent, on)
}

// SetCheckBatch sets how many existence checks of a level Holdings sends
// in one pipeline before it bounds the next level (checkBatch), and
// returns the previous size.
func SetCheckBatch(n int) int {
	return swap(&checkBatch, n)
}

// SetLearnMasks sets learnMasks and returns the previous value.
func SetLearnMasks(on bool) bool { return swap(&learnMasks, on) }

// SetMatchedTerms sets matchedTerms and returns the previous value.
func SetMatchedTerms(on bool) bool { return swap(&matchedTerms, on) }

// SetSampleRows sets how many chunks' common terms Holdings samples
// before its existence checks (0: none), and returns the previous value.
func SetSampleRows(n int) int { return swap(&sampleRows, n) }

// SetIndexOptions sets FT.CREATE's NOOFFSETS and NOFIELDS for later
// builds and returns the previous settings.
func SetIndexOptions(offsetsOff, fieldsOff bool) (bool, bool) {
	return swap(&noOffsets, offsetsOff), swap(&noFields, fieldsOff)
}

// SetContentSortable sets whether later builds make the content field
// SORTABLE UNF and returns the previous setting.
func SetContentSortable(on bool) bool { return swap(&contentSortable, on) }

// SetFlatGroupMax sets the largest vector group that gets a FLAT index
// instead of a graph (0: none) for later builds, and returns the previous
// bound.
func SetFlatGroupMax(n int) int {
	return swap(&flatGroupMax, n)
}

// SetForesee sets whether Holdings stops its checks once the sets its
// known chunks hold take it past maxHoldingCounts, and returns the
// previous setting.
func SetForesee(on bool) bool { return swap(&foresee, on) }

// SetRareLast sets whether Holdings reads the rare terms' chunks after
// the common terms' checks, and returns the previous setting.
func SetRareLast(on bool) bool { return swap(&rareLast, on) }

// SetForeseeNext sets whether foresee counts the part of the next level
// the checks so far give with the known chunks' sets, and returns the
// previous setting.
func SetForeseeNext(on bool) bool { return swap(&foreseeNext, on) }

// SetMetaSortable sets whether later builds write the meta field and
// keep it SORTABLE (Manifest.MetaSortable), and returns the previous
// setting.
func SetMetaSortable(on bool) bool { return swap(&metaSortable, on) }

// SetMetaReturn sets whether the searches return the meta field of an
// index that has it (metaReturn), and returns the previous setting.
func SetMetaReturn(on bool) bool { return swap(&metaReturn, on) }

// SetHitSortable sets whether later builds write the hit field and keep
// it SORTABLE (Manifest.HitSortable; only with the meta field), and
// returns the previous setting.
func SetHitSortable(on bool) bool { return swap(&hitSortable, on) }

// SetHitReturn sets whether the searches return the hit field of an
// index that has it (hitReturn), and returns the previous setting.
func SetHitReturn(on bool) bool { return swap(&hitReturn, on) }

// KeptHit reports whether the Index keeps HitMeta's fields for id.
func (ix *Index) KeptHit(id string) bool {
	e, ok := ix.cache.prints.Peek(id)
	return ok && e.hit != nil
}

// KeptMeta reports whether the Index keeps metadata for id (from a
// search's reply, or a read), which ChunkMeta answers from.
func (ix *Index) KeptMeta(id string) bool { return ix.cache.prints.Contains(id) }

// ForgetMeta drops the metadata and fingerprints the Index keeps.
func (ix *Index) ForgetMeta() { ix.cache.prints.Purge() }
