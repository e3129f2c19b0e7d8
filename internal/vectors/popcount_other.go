//go:build !amd64 || purego

package vectors

// weightedPopcount is Σ_p 2^p·popcount(planes[p]&rec) over 4 bit planes of
// len(rec) words each, laid out back to back in planes.
func weightedPopcount(planes, rec []uint64) int { return weightedPopcountGo(planes, rec) }

// weightedPopcounts sets out[i] to weightedPopcount(planes, code of record
// i) for the len(out) records of recs, each a header word and w code
// words.
func weightedPopcounts(planes, recs []uint64, w int, out []int64) {
	weightedPopcountsEach(planes, recs, w, out)
}

// scan16x4 switches the amd64 four-record kernel; there is none here.
var scan16x4 = true
