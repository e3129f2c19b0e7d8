package redisearch

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
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

// TestMaxClauseTF: the closed form of the most a term held at most cap
// times gives (maxClauseTF) is the brute-force maximum over tf ≤ cap of
// the clause at length tf, the shortest chunk that holds it tf times.
func TestMaxClauseTF(t *testing.T) {
	for _, p := range []backend.BM25{{K1: 10, B: 0.4}, {K1: 1.2, B: 0.75}, {K1: 0.9, B: 0.4}, {K1: 1.2, B: 0}, {K1: 1.2, B: 1}} {
		for _, avg := range []float64{0, 1, 7.5, 150} {
			for _, capTF := range []float64{1, 2, 3, 10, 57, 200, 5000} {
				var want float64
				for tf := 1.0; tf <= capTF; tf++ {
					s := math.Sqrt(tf)
					ln := 1.0
					if avg > 0 {
						ln = 1 - p.B + p.B*tf/avg
					}
					want = math.Max(want, s*p.K1/(s+p.K1*ln))
				}
				if got := maxClauseTF(p, avg, capTF); math.Abs(got-want) > 1e-12 {
					t.Errorf("k1 %v b %v avg %v cap %v: %v, brute force %v", p.K1, p.B, avg, capTF, got, want)
				}
			}
		}
	}
}
