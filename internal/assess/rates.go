package assess

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// V49Model names the builtin assessor without Builtin.Rates:
// builtin:coverage-v49, kept selectable.
const V49Model = "builtin:coverage-v49"

// rateUnits maps the adjectives and adverbs that name a rate's time unit
// to that unit: "hourly" is "per hour", "yearly" "per year".
var rateUnits = map[string]string{"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week",
	"fortnightly": "fortnight", "monthly": "month", "quarterly": "quarter", "yearly": "year",
	"annual": "year", "annually": "year"}

// rates (Builtin.Rates, builtin:coverage-v50, round 44's a44-place) adds
// to subs, for a question asking for an amount (of money or a measure),
// each word of it that names a rate by its time unit ("what's our hourly
// rate on warranty jobs?") as covered by that unit's term: a page states a
// rate per unit ("£42 per hour of warranty labour"), seldom with the
// adjective. The adjective is read as the unit only where the question's
// own word is not in a chunk (covers reads the question's term first).
func (b *Builtin) rates(question string, asked answertype.Question, subs map[string][]string) map[string][]string {
	if !b.Rates || asked.Type != answertype.Money && asked.Type != answertype.Quantity {
		return subs
	}
	for _, raw := range strings.Fields(strings.ToLower(question)) {
		unit, ok := rateUnits[bareWord(raw)]
		if !ok {
			continue
		}
		ts, us := b.an.Terms(bareWord(raw)), b.an.Terms(unit)
		if len(ts) != 1 || len(us) != 1 || ts[0] == us[0] || slices.Contains(subs[ts[0]], us[0]) {
			continue
		}
		if subs == nil {
			subs = map[string][]string{}
		}
		subs[ts[0]] = append(subs[ts[0]], us[0])
	}
	return subs
}

// priced (Builtin.Rates) is owns with, for a question asking for an
// amount of money, the question's words that only name that kind of
// answer ("rate", "cost", "fee", "price": answertype.NamesMoney) credited
// to each chunk stating an amount of money in figures ("£42 per hour"):
// such a chunk answers "what's our hourly rate" whether or not it says
// "rate". A chunk stating none is credited nothing.
func (b *Builtin) priced(question string, asked answertype.Question, ev []Evidence, owns []map[string]bool) []map[string]bool {
	if !b.Rates || asked.Type != answertype.Money {
		return owns
	}
	var named []string
	for _, raw := range strings.Fields(question) {
		w := bareWord(raw)
		if !answertype.NamesMoney(w) {
			continue
		}
		if ts := b.an.Terms(w); len(ts) == 1 && !slices.Contains(named, ts[0]) {
			named = append(named, ts[0])
		}
	}
	if len(named) == 0 {
		return owns
	}
	for i, e := range ev {
		if !slices.ContainsFunc(answertype.Find(answertype.Money, e.Text), hasDigit) {
			continue
		}
		own := maps.Clone(owns[i])
		for _, t := range named {
			own[t] = true
		}
		owns[i] = own
	}
	return owns
}

// hasDigit reports whether s holds a digit.
func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }
