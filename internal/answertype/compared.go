package answertype

// Compared is the value a comparative adjective of the question asks to
// compare, read as Valued reads "which is dearer" or "which spins faster"
// (comparativeTypes, comparativeUnits): "is the X300 Pro louder than the
// X200?" compares two measures of loudness, "is it quicker" two speeds.
// "first", "earlier", "sooner" or "later" compare two dates ("which
// agreement runs out first": the date each ends). An adjective of one dimension after "more" or "less" compares two
// measures of that dimension as its comparative form does ("more
// powerful": two powers, adjectiveDimensions; "more expensive": two
// amounts of money, moneyAdjectives). Frame holds the adjective: the word
// the compared values answer. ok is false when the question holds no such
// adjective ("much beefier" names no one kind of value).
func Compared(question string) (q Question, ok bool) {
	ws := words(plainMarks(question))
	for i, w := range ws {
		if t, ok := comparativeTypes[w]; ok {
			return Question{Type: t, Unit: comparativeUnits[w], Frame: []string{w}}, true
		}
		if timeComparatives[w] {
			return Question{Type: Date, Frame: []string{w}}, true
		}
		if i == 0 || ws[i-1] != "more" && ws[i-1] != "less" {
			continue
		}
		if moneyAdjectives[w] {
			return Question{Type: Money, Frame: []string{w}}, true
		}
		if dim, ok := adjectiveDimensions[w]; ok {
			return Question{Type: Quantity, Unit: dim, Frame: []string{w}}, true
		}
	}
	return Question{}, false
}

// moneyAdjectives after "more" or "less" compare two amounts of money
// ("is the X300 jug more expensive than the X200's").
var moneyAdjectives = set("expensive", "costly", "pricey")

// timeComparatives set two things side by side by when each happens.
var timeComparatives = set("first", "earlier", "sooner", "later")
