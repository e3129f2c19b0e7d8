package generate

import (
	"slices"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// namedPlaces is found, the place expressions answertype finds in text,
// less those v34 does not read as a place (holds, for a question asking
// where): a common word (in lower case: a word of a script with no
// capitals, "東京", is no such word) that the text reaches only by
// "from" or "to" (an address, which the place finder finds whole, is
// never such a word). There it is where something moves from
// or to, or no place at all: a verb ("We aim to repair and return an
// appliance ..."), a sum ("deducted from the repair price"), a lot ("X200
// jars from batch B-2291"); the place a move is to or from is written
// with its name ("moving from Cleckheaton to Wakefield"). The same word
// after another preposition ("printed on the base of the jar") is a
// place, as before.
func namedPlaces(text string, found []string) []string {
	moved, placed := map[string]bool{}, map[string]bool{}
	preps, words := answertype.PlacePhrases(text)
	for i, prep := range preps {
		w := words[i]
		if prep == "from" || prep == "to" {
			moved[w] = true
		} else {
			placed[w] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(found), func(f string) bool {
		rs := []rune(f)
		return len(rs) > 0 && unicode.IsLower(rs[0]) && moved[f] && !placed[f]
	})
}
