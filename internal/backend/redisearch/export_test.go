package redisearch

// SetOverFetch sets the BM25 over-fetch factor for a
// measurement and returns the previous one.
func SetOverFetch(n int) int {
	old := overFetch
	overFetch = n
	return old
}

// SetMaxPostings sets how many postings Holdings reads before it counts
// combinations instead, and returns the previous bound.
func SetMaxPostings(n int) int {
	old := maxPostings
	maxPostings = n
	return old
}

// SetKeepCounts sets whether Holdings keeps the engine's counts of
// combinations for later questions, and returns the previous setting.
func SetKeepCounts(on bool) bool {
	old := keepCounts
	keepCounts = on
	return old
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
	old := tieMargin
	tieMargin = n
	return old
}

// SetMaxScore turns the essential read on or off and sets the share of
// visible chunks and the count above which a query term is left out of
// it, and its depth factor; it returns a function that restores them.
func SetMaxScore(on bool, share float64, minDF, factor int) (restore func()) {
	o, s, m, f := maxScoreOn, maxScoreShare, maxScoreMinDF, maxScoreFactor
	maxScoreOn, maxScoreShare, maxScoreMinDF, maxScoreFactor = on, share, minDF, factor
	return func() { maxScoreOn, maxScoreShare, maxScoreMinDF, maxScoreFactor = o, s, m, f }
}

// MaxScoreCounts returns how many BM25 searches made the essential read
// and how many kept its answer.
func (ix *Index) MaxScoreCounts() (tried, accepted int64) {
	return ix.msTried.Load(), ix.msAccepted.Load()
}

// SetCountCombos sets whether Holdings counts the combinations of common
// terms (the path before existence checks) and returns the previous
// setting.
func SetCountCombos(on bool) bool {
	old := countCombos
	countCombos = on
	return old
}

// SetMaxScoreImpacts sets whether MaxScore's bound reads the impact
// table, and returns the previous setting.
func SetMaxScoreImpacts(on bool) bool {
	old := maxScoreImpacts
	maxScoreImpacts = on
	return old
}
