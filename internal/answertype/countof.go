package answertype

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// reTimeCount is a count that counts time ("10 working days", "3
// days", "two hours").
var reTimeCount = regexp.MustCompile(`(?i)^` + number + `\s+(?:(?:working|business|extra|calendar|full|whole)\b|` + timeUnit + `\b|` + monthName + `\b|` + dayName + `\b)`)

// currencySigns open a sum of money (reMoney's).
const currencySigns = "£$€¥"

// CountsTimeOrMoney reports whether expr, a count Find found in sentence
// ("10 working", "25 inspection"), counts time or money rather than
// things: a number of days, hours or years ("10 working days"), a date
// ("16 October"), a sum after a currency sign ("£25 inspection fee"), or
// nothing at all (a number before a function word: "1 and" in "between 1
// and 16 October"). Classify reads "how many days" as a period and "how
// much" as money, so a question asking for a count (Count: "how many
// steps", "how many speeds") is never answered by one. An empty expr
// (Find returns none) counts nothing.
func CountsTimeOrMoney(expr, sentence string) bool {
	if strings.TrimSpace(expr) == "" {
		return true // and would be found at every offset of sentence
	}
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
		if r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(sentence[:i], " ")); strings.ContainsRune(currencySigns, r) {
			return true
		}
		from = i + len(expr)
	}
}
