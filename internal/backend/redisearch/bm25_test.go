package redisearch

import (
	"slices"
	"strings"
	"testing"
)

func TestUnescapeTerms(t *testing.T) {
	for _, ts := range [][]string{
		nil,
		{"alpha"},
		{"alpha", "beta", "alpha"},
		{"e-mail", "a b", `back\slash`, "ünïcode", "naïve-ℓ", "x"},
	} {
		if got := unescapeTerms(escapeTerms(ts)); !slices.Equal(got, ts) {
			t.Errorf("unescapeTerms(escapeTerms(%q)) = %q", ts, got)
		}
	}
	if got := unescapeTerms("  alpha   beta "); !slices.Equal(got, []string{"alpha", "beta"}) {
		t.Errorf("extra spaces: got %q", got)
	}
}

// A cached chunk holds its terms: they must not cost an allocation each
// (per-term strings were most of a RediSearch worker's heap at 50,000
// chunks, the chunk cache full).
func TestUnescapeTermsAllocations(t *testing.T) {
	plain := strings.Repeat("protein express cell ", 70)
	escaped := strings.Repeat(`il\-6 protein t\-cell express `, 50)
	for name, s := range map[string]string{"plain": plain, "escaped": escaped} {
		allocs := testing.AllocsPerRun(20, func() { unescapeTerms(s) })
		if allocs > 4 {
			t.Errorf("%s: %v allocations for %d terms, want at most 4", name, allocs, len(unescapeTerms(s)))
		}
	}
}

func BenchmarkUnescapeTerms(b *testing.B) {
	s := strings.Repeat(`il\-6 protein t\-cell express `, 50)
	b.ReportAllocs()
	for b.Loop() {
		unescapeTerms(s)
	}
}
