package answertype

import (
	"slices"
	"testing"
)

func TestAskedPhrase(t *testing.T) {
	for _, c := range []struct {
		q    string
		np   []string
		asks bool
	}{
		{"which firmware version should my Z20 be on", []string{"firmware", "version"}, true},
		{"What colour does the light turn once it has paired?", []string{"colour"}, true},
		{"what are the different settings on the Z20", []string{"different", "settings"}, true},
		{"What's the opening time of the shop?", []string{"opening", "time"}, true},
		{"the Z20 shows F3. What does that code indicate?", nil, true},
		{"My Z20 flashes F3 at me. What have I done wrong?", nil, true},
		{"What's wrong with it?", nil, true},
		{"whats causing that grinding noise", nil, true},
		{"what is pyrolysis mode on the Z20 toaster", []string{"pyrolysis", "mode"}, true},
		{"What are pyrolysis cycles on the Z20 toaster?", []string{"pyrolysis", "cycles"}, true},
		{"which is better for the Z20 toaster", nil, true},
		{"what is included in the box", nil, true},
		{"what is cheapest", nil, true},
		{"Which Z10s does the bulletin apply to?", []string{"z10s"}, true},
		{"What sort of faults does the guarantee cover?", []string{"faults"}, true},
		{"which kind of the descalers works best", []string{"descalers", "works", "best"}, true},
		{"how long is the warranty", nil, false},
		{"can I put the jar in the dishwasher", nil, false},
	} {
		np, ok := AskedPhrase(c.q)
		if ok != c.asks || !slices.Equal(np, c.np) {
			t.Errorf("AskedPhrase(%q) = %q, %v; want %q, %v", c.q, np, ok, c.np, c.asks)
		}
	}
}

// TestAskedPhrases: the phrase of every what/which of the clause that
// asks, the first one's first; none past AskedPhrase when the clause does
// not open with what/which.
func TestAskedPhrases(t *testing.T) {
	for _, c := range []struct {
		q    string
		nps  [][]string
		asks bool
	}{
		{"What have I done wrong, and what sort of allergen warning is that?", [][]string{nil, {"allergen", "warning"}}, true},
		{"what does that mean, and which firmware version fixes it", [][]string{nil, {"firmware", "version", "fixes"}}, true},
		{"What colour does the light turn?", [][]string{{"colour"}}, true},
		{"how long is the warranty, and which firmware version fixes it", nil, false},
	} {
		nps, ok := AskedPhrases(c.q)
		if ok != c.asks || !slices.EqualFunc(nps, c.nps, func(a, b []string) bool { return slices.Equal(a, b) }) {
			t.Errorf("AskedPhrases(%q) = %q, %v; want %q, %v", c.q, nps, ok, c.nps, c.asks)
		}
	}
}
