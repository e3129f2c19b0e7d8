package backend

import (
	"hash/fnv"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// fingerprintReference is Fingerprint as first written (a string and a
// hash/fnv hasher per shingle, ±1 counters), which Fingerprint must match
// bit for bit: fingerprints are stored in indexes.
func fingerprintReference(ts []string) uint64 {
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

func TestFingerprintMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("kettl descal limescal citric acid warranti blender motor x200 repair centr move 2 year é ü")
	cases := [][]string{nil, {}, {"one"}, {"a", "b"}, {"", ""}, {"a b", "c"}}
	for range 2000 {
		ts := make([]string, rng.IntN(300))
		for i := range ts {
			ts[i] = words[rng.IntN(len(words))]
		}
		cases = append(cases, ts)
	}
	for _, ts := range cases {
		if got, want := Fingerprint(ts), fingerprintReference(ts); got != want {
			t.Fatalf("Fingerprint(%q) = %x, want %x", ts, got, want)
		}
	}
}

func BenchmarkFingerprint(b *testing.B) {
	ts := strings.Fields(strings.Repeat("microstructur develop human newborn cerebr white matter assess vivo diffus tensor magnet reson imag ", 12))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Fingerprint(ts)
	}
}
