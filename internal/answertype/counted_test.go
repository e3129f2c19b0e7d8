package answertype

import (
	"fmt"
	"testing"
)

func TestCountedPhrase(t *testing.T) {
	for q, want := range map[string]string{
		"How many different speed settings do I get on the X300 Pro?": "[different speed settings]",
		"how many speed settings has the x200 got":                    "[speed settings]",
		"How many different speed settings are there on the X200?":    "[different speed settings]",
		"I run a cafe. How many error codes can an X200 show?":        "[error codes]",
		"how many working days until my repair comes back":            "[working days]",
		"How long does delivery take?":                                "[]",
	} {
		if got := fmt.Sprint(CountedPhrase(q)); got != want {
			t.Errorf("CountedPhrase(%q) = %s, want %s", q, got, want)
		}
	}
}
