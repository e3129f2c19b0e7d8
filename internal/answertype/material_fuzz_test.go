package answertype

import "testing"

// FuzzMaterial (rv44): round 44's readers — MaterialQuestion, SpeedFrame,
// Compared, and FindMaterial and Question.Find for a material (an
// instrument's "with" phrase too) — read any question or sentence (empty,
// punctuation only, a word before a possessive at the end, non-ASCII,
// very long) without a panic, a material question's type being Material.
func FuzzMaterial(f *testing.F) {
	for _, s := range []string{"", "?", "'s", "what", "what with", "what made", "what kind of", "made of",
		"how fast do the blades spin on the Pro blender at full whack?", "the X200's", "spin", "do spin", "how spin the",
		"which agreement runs out first, A or B?", "is it more", "more powerful", "What's the X200’s jug made of, glass or plastic?",
		"Descale it with a", "with", "a Tritan", "A Tritan jar", "a 2-litre Tritan jar and Ü", "¿Qué es? 日本語 ÄÖÜ spins",
		"what should I descale the K50 with?", "how fast will the X200's blades spin at top", "fast spin on of in for with at"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if q, ok := MaterialQuestion(s); ok {
			if q.Type != Material {
				t.Errorf("MaterialQuestion(%q) = %v", s, q)
			}
			q.Find(s)
		}
		SpeedFrame(s)
		if q, ok := Compared(s); ok {
			q.Find(s)
		}
		FindMaterial(s)
		Question{Type: Material, Unit: Instrument}.Find(s)
		Find(Material, s)
	})
}
