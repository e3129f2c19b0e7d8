//go:build !amd64 || purego

package vectors

// weightedPopcount is Σ_p 2^p·popcount(planes[p]&rec) over 4 bit planes of
// len(rec) words each, laid out back to back in planes.
func weightedPopcount(planes, rec []uint64) int { return weightedPopcountGo(planes, rec) }
