package assess

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// distanceFresh is distance as it was before editDistance: every buffer
// made for the call.
func distanceFresh(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// One editDistance measuring many pairs of every length, in any order,
// gives what distance with buffers of its own gave.
func TestEditDistanceReused(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("abcé日")
	word := func() string {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	var ed editDistance
	for range 20000 {
		a, b, max := word(), word(), 1+r.IntN(3)
		want := distanceFresh(a, b, max)
		if got := ed.distance([]rune(a), b, max); got != want {
			t.Fatalf("reused distance(%q, %q, %d) = %d, want %d", a, b, max, got, want)
		}
		if got := distance(a, b, max); got != want {
			t.Fatalf("distance(%q, %q, %d) = %d, want %d", a, b, max, got, want)
		}
	}
}

// BenchmarkSpell: a question with one unknown word, corrected against an
// index of 20,000 terms (correct measures it against every term of a
// similar length).
func BenchmarkSpell(b *testing.B) {
	an := terms.New()
	r := rand.New(rand.NewPCG(3, 4))
	var texts []string
	for range 2000 {
		var words []string
		for range 10 {
			n := 4 + r.IntN(8)
			w := make([]byte, n)
			for i := range w {
				w[i] = byte('a' + r.IntN(26))
			}
			words = append(words, string(w))
		}
		texts = append(texts, strings.Join(words, " "))
	}
	lex := newLexicon(an, texts...)
	rw := NewRewriter(an, lex)
	vocab := lex.Visible([]string{"public"})
	q := fmt.Sprintf("what does %sx mean for the kettle", strings.Fields(texts[0])[0])
	for b.Loop() {
		rw.Spell(context.Background(), q, vocab, nil, wire.Filters{})
	}
}
