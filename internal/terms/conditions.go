package terms

import (
	"regexp"
	"strings"
)

// A Condition is a connective of time or condition in a text ("before",
// "after", "until", "while", "during", "without", "unless", "once",
// "whenever") with the terms of the words after it in its clause: the
// condition of the situation a question states ("keeps clicking off
// before the water boils": before → water, boil). The builtin assessor
// (builtin:coverage-v54, Situated) and generator (builtin:extractive-v38)
// read it.
type Condition struct {
	Conn  string
	Terms map[string]bool
}

// connectives are the words that open a situation's condition.
var connectives = map[string]bool{"before": true, "after": true, "until": true, "till": true, "while": true,
	"during": true, "without": true, "unless": true, "once": true, "whenever": true}

var (
	condWord   = regexp.MustCompile(`[\p{L}\p{N}]+(?:['’][\p{L}]+)?`)
	condBreaks = regexp.MustCompile(`[.;:!?,()]|\s[-–—]\s`)
)

// ConditionSpan is how many words after its connective a text's condition
// may name a condition's word (StatesCondition).
const ConditionSpan = 4

// Conditions reads text's conditions: each connective with the content
// terms after it up to its clause's end (or the next connective).
func (a *Analyzer) Conditions(text string) []Condition {
	var out []Condition
	for _, clause := range condBreaks.Split(strings.ToLower(text), -1) {
		words := condWord.FindAllString(clause, -1)
		for i, w := range words {
			if !connectives[w] {
				continue
			}
			c := Condition{Conn: w, Terms: map[string]bool{}}
			for _, x := range words[i+1:] {
				if connectives[x] {
					break
				}
				for _, t := range a.Terms(x) {
					c.Terms[t] = true
				}
			}
			if len(c.Terms) > 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// StatesCondition reports whether text states one of conds: the same
// connective followed, within its clause and ConditionSpan words, by a
// word of that condition ("before boiling" for "before the water
// boils"). said is the connective and its words up to that one.
func (a *Analyzer) StatesCondition(conds []Condition, text string) (said string, ok bool) {
	if len(conds) == 0 {
		return "", false
	}
	for _, clause := range condBreaks.Split(strings.ToLower(text), -1) {
		words := condWord.FindAllString(clause, -1)
		for i, w := range words {
			if !connectives[w] {
				continue
			}
			for _, c := range conds {
				if c.Conn != w {
					continue
				}
				for j := i + 1; j < len(words) && j <= i+ConditionSpan; j++ {
					for _, t := range a.Terms(words[j]) {
						if c.Terms[t] {
							return strings.Join(words[i:j+1], " "), true
						}
					}
				}
			}
		}
	}
	return "", false
}
