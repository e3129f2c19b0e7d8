package assess

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// V49Model names the builtin assessor without Builtin.Rates:
// builtin:coverage-v49, kept selectable.
const V49Model = "builtin:coverage-v49"

// rateUnits maps the adjectives and adverbs that name a rate by its time
// unit to that unit: "hourly" is "per hour", "yearly" "per year".
var rateUnits = map[string]string{"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week",
	"fortnightly": "fortnight", "monthly": "month", "quarterly": "quarter", "yearly": "year",
	"annual": "year", "annually": "year"}

// rePerUnit is a rate stated per time unit: "per hour", "an hour", "each
// month", "a year".
var rePerUnit = regexp.MustCompile(`(?i)\b(?:per|a|an|each|every)\s+(hour|day|night|week|fortnight|month|quarter|year)\b`)

// priced (Builtin.Rates, builtin:coverage-v50, round 44's a44-place) is
// owns with two credits for a question asking for an amount, each to a
// chunk that states what the question's word only names:
//
//   - a word naming a rate by its time unit ("what's our hourly rate on
//     warranty jobs?"; a question for money or a measure) is credited to
//     each chunk stating a rate per that unit ("£42 per hour of warranty
//     labour"): a page states a rate per unit, seldom with the adjective;
//   - the words that only name the kind of answer of a question for an
//     amount of money ("rate", "cost", "fee", "price":
//     answertype.NamesMoney) are credited to each chunk stating an amount
//     of money in figures: such a chunk answers "what's our hourly rate"
//     whether or not it says "rate".
//
// Neither is credited to a chunk naming the noun of a condition of being
// outside that the question states ("out of warranty", "out-of-warranty
// labour") without stating that condition itself ("£39 per hour of
// warranty labour"): its amount is said of the other case, and what the
// question's frame words name is no evidence it answers this one.
func (b *Builtin) priced(question string, asked answertype.Question, ev []Evidence, owns []map[string]bool) []map[string]bool {
	if !b.Rates || asked.Type != answertype.Money && asked.Type != answertype.Quantity {
		return owns
	}
	var named []string           // the money words' terms (a Money question)
	rated := map[string]string{} // a rate word's term → its unit, lower case
	for _, raw := range strings.Fields(question) {
		w := strings.ToLower(bareWord(raw))
		ts := b.an.Terms(w)
		if len(ts) != 1 {
			continue
		}
		if unit, ok := rateUnits[w]; ok {
			rated[ts[0]] = unit
		} else if asked.Type == answertype.Money && answertype.NamesMoney(w) && !slices.Contains(named, ts[0]) {
			named = append(named, ts[0])
		}
	}
	if len(named) == 0 && len(rated) == 0 {
		return owns
	}
	outside := b.outsideOf(question)
	for i, e := range ev {
		if b.otherCase(outside, owns[i], e.Text) {
			continue
		}
		var credit []string
		if len(named) > 0 && slices.ContainsFunc(answertype.Find(answertype.Money, e.Text), hasDigit) {
			credit = append(credit, named...)
		}
		if len(rated) > 0 {
			units := map[string]bool{}
			for _, m := range rePerUnit.FindAllStringSubmatch(e.Title+"\n"+e.Text, -1) {
				units[strings.ToLower(m[1])] = true
			}
			for t, unit := range rated {
				if units[unit] {
					credit = append(credit, t)
				}
			}
		}
		if len(credit) == 0 {
			continue
		}
		own := maps.Clone(owns[i])
		for _, t := range credit {
			own[t] = true
		}
		owns[i] = own
	}
	return owns
}

// outsideOf is the nouns of question's conditions of being outside ("out
// of warranty", "out-of-warranty labour": conditionsOf).
func (b *Builtin) outsideOf(question string) []string {
	var outside []string
	for _, c := range conditionsOf(b.an, question) {
		if !c.in {
			outside = append(outside, c.noun)
		}
	}
	return outside
}

// otherCase reports whether a chunk (own its mentions, text its text)
// names the noun of one of outside without stating that condition of
// being outside itself: what it says is said of the other case (priced,
// measured).
func (b *Builtin) otherCase(outside []string, own map[string]bool, text string) bool {
	if len(outside) == 0 {
		return false
	}
	conds := conditionsOf(b.an, text)
	return slices.ContainsFunc(outside, func(n string) bool {
		return own[n] && !slices.ContainsFunc(conds, func(c condition) bool { return c.noun == n && !c.in })
	})
}

// hasDigit reports whether s holds a digit.
func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }
