package redisearch

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

// TestRareKeptIgnoresHiddenChunks (rv8): which common terms keep their
// optional clauses on the commoner rare terms' branches (rareRule.kept)
// must depend only on what the caller may see, as split and scored do.
// kept ranks by $weight, m·idf_visible²/idf_index, whose divisor counts
// hidden chunks: the same visible statistics with hidden chunks holding
// one common term give another split query, so another candidate set.
func TestRareKeptIgnoresHiddenChunks(t *testing.T) {
	terms := []string{"rarea", "rareb", "comc", "comd", "come", "comf"}
	vdf := []int{100, 900, 5000, 6000, 7000, 8000}
	common := []bool{false, false, true, true, true, true}
	const n = 100000 // visible chunks, the same in both indexes
	lite := func(whole []int, chunks int) []string {
		var weights, mass []float64
		for i := range terms { // as queryTerms weighs them, every term once
			vi := backend.IDF(n, vdf[i])
			weights = append(weights, vi*vi/backend.IDF(chunks, whole[i]))
			mass = append(mass, vi*vi)
		}
		q := defaultRare.query(terms, weights, mass, vdf, n, common, "")
		branches := strings.Split(q, " | ")
		if len(branches) != 2 {
			t.Fatalf("query %q: want two branches", q)
		}
		var out []string
		for _, m := range regexp.MustCompile(`~@content:(\w+)`).FindAllStringSubmatch(branches[1], -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	// No hidden chunk holds a term; then 90,000 hidden chunks hold "comf".
	a := lite(vdf, 200000)
	b := lite([]int{100, 900, 5000, 6000, 7000, 98000}, 200000)
	if !slices.Equal(a, b) {
		t.Errorf("the commoner rare term's branch keeps %v without the hidden chunks, %v with them", a, b)
	}
}
