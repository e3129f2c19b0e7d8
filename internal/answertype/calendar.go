package answertype

// Calendar reports whether an expression found for a period of time
// (Find(Period, ...)) is only a point in the calendar: a date, a month, a
// year or a weekday ("before March", "2026", "31 March 2027"), with no
// length of time in it ("3 to 5 working days", "within 14 days",
// "overnight"). A question asking how long something lasts or takes is
// not answered by when something happens.
func Calendar(expr string) bool {
	return reDate.MatchString(expr) && !reDuration.MatchString(expr) && !reDurWord.MatchString(expr) && !reRelative.MatchString(expr)
}

// AskedUnit reads a "what" or "which" question that asks for a measure by
// its unit ("what rpm does the X200 do", "which wattage"): the unit's
// dimension and the unit word, as typed in lower case; ok is false when
// the noun after the question word (and "is", "the") is no unit word.
// Classify reads such a question as expecting no particular type.
func AskedUnit(question string) (dim, unit string, ok bool) {
	ws := contracted(opening(words(Asking(question))))
	if len(ws) < 2 || ws[0] != "what" && ws[0] != "which" {
		return "", "", false
	}
	np := ws[1:]
	if len(np) > 0 && (np[0] == "is" || np[0] == "are" || np[0] == "was" || np[0] == "were") {
		np = np[1:]
	}
	if len(np) > 0 && (np[0] == "the" || np[0] == "a" || np[0] == "an") {
		np = np[1:]
	}
	if len(np) == 0 {
		return "", "", false
	}
	if d, found := unitWords[np[0]]; found {
		return d, np[0], true
	}
	return "", "", false
}
