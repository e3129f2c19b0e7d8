package redisearch

import (
	"math/rand/v2"
	"slices"
	"strconv"
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

// TestCountContentIsCountTerms: counting a query's terms in the content
// field as Redis returns it gives what counting them in its unescaped
// terms gives (the length and every term's frequency), over generated
// fields with escapes, spaces escaped and repeated, terms of every
// length, and queries that repeat a term.
func TestCountContentIsCountTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	words := []string{"il-6", "t cell", `back\slash`, "protein", "cell", "ünïcode", "a", strings.Repeat("x", 70), strings.Repeat("x", 63), "", "x", "express", "6"}
	for range 2000 {
		var ts []string
		for range r.IntN(40) {
			if w := words[r.IntN(len(words))]; w != "" {
				ts = append(ts, w)
			}
		}
		s := escapeTerms(ts)
		if r.IntN(4) == 0 { // extra spaces, as unescapeTerms tolerates
			s = "  " + strings.ReplaceAll(s, " ", "   ") + " "
		}
		var query []string
		for range 1 + r.IntN(6) {
			query = append(query, words[r.IntN(len(words))])
		}
		want := newTermCounter(query)
		wn := want.countTerms(unescapeTerms(s))
		got := newTermCounter(query)
		gn := got.countContent(s)
		if gn != wn || !slices.Equal(got.tf, want.tf) {
			t.Fatalf("field %q, query %q: countContent %d %v, countTerms %d %v", s, query, gn, got.tf, wn, want.tf)
		}
		// And rescore gives the same hits either way.
		v := fixedStats{n: 1000, avg: 12, df: map[string]int{"cell": 300, "protein": 40, "il-6": 5}}
		p := backend.BM25{K1: 10, B: 0.4}
		byTerms := rescore(v, p, query, []candidate{{id: "a", terms: unescapeTerms(s)}, {id: "b", terms: ts}}, 10)
		byContent := rescore(v, p, query, []candidate{{id: "a", content: s}, {id: "b", content: escapeTerms(ts)}}, 10)
		if !slices.Equal(byTerms, byContent) {
			t.Fatalf("field %q, query %q: rescore from terms %v, from content %v", s, query, byTerms, byContent)
		}
	}
}

// fixedStats are BM25 statistics for rescore's tests.
type fixedStats struct {
	n   int
	avg float64
	df  map[string]int
}

func (s fixedStats) DocFreq(t string) int { return s.df[t] }
func (s fixedStats) Len() int             { return s.n }
func (s fixedStats) AvgLen() float64      { return s.avg }

// BenchmarkRescore: the BM25 leg's re-scoring of 300 candidates read
// from Redis (the content field, escaped), as SearchText does for the
// candidates not in the chunk cache.
func BenchmarkRescore(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields("protein express cell il-6 t-cell gene mutat patient risk tumor receptor signal pathway inhibit mice level increas associ diseas treatment")
	contents := make([]string, 300)
	for i := range contents {
		var ts []string
		for range 120 {
			ts = append(ts, vocab[r.IntN(len(vocab))]+strconv.Itoa(r.IntN(8)))
		}
		contents[i] = escapeTerms(ts)
	}
	query := []string{"protein1", "cell2", "il-63", "risk0", "tumor5", "gene7"}
	v := fixedStats{n: 50000, avg: 150, df: map[string]int{"protein1": 3000, "cell2": 9000, "il-63": 40}}
	p := backend.BM25{K1: 10, B: 0.4}
	b.ReportAllocs()
	for b.Loop() {
		cands := make([]candidate, len(contents))
		for i, c := range contents {
			cands[i] = candidate{id: strconv.Itoa(i), content: c} // as candidateTerms leaves them
		}
		rescore(v, p, query, cands, 100)
	}
}
