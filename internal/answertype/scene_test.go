package answertype

import (
	"slices"
	"strings"
	"testing"
)

// TestScene: the parts of a question that set the scene are the sentences
// with no clause that asks, the clauses before the first that asks, and
// the words before a question word opening a question inside a clause;
// a question every part of which asks, or none does, has no scene.
func TestScene(t *testing.T) {
	for _, tt := range []struct {
		question string
		want     []string
	}{
		{"I bought a Z10. How long is it guaranteed for?", []string{"I bought a Z10."}},
		{"if the lid cracks, is the repair free", []string{"if the lid cracks,"}},
		{"my toaster fell off the shelf and the door cracked. will the guarantee pay for a new one?",
			[]string{"my toaster fell off the shelf and the door cracked."}},
		// a question opening inside a clause, no punctuation before it
		{"if I use my toaster every single morning how often should the crumb tray be emptied",
			[]string{"if I use my toaster every single morning"}},
		{"z20 flashing F3 and wont start what do i do", []string{"z20 flashing F3 and wont start"}},
		// a statement after the question
		{"how often should I clean the Z20? we live in a dusty flat", []string{" we live in a dusty flat"}},
		// several sentences that set the scene, one that asks
		{"The Z20 is new. It came with a card. Where do I register it?", []string{"The Z20 is new.", " It came with a card."}},
		// no scene: every part asks, or none does
		{"how often should I descale the Z20", nil},
		{"what can I use to show when I bought it", nil},
		{"the toaster stopped and felt hot", nil},
		{"Vitamin D lowers the risk of fractures.", nil},
		{"the Z20 is the one with four slots, right? and how many has the Z10 got?", nil},
	} {
		if got := Scene(tt.question); !slices.Equal(got, tt.want) {
			t.Errorf("Scene(%q) = %q, want %q", tt.question, got, tt.want)
		}
	}
}

// TestSceneAsWritten: every part Scene returns stands in the question as
// written, whatever spaces or line breaks separate its words (the
// assessor finds the part by its text): a part read inside a clause kept
// single spaces only, so two spaces or a line break there left the scene
// unread (round 18 review).
func TestSceneAsWritten(t *testing.T) {
	for _, q := range []string{
		"z20 flashing F3 and wont start what do i do",
		"z20  flashing F3 and wont start what do i do",
		"z20 flashing\nF3 and wont start  what do i do",
		"if I use my toaster every single morning\thow often should the crumb tray be emptied",
		"The Z20 is new. It came  with a card and\nit wont start what do i do",
	} {
		got := Scene(q)
		if len(got) == 0 {
			t.Errorf("Scene(%q) = nil, want the scene", q)
		}
		for _, p := range got {
			if !strings.Contains(q, p) {
				t.Errorf("Scene(%q) part %q does not stand in the question", q, p)
			}
		}
		if flat := Scene(strings.Join(strings.Fields(q), " ")); len(flat) != len(got) {
			t.Errorf("Scene(%q) = %q, %d parts; with single spaces %q", q, got, len(got), flat)
		}
	}
}
