package redisearch

// SetOverFetch sets the BM25 over-fetch factor for a
// measurement and returns the previous one.
func SetOverFetch(n int) int {
	old := overFetch
	overFetch = n
	return old
}

// SetMaxPostings sets how many postings Holdings reads before it checks
// which combinations are held instead, and returns the previous bound.
func SetMaxPostings(n int) int {
	old := maxPostings
	maxPostings = n
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

// SetHNSWType sets the HNSW vectors' element type for later builds and
// returns the previous one.
func SetHNSWType(typ string) string {
	old := hnswType
	hnswType = typ
	return old
}
