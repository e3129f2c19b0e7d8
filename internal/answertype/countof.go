package answertype

import (
	"regexp"
	"strings"
)

// reTimeCount is a count that counts time ("10 working days", "3
// days", "two hours").
var reTimeCount = regexp.MustCompile(`(?i)^` + number + `\s+(?:(?:working|business|extra|calendar|full|whole)\b|` + timeUnit + `\b|` + monthName + `\b|` + dayName + `\b)`)

// CountsTimeOrMoney reports whether expr, a count Find found in sentence
// ("10 working", "25 inspection"), counts time or money rather than
// things: a date ("16 October"), (or nothing: "1 and" in "between 1 and 16 October"): a number of days, hours or years ("10 working days"), or a sum
// after a currency sign ("£25 inspection fee"). Classify reads "how many
// days" as a period and "how much" as money, so a question asking for a
// count (Count: "how many steps", "how many speeds") is never answered by
// one.
func CountsTimeOrMoney(expr, sentence string) bool {
	if reTimeCount.MatchString(expr) {
		return true
	}
	if f := strings.Fields(expr); len(f) == 2 && functionWords[strings.ToLower(f[1])] {
		return true // "between 1 and 16 October": a number before "and" counts nothing
	}
	for from := 0; ; {
		i := strings.Index(sentence[from:], expr)
		if i < 0 {
			return false
		}
		i += from
		before := strings.TrimRight(sentence[:i], " ")
		if strings.HasSuffix(before, "£") || strings.HasSuffix(before, "$") || strings.HasSuffix(before, "€") || strings.HasSuffix(before, "¥") {
			return true
		}
		from = i + len(expr)
	}
}
