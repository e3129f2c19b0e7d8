package assess

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// V12Model names the builtin assessor without v13's readings (its plain
// entities, generic words out of the focus reading, counted phrases and
// stated values: any of Builtin.Plain, PlainMonths, FocusGeneric, Counted
// and Stated off its default): builtin:coverage-v12, kept selectable.
const V12Model = "builtin:coverage-v12"

// Plain entities (builtin:coverage-v13, Builtin.Plain). Entities finds
// names and codes by their shape, and some words have the shape without
// naming anything a document must mention:
//
//   - a word in capitals that only frames what the question asks ("is it
//     OK to put the jar in the dishwasher": "ok" is one of answertype's
//     frame words) says nothing about what the answer is about;
//   - a date written with a month or weekday name, or an ordinal ("back in
//     September", "on the 5th of October 2026", "made in January 2025"):
//     English capitalises months and days, and an ordinal holds a digit
//     and letters, but they say when, and a passage answers about dates in
//     its own terms ("between 1 and 16 October 2026", "before March 2025");
//   - a number written with a thousands separator ("25,000 rpm"): a value
//     the asker states, not a case or part number, which are written
//     without one.
//
// Such an entity is dropped: its words stay content words of the question,
// weighed as any other (a month no visible chunk uses weighs as an unknown
// word), but no chunk must name it whole. Entities itself is unchanged (the
// generator and the judge read entities with it).

// months and weekdays are their names, lower-cased.
var (
	months   = wordSet(answertype.MonthNames...)
	weekdays = wordSet(answertype.DayNames...)
	// monthAbbrevs are the months' abbreviations (builtin:coverage-v14,
	// Builtin.PlainAbbrev); "may" is a full name.
	monthAbbrevs = wordSet(answertype.MonthAbbrevs...)
)

func wordSet(words ...string) map[string]bool {
	out := map[string]bool{}
	for _, w := range words {
		out[w] = true
	}
	return out
}

var (
	reOrdinal   = regexp.MustCompile(`^\d+(?:st|nd|rd|th)$`)
	reYear      = regexp.MustCompile(`^(?:19|20)\d\d$`)
	reThousands = regexp.MustCompile(`^\d{1,3}(?:,\d{3})+(?:\.\d+)?$`)
)

// plainEntities drops from ents those that only look like a name or a
// code (see above); frame holds the question's frame terms. A month name
// counts as a date word only with Builtin.PlainMonths, a weekday only with
// PlainWeekdays.
func (b *Builtin) plainEntities(ents []Entity, frame map[string]bool) []Entity {
	return slices.DeleteFunc(slices.Clone(ents), func(e Entity) bool {
		if !slices.ContainsFunc(e.Terms, func(t string) bool { return !frame[t] }) {
			return true // "OK"
		}
		words := strings.Fields(e.Text)
		if len(words) == 1 && reThousands.MatchString(words[0]) {
			return true // "25,000"
		}
		dated := false
		for _, w := range words {
			w = strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
			switch {
			case b.PlainMonths && months[w] || b.PlainWeekdays && weekdays[w] || reOrdinal.MatchString(w) || b.PlainAbbrev && monthAbbrevs[w]:
				dated = true
			case reYear.MatchString(w):
			default:
				return false
			}
		}
		return dated // "September", "5th", "January 2025"; a year alone stays
	})
}
