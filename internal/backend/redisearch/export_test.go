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

// SetCountCombos sets whether Holdings counts the combinations of common
// terms (the path before existence checks) and returns the previous
// setting.
func SetCountCombos(on bool) bool {
	old := countCombos
	countCombos = on
	return old
}

// SetHNSWType sets the HNSW vectors' element type for later builds and
// returns the previous one.
func SetHNSWType(typ string) string {
	old := hnswType
	hnswType = typ
	return old
}
