package backend

import (
	"hash/fnv"
	"io"
	"math/bits"
)

// Fingerprint is the near-duplicate fingerprint of a chunk whose text
// analyzes to textTerms: a 64-bit SimHash over word 2-shingles, so texts
// that differ in a few words get fingerprints a few bits apart and
// unrelated texts differ in about half their bits. 0 for no text.
func Fingerprint(textTerms []string) uint64 {
	ts := textTerms
	if len(ts) == 0 {
		return 0
	}
	var acc [64]int
	add := func(s string) {
		h := fnv.New64a()
		io.WriteString(h, s)
		x := h.Sum64()
		for i := range acc {
			if x>>i&1 == 1 {
				acc[i]++
			} else {
				acc[i]--
			}
		}
	}
	if len(ts) == 1 {
		add(ts[0])
	}
	for i := 1; i < len(ts); i++ {
		add(ts[i-1] + " " + ts[i])
	}
	var out uint64
	for i, a := range acc {
		if a > 0 {
			out |= 1 << i
		}
	}
	return out
}

// NearDuplicate reports whether two fingerprints mark near-identical texts:
// at most 3 of 64 bits apart. A zero fingerprint (no text) matches nothing.
func NearDuplicate(a, b uint64) bool {
	return a != 0 && b != 0 && bits.OnesCount64(a^b) <= 3
}
