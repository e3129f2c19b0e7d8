package generate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestCompareTwoSidesNameTheirEntity: a comparison always answers its
// first two sides, each deciding fact with its source's sentence naming
// the entity when the fact does not ("Its motor has a 700 W rating"), so
// two sides may take four sentences past MaxSentences 3; MaxSentences
// bounds only the sides beyond two (TestExtractiveV9). The review (rv8)
// found the merge message claiming more.
func TestCompareTwoSidesNameTheirEntity(t *testing.T) {
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
	if n := strings.Count(got.Text, "["); n > 4 {
		t.Errorf("%d sentences for two sides, want at most 4: %q", n, got.Text)
	}
	for _, want := range []string{"The Z1 is", "700 W", "The Z2 is", "800 W"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("answer %q lacks %q", got.Text, want)
		}
	}
}
