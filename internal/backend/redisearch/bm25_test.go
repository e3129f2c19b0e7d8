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

// refCount is the reference countContent is held to: the field split by
// unescapeTerms, each term looked up among the query's distinct terms
// (slots in order of first appearance, as newTermCounter numbers them).
func refCount(query []string, s string) (int, []int) {
	slots := map[string]int{}
	for _, t := range query {
		if _, ok := slots[t]; !ok {
			slots[t] = len(slots)
		}
	}
	tf := make([]int, len(slots))
	terms := unescapeTerms(s)
	for _, t := range terms {
		if j, ok := slots[t]; ok {
			tf[j]++
		}
	}
	return len(terms), tf
}

// refRescore is rescore over split terms, the reference for rescore's
// counting in the escaped field.
func refRescore(v backend.BM25Stats, p backend.BM25, query []string, ids, fields []string, k int) []backend.Hit {
	q := backend.NewBM25Query(v, p, query)
	slot := map[string]int{}
	for _, t := range query {
		if _, ok := slot[t]; !ok {
			slot[t] = len(slot)
		}
	}
	var hits []backend.Hit
	for c, s := range fields {
		dl, tf := refCount(query, s)
		var sum float64
		matched := 0
		for i, t := range query {
			if f := tf[slot[t]]; f > 0 {
				matched++
				sum += q.Clause(i, f, float64(dl))
			}
		}
		if matched > 0 {
			hits = append(hits, backend.Hit{ChunkID: ids[c], Score: q.Score(sum, matched)})
		}
	}
	return backend.SortHits(hits, k)
}

// TestCountContentIsCountTerms: counting a query's terms in the content
// field as Redis returns it, escaped, gives what counting them in its
// unescaped terms gives (the length and every term's frequency), over
// generated fields with escapes, spaces and backslashes escaped and
// repeated, terms of every length (past the longest length bucket too),
// terms that differ only by an escape, and queries that repeat a term.
func TestCountContentIsCountTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	words := []string{"il-6", "il6", "t cell", "t", "cell", `back\slash`, `\`, `\\`, `x\`, ` `, "protein", "ünïcode", "ü", "a",
		strings.Repeat("x", 70), strings.Repeat("x", 63), strings.Repeat("x", 64), strings.Repeat("x", 62) + "-", "", "x", "express", "6", "22.5", "225"}
	for range 5000 {
		var ts []string
		for range r.IntN(40) {
			if w := words[r.IntN(len(words))]; w != "" {
				ts = append(ts, w)
			}
		}
		s := escapeTerms(ts)
		switch r.IntN(6) {
		case 0: // extra spaces, as unescapeTerms tolerates
			s = "  " + strings.ReplaceAll(s, " ", "   ") + " "
		case 1: // a dangling escape, which escapeTerms never writes
			s += `\`
		}
		var query []string
		for range 1 + r.IntN(6) {
			query = append(query, words[r.IntN(len(words))])
		}
		wn, wtf := refCount(query, s)
		got := newTermCounter(query)
		gn := got.countContent(s)
		if gn != wn || !slices.Equal(got.tf, wtf) {
			t.Fatalf("field %q, query %q: countContent %d %v, on split terms %d %v", s, query, gn, got.tf, wn, wtf)
		}
		// And rescore gives the hits of the reference.
		v := fixedStats{n: 1000, avg: 12, df: map[string]int{"cell": 300, "protein": 40, "il-6": 5}}
		p := backend.BM25{K1: 10, B: 0.4}
		fields := []string{s, escapeTerms(ts)}
		want := refRescore(v, p, query, []string{"a", "b"}, fields, 10)
		gotHits := rescore(v, p, query, []candidate{{id: "a", content: s}, {id: "b", content: fields[1]}}, 10)
		if !slices.Equal(gotHits, want) {
			t.Fatalf("field %q, query %q: rescore %v, reference %v", s, query, gotHits, want)
		}
	}
}

// FuzzCountContent: countContent agrees with the reference on the field
// escapeTerms writes of any terms (the fuzzer's field split at NUL).
func FuzzCountContent(f *testing.F) {
	f.Add("il-6 t\x00cell protein", "il-6 protein")
	f.Add("a\\ b  c", "a\\ c")
	f.Fuzz(func(t *testing.T, field, query string) {
		ts := strings.Split(field, "\x00")
		q := strings.Fields(query)
		s := escapeTerms(ts)
		wn, wtf := refCount(q, s)
		c := newTermCounter(q)
		if gn := c.countContent(s); gn != wn || !slices.Equal(c.tf, wtf) {
			t.Fatalf("field %q, query %q: countContent %d %v, reference %d %v", s, q, gn, c.tf, wn, wtf)
		}
	})
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
