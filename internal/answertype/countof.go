package answertype

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// reTimeCount is a count that counts time ("10 working days", "3
// days", "two hours").
var reTimeCount = regexp.MustCompile(`(?i)^` + number + `\s+(?:(?:working|business|extra|calendar|full|whole)\b|` + timeUnit + `\b|` + monthName + `\b|` + dayName + `\b)`)

// reTimeUnitCount is a count of time by its unit, month or weekday ("3
// days", "16 October"), and reTimeModified one by a word that says what
// kind of day or how many more ("10 working", "2 extra"), which counts
// time only before a unit of time ("2 extra working days", not "3 extra
// blades" or "2 full jugs").
var (
	reTimeUnitCount = regexp.MustCompile(`(?i)^` + number + `\s+(?:` + timeUnit + `\b|` + monthName + `\b|` + dayName + `\b)`)
	reTimeModified  = regexp.MustCompile(`(?i)^` + number + `\s+(?:working|business|extra|calendar|full|whole)\b`)
	reModifiedUnit  = regexp.MustCompile(`(?i)^\s*(?:(?:working|business|extra|calendar|full|whole)\s+)*` + timeUnit + `\b`)
)

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
	return countsMoney(expr, sentence)
}

// countsMoney reports whether expr follows a currency sign somewhere in
// sentence ("£25 inspection fee").
func countsMoney(expr, sentence string) bool {
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

// CountsTimeOrMoneyStrictly is CountsTimeOrMoney with a count whose next
// word says what kind of day or how many more ("10 working", "2 extra",
// "2 full") counting time only where, in sentence, a unit of time follows
// those words ("2 extra working days"): "comes with 3 extra blades" and
// "fill 2 full jugs" count things.
func CountsTimeOrMoneyStrictly(expr, sentence string) bool {
	if strings.TrimSpace(expr) == "" {
		return true
	}
	if !reTimeUnitCount.MatchString(expr) && reTimeModified.MatchString(expr) {
		f := strings.Fields(expr)
		for from := 0; ; {
			i := strings.Index(sentence[from:], expr)
			if i < 0 {
				break
			}
			i += from
			rest := sentence[i+len(strings.Join(f[:1], " ")):]
			if reModifiedUnit.MatchString(rest) {
				return true
			}
			from = i + len(expr)
		}
		return countsMoney(expr, sentence)
	}
	return CountsTimeOrMoney(expr, sentence)
}

// reMeasureUnit is a unit of a measure with a dimension (units' patterns
// but the dimensionless ones, and "cups", which a kitchen counts too).
var reMeasureUnit = func() *regexp.Regexp {
	var ps []string
	for _, u := range units {
		if u.dim != "" {
			ps = append(ps, u.pattern)
		}
	}
	return regexp.MustCompile(`(?i)^(?:` + strings.Join(ps, "|") + `)$`)
}()

// MeasureUnit reports whether word is a unit of a measure with a
// dimension ("W", "litres", "rpm", "°C"), not "cups", "speeds" or
// "settings": a number before it measures, and counts no things.
func MeasureUnit(word string) bool {
	w := strings.ToLower(word)
	return w != "cup" && w != "cups" && reMeasureUnit.MatchString(w)
}
