package answertype

import "regexp"

// CountedPhrase is the noun phrase a count question counts: the words
// after "how many" in the clause that asks, up to an auxiliary, "to", a
// preposition or "there" ("How many different speed settings do I get on
// the X300 Pro?": different, speed, settings); nil when the clause that
// asks has no "how many". A passage counting one of its words ("ten
// speeds") counts the thing the phrase names, however the asker named the
// rest of it.
func CountedPhrase(question string) []string {
	ws := words(Asking(question))
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] != "how" || ws[i+1] != "many" {
			continue
		}
		var out []string
		for _, x := range ws[i+2:] {
			if auxiliaries[x] || x == "to" || x == "there" || questionPrepositions[x] {
				break
			}
			out = append(out, x)
		}
		return out
	}
	return nil
}

// reNumberWord is a number written in words ("three", "ten", "a dozen").
var reNumberWord = regexp.MustCompile(`(?i)^` + numWord + `$`)

// NumberWord reports whether w is a number written in words ("ten" in
// "ten speeds").
func NumberWord(w string) bool { return reNumberWord.MatchString(w) }
