package assess

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// edited is w with n random edits of those distance counts (insertion,
// deletion, substitution, transposition of neighbours), from alphabet.
func edited(r *rand.Rand, w string, n int, alphabet []rune) string {
	rs := []rune(w)
	for range n {
		p := r.IntN(len(rs) + 1)
		switch c := alphabet[r.IntN(len(alphabet))]; r.IntN(4) {
		case 0:
			rs = append(rs[:p], append([]rune{c}, rs[p:]...)...)
		case 1:
			if p < len(rs) {
				rs = append(rs[:p], rs[p+1:]...)
			}
		case 2:
			if p < len(rs) {
				rs[p] = c
			}
		default:
			if p+1 < len(rs) {
				rs[p], rs[p+1] = rs[p+1], rs[p]
			}
		}
	}
	return string(rs)
}

// Words within d edits of each other have letter sets that differ in at
// most 2d bits, so correct's letterSet test skips only index terms the
// distance would have ruled out: its corrections are those of measuring
// every term. Pairs one to three random edits apart, from an alphabet
// with runes that share a bit ('a' and '!', 'é' and 'i'), and from
// SciFact's index terms when the data is there.
func TestLetterSetBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	check := func(a, b string) {
		t.Helper()
		d := distance(a, b, 3)
		if d > 3 {
			return
		}
		if got := bits.OnesCount64(letterSet(a) ^ letterSet(b)); got > 2*d {
			t.Fatalf("%q and %q are %d edits apart, their letter sets differ in %d bits (> %d)", a, b, d, got, 2*d)
		}
	}
	alphabet := []rune("abcdexyz!éi日-0")
	near := 0
	for range 200000 {
		n := r.IntN(10)
		w := make([]rune, n)
		for i := range w {
			w[i] = alphabet[r.IntN(len(alphabet))]
		}
		a := string(w)
		b := edited(r, a, 1+r.IntN(3), alphabet)
		if distance(a, b, 3) <= 3 {
			near++
		}
		check(a, b)
	}
	if near < 100000 {
		t.Fatalf("only %d of the pairs were within 3 edits", near)
	}
	if testing.Short() {
		return
	}
	lower := []rune("abcdefghijklmnopqrstuvwxyz")
	an := terms.NewUncached()
	seen := map[string]bool{}
	for _, d := range sciFactDocs(t, 1000) {
		for _, tm := range an.Terms(d.Title + "\n" + d.Text) {
			if seen[tm] {
				continue
			}
			seen[tm] = true
			for range 3 {
				check(tm, edited(r, tm, 1+r.IntN(2), lower))
			}
		}
	}
}
