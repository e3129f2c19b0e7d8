package backend

import "math/bits"

// Fingerprint is the near-duplicate fingerprint of a chunk whose text
// analyzes to textTerms: a 64-bit SimHash over word 2-shingles, so texts
// that differ in a few words get fingerprints a few bits apart and
// unrelated texts differ in about half their bits. 0 for no text.
func Fingerprint(textTerms []string) uint64 {
	ts := textTerms
	if len(ts) == 0 {
		return 0
	}
	// A bit is set when more shingle hashes have it set than not; the
	// shingles are hashed (FNV-1a of "a b") without building the strings.
	var ones [64]int32
	n := 0
	add := func(x uint64) {
		for i := range ones {
			ones[i] += int32(x >> i & 1)
		}
		n++
	}
	if len(ts) == 1 {
		add(fnv64a(fnv64aOffset, ts[0]))
	}
	for i := 1; i < len(ts); i++ {
		h := fnv64a(fnv64a(fnv64aOffset, ts[i-1]), " ")
		add(fnv64a(h, ts[i]))
	}
	var out uint64
	for i, c := range ones {
		if 2*int(c) > n {
			out |= 1 << i
		}
	}
	return out
}

const fnv64aOffset = 14695981039346656037

// fnv64a continues the FNV-1a hash h (hash/fnv's New64a) over s.
func fnv64a(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// NearDuplicate reports whether two fingerprints mark near-identical texts:
// at most 3 of 64 bits apart. A zero fingerprint (no text) matches nothing.
func NearDuplicate(a, b uint64) bool {
	return a != 0 && b != 0 && bits.OnesCount64(a^b) <= 3
}
