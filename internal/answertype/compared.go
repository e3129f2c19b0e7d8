package answertype

// Compared is the value a comparative adjective of the question asks to
// compare, read as Valued reads "which is dearer" or "which spins faster"
// (comparativeTypes, comparativeUnits): "is the X300 Pro louder than the
// X200?" compares two measures of loudness, "is it quicker" two speeds.
// ok is false when the question holds no such adjective ("much beefier",
// "more powerful" name no one kind of value).
func Compared(question string) (q Question, ok bool) {
	for _, w := range words(plainMarks(question)) {
		if t, ok := comparativeTypes[w]; ok {
			return Question{Type: t, Unit: comparativeUnits[w], Frame: []string{w}}, true
		}
	}
	return Question{}, false
}
