package answertype

import "strings"

// Enumerates reports whether a sentence lists three or more items
// separated by ", " ("Booked, In workshop, Repaired, then Dispatched";
// "a receipt, an email, or a statement"), each item between the first
// and the last of at most four words. A number's comma ("1,200 W")
// separates nothing; "a jar and three speeds" after one comma is no list
// of three. The builtin assessor's list reading and the extractive
// generator read an enumeration alike.
func Enumerates(sentence string) bool {
	parts := strings.Split(sentence, ", ")
	if len(parts) < 3 {
		return false
	}
	for _, p := range parts[1 : len(parts)-1] {
		if n := len(strings.Fields(p)); n == 0 || n > 4 {
			return false
		}
	}
	return true
}
