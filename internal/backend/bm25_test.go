package backend

import (
	"math"
	"testing"
)

// TestIDF pins BM25's idf, which every scorer, coverage, the reranker and
// the IDF-weighted embedder share: values worked out by hand from
// ln(1 + (n − df + 0.5)/(df + 0.5)).
func TestIDF(t *testing.T) {
	for _, c := range []struct {
		n, df int
		want  float64
	}{
		{1, 1, math.Log(4.0 / 3)},        // 1 + 0.5/1.5
		{10, 1, math.Log(1 + 9.5/1.5)},   // 22/3
		{10, 10, math.Log(1 + 0.5/10.5)}, // every chunk holds it
		{10, 0, math.Log(22)},            // no chunk holds it: 1 + 10.5/0.5
		{0, 0, math.Log(2)},              // no chunks
		{1000, 3, math.Log(1 + 997.5/3.5)},
	} {
		if got := IDF(c.n, c.df); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("IDF(%d, %d) = %v, want %v", c.n, c.df, got, c.want)
		}
	}
	// Rarer weighs more; never negative, even when every chunk holds it.
	if IDF(100, 1) <= IDF(100, 2) || IDF(100, 100) <= 0 {
		t.Error("IDF must fall with df and stay positive")
	}
}

// TestLenNorm pins BM25's length normalisation, which BM25Query and
// package postings share.
func TestLenNorm(t *testing.T) {
	p := BM25{K1: 10, B: 0.4}
	for _, c := range []struct{ length, avg, want float64 }{
		{10, 10, 1},
		{20, 10, 0.6 + 0.8},
		{5, 10, 0.6 + 0.2},
		{0, 10, 0.6},
		{7, 0, 1}, // no chunks: no normalisation
	} {
		if got := p.LenNorm(c.length, c.avg); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("LenNorm(%v, %v) = %v, want %v", c.length, c.avg, got, c.want)
		}
	}
	if got := (BM25{K1: 1, B: 0}).LenNorm(50, 10); got != 1 {
		t.Errorf("b 0 must turn length normalisation off, got %v", got)
	}
}
