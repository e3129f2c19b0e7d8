package generate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestCompareKeepsToMaxSentences (rv8): the merge of m8-gen says "compare
// keeps to MaxSentences", but only a third side is bounded: two sides
// whose deciding facts do not name their entity bring each its naming
// sentence too, four sentences against MaxSentences 3.
func TestCompareKeepsToMaxSentences(t *testing.T) {
	an := terms.New()
	var sides []Source
	for i, w := range []string{"Z1 700", "Z2 800"} {
		name, watts, _ := strings.Cut(w, " ")
		s := src(fmt.Sprint(i+1), strings.ToLower(name)+"-specs", "current", 0.9,
			"The "+name+" is a quiet front-loading washer. Its motor has a "+watts+" W rating.")
		s.Title = name + " specifications"
		sides = append(sides, s)
	}
	g := NewExtractive(an)
	got, err := g.Generate(context.Background(), Request{Question: "Is the Z1's motor stronger than the Z2's?", Sources: sides})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(got.Text, "["); n > g.MaxSentences {
		t.Errorf("%d sentences, MaxSentences %d: %q", n, g.MaxSentences, got.Text)
	}
}
