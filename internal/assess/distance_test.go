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

// osaDistance is the optimal string alignment distance of a and b (edits,
// and swaps of two neighbouring letters), from the whole table: the plain
// definition the bounded, row-reusing editDistance must agree with.
func osaDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// One editDistance measuring many pairs of every length, in any order,
// gives the plain distance when it is at most max and more than max when it
// is not; so does distance, with buffers of its own.
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
		want := osaDistance(a, b)
		agrees := func(got int) bool {
			if want > max {
				return got > max
			}
			return got == want
		}
		if got := ed.distance([]rune(a), b, max); !agrees(got) {
			t.Fatalf("reused distance(%q, %q, %d) = %d, want %d", a, b, max, got, want)
		}
		if got := distance(a, b, max); !agrees(got) {
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
