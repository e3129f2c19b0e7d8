package redisearch

// SetOverFetch sets the BM25 over-fetch factor for a
// measurement and returns the previous one.
func SetOverFetch(n int) int {
	old := overFetch
	overFetch = n
	return old
}
